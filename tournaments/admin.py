from django.contrib import admin

from tournaments.models import Entry, ForbiddenPairing, Pairing, PairingSeat, Tournament


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "club",
        "game",
        "format",
        "rounds",
        "current_round",
        "status",
        "created_at",
    ]
    list_filter = ["status", "format", "game", "strict_role_parity", "club"]
    search_fields = ["name", "club__name"]
    date_hierarchy = "created_at"
    list_select_related = ["club"]
    raw_id_fields = ["created_by"]
    inlines = [EntryInline]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["player", "tournament", "seed_rating", "withdrawn", "created_at"]
    list_filter = ["withdrawn", "tournament__game"]
    search_fields = ["player__handle", "tournament__name"]
    list_select_related = ["player", "tournament"]
    raw_id_fields = ["player", "tournament"]


class PairingSeatInline(admin.TabularInline):
    model = PairingSeat
    extra = 0
    raw_id_fields = ["entry"]


@admin.register(Pairing)
class PairingAdmin(admin.ModelAdmin):
    list_display = [
        "tournament",
        "round",
        "board",
        "leg",
        "status",
        "match",
        "overridden",
        "completed_at",
    ]
    list_filter = ["status", "overridden", "tournament"]
    search_fields = ["tournament__name", "explanation"]
    date_hierarchy = "created_at"
    list_select_related = ["tournament", "match"]
    raw_id_fields = ["match", "tournament"]
    inlines = [PairingSeatInline]


@admin.register(PairingSeat)
class PairingSeatAdmin(admin.ModelAdmin):
    list_display = ["pairing", "seat", "entry", "order", "points"]
    list_filter = ["pairing__tournament__game"]
    search_fields = ["entry__player__handle", "pairing__tournament__name"]
    list_select_related = ["pairing__tournament", "entry__player", "entry__tournament"]
    raw_id_fields = ["pairing", "entry"]


@admin.register(ForbiddenPairing)
class ForbiddenPairingAdmin(admin.ModelAdmin):
    list_display = ["tournament", "first", "second", "reason"]
    search_fields = [
        "reason",
        "tournament__name",
        "first__player__handle",
        "second__player__handle",
    ]
    list_select_related = [
        "tournament",
        "first__player",
        "first__tournament",
        "second__player",
        "second__tournament",
    ]
    raw_id_fields = ["tournament", "first", "second"]
