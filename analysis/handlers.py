"""Automatic analysis: a club with ``auto_analysis`` on has every finished match it
stores analysed (queued on the ``analysis`` queue once the matches are committed),
within the club's CPU budget for the day (analysis.budgets)."""

from __future__ import annotations

from typing import Any

from analysis.services import analyse_automatically
from clubs.models import Club
from games import events as match_events
from games.models import Match


def analyse_stored(
    sender: Any,
    *,
    club_id: int,
    finished_ids: list[int] | None = None,
    auto_analysis: bool | None = None,
    **kwargs: Any,
) -> None:
    """``auto_analysis`` is the club's setting when the sender has the club in hand (a
    single upload), so storing a match costs no extra read; otherwise it is read here."""
    if not finished_ids:
        return
    if auto_analysis is None:
        auto_analysis = Club.objects.filter(pk=club_id, auto_analysis=True).exists()
    if not auto_analysis:
        return
    analyse_automatically(
        Match.objects.filter(pk__in=finished_ids, status=Match.Status.VALID)
        .select_related("log")
        .order_by("pk")
    )


def connect() -> None:
    match_events.matches_stored.connect(analyse_stored, dispatch_uid="analysis.analyse_stored")
