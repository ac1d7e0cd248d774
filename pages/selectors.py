"""Reads that gather several apps for the pages of this app."""

from __future__ import annotations

from django.db.models import Count, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce

from clubs.models import Club, Membership, Player
from clubs.policy import AnyUser
from clubs.selectors import visible_clubs
from games.models import Match


def club_directory(user: AnyUser) -> QuerySet[Club]:
    """The visible clubs, each with ``player_count``, ``member_count`` and ``match_count``."""

    # One counting subquery each: joining the three would multiply their rows.
    def count(model: type) -> Coalesce:
        rows = (
            model.objects.filter(club=OuterRef("pk"))
            .order_by()
            .values("club")
            .annotate(n=Count("pk"))
            .values("n")
        )
        return Coalesce(Subquery(rows), 0)

    return (
        visible_clubs(user)
        .annotate(
            player_count=count(Player),
            member_count=count(Membership),
            match_count=count(Match),
        )
        .order_by("name")
    )
