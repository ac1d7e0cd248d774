from django.contrib import admin

from recorder.models import Draft


@admin.register(Draft)
class DraftAdmin(admin.ModelAdmin):
    list_display = ["id", "club", "game", "status", "version", "created_by", "updated_at", "match"]
    list_filter = ["status", "game"]
    raw_id_fields = ["club", "created_by", "match"]
    readonly_fields = ["version", "created_at", "updated_at"]
