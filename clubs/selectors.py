"""Reads for the club management pages."""

from __future__ import annotations

from django.db.models import Count, QuerySet
from django.utils import timezone

from clubs.models import AuditEntry, Club, HandleClaim, Invite, JoinRequest, Membership, Player


def members(club: Club) -> QuerySet[Membership]:
    return club.memberships.select_related("user").order_by("-role", "user__username")


def invite_in(next_url: str | None) -> Invite | None:
    """The invitation a sign-in or sign-up page's ``next`` leads to, if it is one (so the
    page can say so, and a new account can take it up)."""
    from urllib.parse import urlsplit

    from django.urls import Resolver404, resolve

    if not next_url:
        return None
    try:
        match = resolve(urlsplit(next_url).path)
    except Resolver404:
        return None
    if match.url_name != "invite-accept":
        return None
    return Invite.objects.select_related("club").filter(token=match.kwargs["token"]).first()


def members_with_handles(club: Club) -> list[Membership]:
    """The members, organisers first, each with ``handles``: the club's players linked
    to their account."""
    rows = list(members(club))
    handles: dict[int, list[str]] = {}
    for user_id, handle in club.players.filter(user__isnull=False).values_list("user_id", "handle"):
        handles.setdefault(user_id, []).append(handle)
    for membership in rows:
        membership.handles = sorted(handles.get(membership.user_id, []))
    return rows


def pending_claims(club: Club) -> QuerySet[HandleClaim]:
    return (club.handle_claims.filter(status=HandleClaim.Status.PENDING)
            .select_related("user", "player"))


def claims_of(user, club: Club) -> QuerySet[HandleClaim]:
    return club.handle_claims.filter(user=user).select_related("player")


def free_handles(club: Club) -> QuerySet[Player]:
    """The club's handles no account is linked to, with ``match_count``."""
    return players_with_match_counts(club).filter(user__isnull=True)


def pending_join_requests(club: Club) -> QuerySet[JoinRequest]:
    return club.join_requests.filter(status=JoinRequest.Status.PENDING).select_related("user")


def open_invites(club: Club) -> QuerySet[Invite]:
    """Invites that still work: unused, not revoked, not expired."""
    return club.invites.filter(
        used_at__isnull=True, revoked_at__isnull=True, expires_at__gt=timezone.now()
    ).select_related("player", "created_by")


def players_with_match_counts(club: Club) -> QuerySet[Player]:
    return club.players.annotate(match_count=Count("seats")).order_by("handle")


def audit_trail(club: Club, limit: int = 50) -> QuerySet[AuditEntry]:
    return club.audit_entries.select_related("actor")[:limit]
