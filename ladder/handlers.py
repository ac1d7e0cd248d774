"""How the ladder reacts to what happens to a club's matches and players (domain events,
config.events):
rate new finished matches, recompute without a voided match or after two handles merged.
Connected in LadderConfig.ready. Tasks are queued by name (config.queueing)."""

from __future__ import annotations

from typing import Any

from clubs import events as club_events
from config import queueing
from games import events as match_events


def rate_stored(*, finished_ids: list[int], batch: bool = False, **_: Any) -> None:
    """Rated once committed: one task per match uploaded, one per batch of an import
    (sending a task costs about as much as storing a match)."""
    if not finished_ids:
        return
    if batch:
        queueing.send_task("ladder.rate_matches", list(finished_ids))
    else:
        for match_id in finished_ids:
            queueing.send_task("ladder.rate_match", match_id)


def rate_voided(*, match_id: int, **_: Any) -> None:
    """Rating a voided match makes its ladder recompute without it (EL-1.2); rating a
    restored one, with it."""
    queueing.send_task("ladder.rate_match", match_id)


def recompute_merged(*, club_id: int, merged: bool = False, **_: Any) -> None:
    """Two handles became one: every ladder of the club recomputes from scratch, so the
    ratings are as if the logs had named the one player all along."""
    if not merged:
        return
    from ladder.models import Ladder, RecomputeJob
    from ladder.services import queue_recompute

    for ladder in Ladder.objects.filter(club_id=club_id):
        # A job per ladder, visible at once and passed to the task: a task run again
        # after its worker was lost finishes this job rather than leaving it "running".
        queue_recompute(ladder, RecomputeJob.Reason.CHANGED)


def connect() -> None:
    match_events.matches_stored.connect(rate_stored, dispatch_uid="ladder.rate_stored")
    match_events.match_voided.connect(rate_voided, dispatch_uid="ladder.rate_voided")
    match_events.match_restored.connect(rate_voided, dispatch_uid="ladder.rate_restored")
    club_events.players_changed.connect(recompute_merged, dispatch_uid="ladder.recompute_merged")
