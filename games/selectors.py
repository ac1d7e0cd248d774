"""Reads of clubs and matches (HackSoft style: views call these, never build queries)."""

from __future__ import annotations

from django.db.models import Count, QuerySet

from games.models import Club, Match, Membership
from games.policy import AnyUser, club_visibility


def visible_clubs(user: AnyUser) -> QuerySet[Club]:
    """Public clubs, plus the private ones the user is a member of (games.policy)."""
    return Club.objects.filter(club_visibility(user)).distinct()


def clubs_with_player_counts(user: AnyUser) -> QuerySet[Club]:
    """The visible clubs, each with ``player_count``."""
    return visible_clubs(user).annotate(player_count=Count("players", distinct=True))


def recent_matches(user: AnyUser, limit: int = 20) -> QuerySet[Match]:
    """The newest matches of the clubs the user can see, seats and players prefetched."""
    return (
        Match.objects.filter(club__in=visible_clubs(user))
        .select_related("club")
        .prefetch_related("seats__player")
        .order_by("-uploaded_at", "-id")[:limit]
    )


def memberships_of(user: AnyUser) -> QuerySet[Membership]:
    """The clubs ``user`` belongs to, with the role held in each."""
    if not user.is_authenticated:
        return Membership.objects.none()
    return Membership.objects.filter(user=user).select_related("club").order_by("club__name")
