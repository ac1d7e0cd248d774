from django.contrib import admin

from config.admin_base import RecordAdmin
from live.models import SeatLink, Table, TableEvent, TableSeat


class TableSeatInline(admin.TabularInline):
    model = TableSeat
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "club",
        "game",
        "status",
        "last_event",
        "created_by",
        "updated_at",
        "match",
    ]
    list_filter = ["status", "game"]
    search_fields = ["=id", "club__name", "created_by__username"]
    list_select_related = ["club", "created_by", "match"]
    raw_id_fields = ["club", "created_by", "match"]
    readonly_fields = ["last_event", "created_at", "updated_at"]
    inlines = [TableSeatInline]


@admin.register(TableEvent)
class TableEventAdmin(RecordAdmin):
    """Each numbered event of a table (what its sockets were told)."""

    list_display = ["table", "number", "kind", "seat", "ply", "created_at"]
    list_filter = ["kind"]
    raw_id_fields = ["table"]


@admin.register(TableSeat)
class TableSeatAdmin(admin.ModelAdmin):
    """Who sits where at each table (also shown inline on the table)."""

    list_display = ["table", "seat", "order", "user", "bot", "player"]
    list_select_related = ["table__club", "user"]
    search_fields = ["=table__id", "user__username", "player"]
    raw_id_fields = ["table", "user"]


@admin.register(SeatLink)
class SeatLinkAdmin(RecordAdmin):
    """The one-time seat links made for guests: who made each, who used it and when (an
    operator may delete one that should not be used; its token is never shown)."""

    list_display = ["table", "seat", "created_by", "created_at", "used_by", "used_at"]
    list_select_related = ["table__club", "created_by", "used_by"]
    search_fields = ["=table__id", "created_by__username", "used_by__username"]
    raw_id_fields = ["table", "created_by", "used_by"]
    exclude = ["token_hash"]
