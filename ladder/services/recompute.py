"""Recomputing a ladder: in memory first (progress on its RecomputeJob), then the
ratings and history swapped in one transaction."""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import Count, F, Min, Q, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from ladder.kernel import (
    LadderState,
    RatingKernel,
    opposed_roles,
    rate_seats,
)
from ladder.models import Ladder, Rating, RatingChange, RecomputeJob
from ladder.services.reads import BATCH, RatedMatch, read_matches
from ladder.services.standings import (
    CHANGE_COLUMNS,
    Standings,
    change_tuples,
    insert_changes,
    rating_rows,
    upsert_ratings,
)

log = logging.getLogger(__name__)

#: a recompute looks at the clock every this many matches at most...
PROGRESS_EVERY = 5000
#: ...and about this many times in all on smaller ladders...
PROGRESS_STEPS = 100
#: ...and saves its progress when this many seconds passed since it last did: the
#: dashboard's bar moves on long recomputes, a short one writes nothing extra.
PROGRESS_SECONDS = 0.5


@dataclass
class Computed:
    """A ladder (or its tail from ``first_sequence`` on) computed in memory, ready to
    swap in."""

    version: int
    first_sequence: int  # 1: the whole ladder
    kernel: RatingKernel
    standings: Standings
    changes: list[tuple]  # RatingChange rows, CHANGE_COLUMNS
    last: RatedMatch | None
    count: int  # matches rated here
    #: matches the kernel refused (e.g. one player in both seats), with the reason
    skipped: list[str]


def base_state(
    ladder: Ladder, first_sequence: int, player_ids: set[int]
) -> tuple[LadderState, Standings]:
    """The ladder as it stood before the match numbered ``first_sequence``, for the given
    players, from the stored history (four grouped queries)."""
    state, standings = LadderState(), Standings()
    earlier = RatingChange.objects.filter(ladder=ladder, sequence__lt=first_sequence)
    if first_sequence <= 1:
        return state, standings
    mine = earlier.filter(player_id__in=player_ids)
    latest = (
        mine.annotate(
            newest=Window(RowNumber(), partition_by=[F("player_id")], order_by=F("sequence").desc())
        )
        .filter(newest=1)
        .values_list("player_id", "after", "played_at")
    )
    for player, after, at in latest:
        state.ratings[player] = after
        standings.last_played[player] = at
    for player, role, won, count in (
        mine.values("player_id", "role", "won")
        .annotate(n=Count("id"))
        .values_list("player_id", "role", "won", "n")
    ):
        state.games[player] = state.games.get(player, 0) + count
        table = standings.wins if won else standings.losses
        table[player] = table.get(player, 0) + count
        record = standings.roles.setdefault(player, {}).setdefault(role, {"wins": 0, "losses": 0})
        record["wins" if won else "losses"] += count
    # EL-3.3 tallies: one change per match carries the tallied role (cryptid, mrx).
    for role, won, count in (
        earlier.filter(role__in=list(opposed_roles()))
        .values("role", "won")
        .annotate(n=Count("id"))
        .values_list("role", "won", "n")
    ):
        tally = state.role_tallies.setdefault(role, [0, 0])
        tally[0] += count if won else 0
        tally[1] += count
    return state, standings


