"""Ladder pages: standings, a player's ratings, head-to-head. Server-rendered, SVG inline."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from clubs.models import Club
from clubs.policy import can_view_club
from ladder import selectors
from ladder.charts import polyline
from ladder.kernel import rating_shape


def club_ladders(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=club_slug)
    if not can_view_club(request.user, club):
        raise Http404("No such club")
    return render(
        request,
        "ladder/club_ladders.html",
        {"club": club, "ladders": selectors.ladders_of_club(club)},
    )


def standings(request: HttpRequest, club_slug: str, game: str) -> HttpResponse:
    ladder = selectors.visible_ladder(request.user, club_slug, game)
    rows = selectors.standings(ladder)
    for row in rows:
        row.sparkline = polyline(row.trend, 100, 24)
    return render(
        request,
        "ladder/standings.html",
        {
            "ladder": ladder,
            "rows": rows,
            "shape": rating_shape(ladder.game),
            "options": ladder.rating_options,
            "jobs": selectors.latest_jobs(ladder, 3),
        },
    )


def head_to_head(
    request: HttpRequest, club_slug: str, game: str, a: str, b: str | None = None
) -> HttpResponse:
    ladder = selectors.visible_ladder(request.user, club_slug, game)
    if b is None:  # the form on the player page
        other = request.GET.get("vs", "")
        if not other:
            return redirect("ladder-player", club_slug, game, a)
        return redirect("ladder-h2h", club_slug, game, a, other)
    first, second = selectors.ladder_player(ladder, a), selectors.ladder_player(ladder, b)
    return render(
        request,
        "ladder/head_to_head.html",
        {"ladder": ladder, "h2h": selectors.head_to_head(ladder, first, second)},
    )
