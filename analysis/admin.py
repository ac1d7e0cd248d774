from django.contrib import admin

from analysis.models import MatchAnalysis
from config.admin_base import RecordAdmin


@admin.register(MatchAnalysis)
class MatchAnalysisAdmin(RecordAdmin):
    """Analyses the workers stored (analysis.services): read here; deleting one lets a
    member request it again."""

    list_display = ["id", "match", "engine_version", "status", "plies_done", "plies_total", "attempts",
                    "created_at", "finished_at"]
    list_filter = ["status", "engine_version"]
    list_select_related = ["match"]
    search_fields = ["engine_version", "error"]
    raw_id_fields = ["match", "requested_by"]
