from django.contrib import admin

from analysis.models import AnalysisChunk, ClubAnalysisDay, MatchAnalysis
from config.admin_base import RecordAdmin


@admin.register(MatchAnalysis)
class MatchAnalysisAdmin(RecordAdmin):
    """Analyses the workers stored (analysis.services): read here; deleting one lets a
    member request it again."""

    list_display = [
        "id",
        "match",
        "engine_version",
        "status",
        "plies_done",
        "plies_total",
        "attempts",
        "created_at",
        "finished_at",
    ]
    list_filter = ["status", "engine_version"]
    list_select_related = ["match"]
    search_fields = ["engine_version", "error"]
    raw_id_fields = ["match", "requested_by"]


@admin.register(ClubAnalysisDay)
class ClubAnalysisDayAdmin(RecordAdmin):
    """A club's CPU seconds of automatic analysis on one day (analysis.budgets): read here."""

    list_display = ["club", "day", "reserved_seconds", "skipped"]
    list_select_related = ["club"]
    search_fields = ["club__name"]
    date_hierarchy = "day"
    raw_id_fields = ["club"]


@admin.register(AnalysisChunk)
class AnalysisChunkAdmin(RecordAdmin):
    """Chunks of plies of running analyses, as workers run and store them (analysis.chunking)."""

    list_display = ["analysis", "index", "first", "stop", "started_at", "heartbeat_at"]
    list_select_related = ["analysis"]
    raw_id_fields = ["analysis"]
