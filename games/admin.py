from django.contrib import admin

from config.admin_base import RecordAdmin, RecordInline
from games.models import Import, Match, MatchLog, MatchSeat, Upload


class MatchSeatInline(RecordInline):
    model = MatchSeat
    fields = ["seat", "player", "outcome"]


@admin.register(Match)
class MatchAdmin(RecordAdmin):
    """Matches are what the engine made of an uploaded log: read-only here. Voiding goes
    through the club's manage page (audited, the ladder recomputes)."""

    list_display = [
        "id",
        "club",
        "game",
        "status",
        "winner",
        "is_void",
        "action_count",
        "played_at",
        "uploaded_at",
        "uploaded_by",
    ]
    list_filter = ["status", "game", "is_void", "club"]
    search_fields = ["=id", "content_hash", "seats__player__handle", "club__name"]
    date_hierarchy = "uploaded_at"
    list_select_related = ["club", "uploaded_by"]
    inlines = [MatchSeatInline]


@admin.register(MatchSeat)
class MatchSeatAdmin(RecordAdmin):
    list_display = ["match", "seat", "player", "outcome"]
    list_filter = ["outcome", "match__game"]
    search_fields = ["player__handle", "seat", "=match__id"]
    list_select_related = ["match", "player"]


@admin.register(MatchLog)
class MatchLogAdmin(RecordAdmin):
    """The stored log documents, exactly as uploaded: never edited."""

    list_display = ["match", "game", "club"]
    list_filter = ["match__game"]
    search_fields = ["=match__id", "match__club__name"]
    list_select_related = ["match__club"]

    @admin.display(ordering="match__game")
    def game(self, log: MatchLog) -> str:
        return log.match.game

    @admin.display(ordering="match__club__name")
    def club(self, log: MatchLog) -> str:
        return log.match.club.name


@admin.register(Upload)
class UploadAdmin(RecordAdmin):
    """Every upload attempt, read-only: the record of what was tried and why it failed."""

    list_display = [
        "id",
        "club",
        "created_at",
        "uploaded_by",
        "source",
        "game",
        "status",
        "error",
        "error_rule",
        "error_index",
        "validation_ms",
        "match",
    ]
    list_filter = ["status", "error", "source", "game", "club"]
    search_fields = [
        "=id",
        "content_hash",
        "name",
        "error_rule",
        "error_message",
        "club__name",
        "uploaded_by__username",
    ]
    date_hierarchy = "created_at"
    list_select_related = ["club", "uploaded_by", "match"]

    def get_queryset(self, request):
        # The list never shows the document (it can be megabytes a row); a change page
        # loads it when it shows it.
        return super().get_queryset(request).defer("document_text")


@admin.register(Import)
class ImportAdmin(RecordAdmin):
    list_display = [
        "id",
        "club",
        "created_at",
        "created_by",
        "filename",
        "status",
        "total",
        "processed",
        "accepted",
        "duplicates",
        "rejected",
    ]
    list_filter = ["status", "club"]
    search_fields = ["=id", "filename", "club__name", "created_by__username"]
    date_hierarchy = "created_at"
    list_select_related = ["club", "created_by"]
    exclude = ["payload"]  # the uploaded file's bytes: not for a page

    def get_queryset(self, request):
        return super().get_queryset(request).defer("payload")
