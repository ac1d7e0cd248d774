"""Reads for the club management pages."""

from __future__ import annotations

from django.db.models import Count, QuerySet
from django.utils import timezone

from clubs.models import AuditEntry, Club, Invite, JoinRequest, Membership, Player


def members(club: Club) -> QuerySet[Membership]:
    return club.memberships.select_related("user").order_by("-role", "user__username")


def pending_join_requests(club: Club) -> QuerySet[JoinRequest]:
    return club.join_requests.filter(status=JoinRequest.Status.PENDING).select_related("user")


def open_invites(club: Club) -> QuerySet[Invite]:
    """Invites that still work: unused, not revoked, not expired."""
    return club.invites.filter(
        used_at__isnull=True, revoked_at__isnull=True, expires_at__gt=timezone.now()
    )


def players_with_match_counts(club: Club) -> QuerySet[Player]:
    return club.players.annotate(match_count=Count("seats")).order_by("handle")


def audit_trail(club: Club, limit: int = 50) -> QuerySet[AuditEntry]:
    return club.audit_entries.select_related("actor")[:limit]
