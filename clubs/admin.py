from django.contrib import admin

from clubs.models import AuditEntry, Club, HandleClaim, Invite, JoinRequest, Membership, Player
from config.admin_base import RecordAdmin


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
    date_hierarchy = "created_at"
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline, PlayerInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["handle", "club", "user", "created_at"]
    list_filter = ["club"]
    search_fields = ["handle", "user__username", "club__name"]
    list_select_related = ["club", "user"]
    raw_id_fields = ["user"]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "role", "joined_at"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "club__name"]
    date_hierarchy = "joined_at"
    list_select_related = ["user", "club"]
    raw_id_fields = ["user"]


@admin.register(Invite)
class InviteAdmin(RecordAdmin):
    """Invites are made and withdrawn on the club's manage page (audited there)."""

    list_display = [
        "club",
        "role",
        "created_by",
        "created_at",
        "expires_at",
        "used_at",
        "used_by",
        "revoked_at",
    ]
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


@admin.register(HandleClaim)
class HandleClaimAdmin(RecordAdmin):
    """Answered on the club's manage page (audited there)."""

    list_display = ["club", "player", "user", "status", "created_at", "decided_at", "decided_by"]
    list_filter = ["status", "club"]
    search_fields = ["club__name", "user__username", "player__handle"]
    date_hierarchy = "created_at"
    list_select_related = ["club", "player", "user", "decided_by"]


@admin.register(AuditEntry)
class AuditEntryAdmin(RecordAdmin):
    """The audit trail: who changed what in a club, and when. Never edited."""

    list_display = ["created_at", "club", "actor", "action", "summary"]
    list_filter = ["action", "club"]
    search_fields = ["summary", "action", "club__name", "actor__username"]
    date_hierarchy = "created_at"
    list_select_related = ["club", "actor"]
