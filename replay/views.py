"""The replay page: ``/matches/{id}/replay?ply=N&view=V``."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from clubs.selectors import show_times_of
from engine import MAX_ACTIONS
from games import display
from games import policy as match_policy
from replay.selectors import game_record, match_perspectives, visible_match


def _ply(value: str | None) -> int:
    """The ply of the link, within what any log can have (the page clamps it to the
    frames; the frames API asks for a number it can read)."""
    try:
        return min(max(0, int(value or 0)), MAX_ACTIONS)
    except ValueError:
        return 0


def replay_page(request: HttpRequest, match_id: int) -> HttpResponse:
    match = visible_match(request.user, match_id)
    show_times_of(match.club)  # when it was played, in its club's zone as on the match page
    record = game_record(match)
    perspectives = match_perspectives(
        match, {seat.seat: seat.player for seat in record.seats}, request.user
    )
    # The first perspective it may be seen from: all-seeing, or a spectator's while its
    # hidden facts are kept from this reader (games.policy).
    view = request.GET.get("view") or perspectives[0]["id"]
    if view not in [p["id"] for p in perspectives]:
        view = perspectives[0]["id"]
    hidden_until = match_policy.opens_to(request.user, match)
    config = {
        "match": match.pk,
        "framesUrl": reverse("api-match-frames", args=[match.pk]),
        # Further pages of views, fetched as the person moves through a long game.
        "viewsUrl": reverse("api-match-views", args=[match.pk]),
        "view": view,
        # The page clamps it to the frames it receives.
        "ply": _ply(request.GET.get("ply")),
        # Cards by name for the panels beside the board (the beliefs' likely cards).
        "cardWords": display.card_words(match.game),
    }
    return render(
        request,
        "replay/replay.html",
        {
            "match": match,
            "game_name": display.game_name(match.game),
            "record": record,
            # A seat by its role at the table ("Mister X (alice)"), a team by its name.
            "viewers": perspectives,
            "view": view,
            "config": config,
            # When what was hidden opens to this reader (None: it is open to them).
            "hidden_until": hidden_until,
        },
    )
