"""Matches whose rating task was lost, queued again (beat)."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from config.queueing import send_task
from games.models import Match
from ladder.kernel import (
    RatingKernel,
    rate_seats,
    rated_games,
)
from ladder.models import RatingChange
from ladder.services.reads import RatedMatch, rated_matches, read_matches

log = logging.getLogger(__name__)


#: A match stored this long ago without a rating lost its task (the broker was down when
#: it was stored, say): it is queued again. Younger ones may still be in the queue.
REQUEUE_AFTER = timedelta(minutes=2)
#: Only matches stored this recently are looked at (a bounded scan every few minutes);
#: the nightly recompute rates every match of every ladder, older ones included.
REQUEUE_WITHIN = timedelta(days=2)
#: At most this many matches queued per run; the next run takes the rest.
REQUEUE_LIMIT = 2000


def unrated_matches(
    *, older_than: timedelta = REQUEUE_AFTER, within: timedelta = REQUEUE_WITHIN
) -> QuerySet[Match]:
    """Matches that count for a ladder (EL-1.2) but have no rating, stored between
    ``within`` and ``older_than`` ago."""
    now = timezone.now()
    return (
        rated_matches()
        .filter(
            game__in=rated_games(), uploaded_at__lte=now - older_than, uploaded_at__gt=now - within
        )
        .exclude(Exists(RatingChange.objects.filter(match=OuterRef("pk"))))
    )


def is_rateable(game: str, match: RatedMatch) -> bool:
    """Whether the kernel accepts the match at all (EL-4..6: e.g. not one player in
    both seats). The checks do not depend on the ratings, so a blank ladder decides."""
    try:
        rate_seats(RatingKernel(), game, match.seats, match.winner)
    except ValueError:
        return False
    return True


def requeue_unrated_matches(
    *,
    older_than: timedelta = REQUEUE_AFTER,
    within: timedelta = REQUEUE_WITHIN,
    limit: int = REQUEUE_LIMIT,
) -> int:
    """Queue ``rate_match`` again for every match :func:`unrated_matches` finds, in
    rating order per ladder (the first back-dated one recomputes the ladder from the
    earliest unrated match on; the others then find themselves rated). Matches the
    kernel refuses are left out: rating them again would only recompute for nothing.
    Stops when the broker is still unreachable. Returns how many were queued."""

    per_ladder: dict[tuple[int, str], list[int]] = {}
    for match_id, club_id, game in (
        unrated_matches(older_than=older_than, within=within)
        .order_by("id")
        .values_list("id", "club_id", "game")[:limit]
    ):
        per_ladder.setdefault((club_id, game), []).append(match_id)
    queued = 0
    for (club_id, game), match_ids in per_ladder.items():
        for match in read_matches(club_id, game, match_ids=match_ids):
            if not is_rateable(game, match):
                continue
            if not send_task("ladder.rate_match", match.id):
                log.warning("requeue stopped after %s matches: the broker is unreachable", queued)
                return queued
            queued += 1
    if queued:
        log.info("queued %s unrated matches for rating again", queued)
    return queued
