from django.contrib import admin

from tournaments.models import Entry, ForbiddenPairing, Pairing, PairingSeat, Tournament


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "game", "format", "rounds", "current_round", "status"]
    list_filter = ["status", "format", "game", "club"]
    search_fields = ["name"]
    inlines = [EntryInline]


class PairingSeatInline(admin.TabularInline):
    model = PairingSeat
    extra = 0
    raw_id_fields = ["entry"]


@admin.register(Pairing)
class PairingAdmin(admin.ModelAdmin):
    list_display = ["tournament", "round", "board", "leg", "status", "match", "overridden"]
    list_filter = ["status", "tournament"]
    raw_id_fields = ["match"]
    inlines = [PairingSeatInline]


@admin.register(ForbiddenPairing)
class ForbiddenPairingAdmin(admin.ModelAdmin):
    list_display = ["tournament", "first", "second", "reason"]
    raw_id_fields = ["first", "second"]
