from django.contrib import admin

from games.models import Club, Import, Match, MatchLog, MatchSeat, Membership, Player, Upload


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    fields = ["handle", "user"]
    raw_id_fields = ["user"]


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "is_public", "created_at"]
    list_filter = ["is_public"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline, PlayerInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["handle", "club", "user", "created_at"]
    list_filter = ["club"]
    search_fields = ["handle"]
    raw_id_fields = ["user"]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "role", "joined_at"]
    list_filter = ["role", "club"]
    raw_id_fields = ["user"]


class MatchSeatInline(admin.TabularInline):
    model = MatchSeat
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["id", "club", "game", "status", "winner", "played_at", "uploaded_at"]
    list_filter = ["status", "game", "club"]
    search_fields = ["content_hash", "seats__player__handle"]
    raw_id_fields = ["uploaded_by"]
    readonly_fields = ["uploaded_at", "content_hash"]
    inlines = [MatchSeatInline]


@admin.register(MatchLog)
class MatchLogAdmin(admin.ModelAdmin):
    list_display = ["match"]
    raw_id_fields = ["match"]


@admin.register(Upload)
class UploadAdmin(admin.ModelAdmin):
    """Every upload attempt, read-only: the record of what was tried and why it failed."""

    list_display = ["id", "club", "created_at", "uploaded_by", "source", "status", "error",
                    "error_rule", "error_index", "match"]
    list_filter = ["status", "error", "source", "club"]
    search_fields = ["content_hash", "name", "error_message"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Import)
class ImportAdmin(admin.ModelAdmin):
    list_display = ["id", "club", "created_at", "created_by", "filename", "status", "total",
                    "processed", "accepted", "duplicates", "rejected"]
    list_filter = ["status", "club"]
    exclude = ["payload"]  # the uploaded file's bytes: not for a form

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
