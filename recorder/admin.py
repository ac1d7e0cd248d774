from django.contrib import admin

from recorder.models import Draft


@admin.register(Draft)
class DraftAdmin(admin.ModelAdmin):
    list_display = ["id", "club", "game", "status", "version", "created_by", "updated_at", "match"]
    list_filter = ["status", "game", "chance"]
    search_fields = ["=id", "club__name", "created_by__username"]
    date_hierarchy = "updated_at"
    list_select_related = ["club", "created_by", "match"]
    raw_id_fields = ["club", "created_by", "match"]
    readonly_fields = ["version", "created_at", "updated_at"]
