from django.contrib import admin

from config.admin_base import RecordAdmin
from recorder.models import Draft, DraftWrite


@admin.register(Draft)
class DraftAdmin(admin.ModelAdmin):
    list_display = ["id", "club", "game", "status", "version", "created_by", "updated_at", "match"]
    list_filter = ["status", "game", "chance"]
    search_fields = ["=id", "club__name", "created_by__username"]
    date_hierarchy = "updated_at"
    list_select_related = ["club", "created_by", "match"]
    raw_id_fields = ["club", "created_by", "match"]
    readonly_fields = ["version", "created_at", "updated_at"]


@admin.register(DraftWrite)
class DraftWriteAdmin(RecordAdmin):
    """Each write to a draft (an audit trail; a repeat of the latest is answered from it)."""

    list_display = ["id", "draft", "version", "kind", "user", "created_at"]
    list_filter = ["kind"]
    search_fields = ["=draft__id", "user__username"]
    list_select_related = ["draft__club", "user"]
    raw_id_fields = ["draft", "user"]
