from django.contrib import admin

from clubs.models import AuditEntry, Invite, JoinRequest
from config.admin_base import RecordAdmin


@admin.register(Invite)
class InviteAdmin(RecordAdmin):
    """Invites are made and withdrawn on the club's manage page (audited there)."""

    list_display = ["club", "role", "created_by", "created_at", "expires_at", "used_at",
                    "used_by", "revoked_at"]
    list_filter = ["role", "club"]
    search_fields = ["club__name", "created_by__username", "used_by__username"]
    date_hierarchy = "created_at"
    list_select_related = ["club", "created_by", "used_by"]
    exclude = ["token"]  # the link itself: whoever reads it can join


@admin.register(JoinRequest)
class JoinRequestAdmin(RecordAdmin):
    """Decided on the club's manage page (audited there)."""

    list_display = ["club", "user", "status", "created_at", "decided_at", "decided_by"]
    list_filter = ["status", "club"]
    search_fields = ["club__name", "user__username", "message"]
    date_hierarchy = "created_at"
    list_select_related = ["club", "user", "decided_by"]


@admin.register(AuditEntry)
class AuditEntryAdmin(RecordAdmin):
    """The audit trail: who changed what in a club, and when. Never edited."""

    list_display = ["created_at", "club", "actor", "action", "summary"]
    list_filter = ["action", "club"]
    search_fields = ["summary", "action", "club__name", "actor__username"]
    date_hierarchy = "created_at"
    list_select_related = ["club", "actor"]