def compute_ladder(
    ladder: Ladder,
    progress: Callable[[int, int], None] | None = None,
    since: tuple[datetime, int] | None = None,
) -> Computed:
    """Rate the ladder's matches in memory (no writes): all of them, or, ``since`` a
    back-dated match, that match and every one after it, from the stored state before."""
    version = ladder.version
    first_sequence = 1
    if since is not None:
        at, match_id = since
        first_sequence = (
            RatingChange.objects.filter(ladder=ladder)
            .filter(Q(played_at__gt=at) | Q(played_at=at, match_id__gte=match_id))
            .aggregate(first=Min("sequence"))["first"]
            or ladder.rated_matches + 1
        )
    with collector_paused():
        matches = read_matches(ladder.club_id, ladder.game, since=since, with_bots=ladder.with_bots)
        players = {seat.player for match in matches for seat in match.seats}
        state, standings = base_state(ladder, first_sequence, players)
        kernel = RatingKernel(ladder.rating_options, state)
        rows: list[tuple] = []
        total = len(matches)
        every = progress_interval(total)
        sequence, last, skipped = first_sequence, None, []
        reported = time.monotonic()
        for n, match in enumerate(matches, 1):
            try:
                changes = rate_seats(kernel, ladder.game, match.seats, match.winner)
            except ValueError as exc:  # refused before any state changed
                skipped.append(f"match {match.id} not rated: {exc}")
                continue
            standings.add(changes, match.at)
            rows.extend(change_tuples(ladder.pk, match, sequence, changes))
            sequence, last = sequence + 1, match
            if progress and n % every == 0 and time.monotonic() - reported >= PROGRESS_SECONDS:
                progress(n, total)
                reported = time.monotonic()
    return Computed(
        version, first_sequence, kernel, standings, rows, last, sequence - first_sequence, skipped
    )


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for a block (and back as it was after).

    A recompute builds millions of long-lived objects (matches, seats, history rows)
    and no reference cycles; the collector, triggered by every few hundred new
    objects, would walk all of them again and again — measured at 3/4 of the CPU
    time of reading 100,000 matches. Reference counting still frees everything."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def progress_interval(total: int) -> int:
    """How often (in matches) a recompute of ``total`` matches looks whether to save its
    progress: about PROGRESS_STEPS times, and at least every PROGRESS_EVERY matches."""
    return max(1, min(PROGRESS_EVERY, total // PROGRESS_STEPS))


def report_progress(job_id: int, done: int, total: int) -> None:
    """Save a running recompute's progress (matches rated so far of ``total``), which is
    also its sign of life; the dashboard and the jobs API read it while it goes on."""
    RecomputeJob.objects.filter(pk=job_id).update(
        progress=done, total=total, phase="rating", heartbeat_at=timezone.now()
    )


def swap_in(ladder: Ladder, computed: Computed) -> bool:
    """Replace the ladder's ratings and history (from ``first_sequence`` on) by
    ``computed`` in one transaction. Returns False (and writes nothing) when the ladder
    changed since it was computed."""
    with transaction.atomic():
        locked = Ladder.objects.select_for_update().get(pk=ladder.pk)
        if locked.version != computed.version:
            return False
        kernel = computed.kernel
        ratings = rating_rows(locked, kernel, computed.standings, sorted(kernel.state.ratings))
        rows = computed.changes
        # Only the history from the first match that differs is rewritten: the nightly
        # recompute of a ladder nothing happened to writes no history at all.
        start, rewrite_from = unchanged_history(locked, rows, computed.first_sequence)
        RatingChange.objects.filter(ladder=locked, sequence__gte=rewrite_from).delete()
        insert_changes(rows[start:])
        if computed.first_sequence == 1:
            Rating.objects.filter(ladder=locked).delete()
            Rating.objects.bulk_create(ratings, batch_size=BATCH)
        else:  # players of the recomputed matches only; the others did not change
            upsert_ratings(ratings)
        last = computed.last
        if last is None and computed.first_sequence > 1:
            # Nothing after the kept history: the newest match is the last one kept.
            kept = (
                RatingChange.objects.filter(ladder=locked)
                .order_by("-sequence")
                .values_list("played_at", "match_id")
                .first()
            )
            last_at, last_id = kept if kept else (None, None)
        else:
            last_at, last_id = (last.at, last.id) if last else (None, None)
        Ladder.objects.filter(pk=locked.pk).update(
            role_tallies=kernel.state.role_tallies,
            last_rated_at=last_at,
            last_rated_match_id=last_id,
            rated_matches=computed.first_sequence - 1 + computed.count,
            version=F("version") + 1,
        )
    return True


#: index of ``sequence`` in a history row (CHANGE_COLUMNS)
_SEQUENCE = CHANGE_COLUMNS.index("sequence")


def unchanged_history(ladder: Ladder, rows: list[tuple], first_sequence: int) -> tuple[int, int]:
    """(index in ``rows``, sequence) of the first match whose history ``rows`` (computed
    from ``first_sequence`` on) changes: rows before it are stored already, exactly, and
    stay; the stored history from that sequence on is to be replaced by ``rows[index:]``.

    Reads the stored rows in order and stops at the first difference: a ladder whose
    options changed stops at once, an unchanged one reads its history (much cheaper than
    rewriting it: every stored row costs index entries and three foreign-key checks).
    Floats compare by value (0.0 equals -0.0: SQLite does not keep the sign of zero)."""
    stored = (
        RatingChange.objects.filter(ladder=ladder, sequence__gte=first_sequence)
        .order_by("sequence", "id")
        .values_list(*CHANGE_COLUMNS)
        .iterator(chunk_size=BATCH)
    )
    index = 0
    for new in rows:
        old = next(stored, None)
        if old != new:  # a changed row, or the stored history ends here
            differs_at = new[_SEQUENCE] if old is None else min(old[_SEQUENCE], new[_SEQUENCE])
            break
        index += 1
    else:
        extra = next(stored, None)  # stored rows beyond the computed ones go
        if extra is None:
            return len(rows), (rows[-1][_SEQUENCE] + 1 if rows else first_sequence)
        differs_at = extra[_SEQUENCE]
    # Back to the first row of the differing match: a match is rewritten whole.
    start = index
    while start > 0 and rows[start - 1][_SEQUENCE] >= differs_at:
        start -= 1
    return start, differs_at


#: Rating columns upsert_ratings writes; (ladder, player) is the conflict it updates on
def recompute_ladder(
    ladder_id: int,
    *,
    reason: str = RecomputeJob.Reason.MANUAL,
    job: RecomputeJob | None = None,
    since: tuple[datetime, int] | None = None,
    hold_lock: bool = False,
) -> RecomputeJob:
    """Recompute one ladder from all its rated matches, or from ``since`` (a back-dated
    match's (time, id)) on; deterministic and idempotent.

    Computes without holding the lock (progress is saved as it goes), then swaps in
    under the lock; if a match was rated meanwhile, computes again (at most three
    times, then once more while holding the lock). ``hold_lock``: compute while holding
    it from the start, as a back-dated upload does — on a ladder busy with uploads the
    attempts without it are mostly overtaken by the next rating, and each is wasted."""
    if job is None:
        job = RecomputeJob.objects.create(ladder_id=ladder_id, reason=reason)
    job.status, job.started_at, job.phase = RecomputeJob.Status.RUNNING, timezone.now(), "reading"
    job.error, job.heartbeat_at = "", job.started_at
    job.save(update_fields=["status", "started_at", "phase", "error", "heartbeat_at"])

    def progress(done: int, total: int) -> None:
        report_progress(job.pk, done, total)

    try:
        # Paused for the whole recompute, and the computed history dropped before it
        # resumes: its first collection then has nothing big left to walk.
        with collector_paused():
            for attempt in range(3 if hold_lock else 0, 4):
                if attempt == 3:
                    with transaction.atomic():
                        ladder = Ladder.objects.select_for_update().get(pk=ladder_id)
                        computed = compute_ladder(ladder, since=since)
                        swap_in(ladder, computed)  # nested: the lock is ours, the version holds
                    break
                ladder = Ladder.objects.get(pk=ladder_id)
                computed = compute_ladder(ladder, progress, since)
                RecomputeJob.objects.filter(pk=job.pk).update(
                    progress=computed.count,
                    total=computed.count,
                    phase="writing",
                    heartbeat_at=timezone.now(),
                )
                if swap_in(ladder, computed):
                    break
                log.info("ladder %s changed while recomputing; computing again", ladder_id)
            count, skipped = computed.count, computed.skipped
            del computed
    except Exception as exc:
        RecomputeJob.objects.filter(pk=job.pk).update(
            status=RecomputeJob.Status.FAILED,
            error=f"{type(exc).__name__}: {exc}",
            finished_at=timezone.now(),
        )
        raise
    RecomputeJob.objects.filter(pk=job.pk).update(
        status=RecomputeJob.Status.DONE,
        progress=count,
        total=count,
        phase="",
        error="\n".join(skipped),
        finished_at=timezone.now(),
    )
    job.refresh_from_db()
    return job
