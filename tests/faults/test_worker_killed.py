"""A Celery worker killed (SIGKILL) in the middle of a ladder recompute.

The test starts a worker process of its own (prefork, one pool process, as in
production), on a queue of its own in a Redis server of its own (the shared worker and
Redis are never touched), sends it a recompute of a ladder of a few thousand matches,
watches the RecomputeJob until the pool process is part-way through rating them, and
kills either

- the whole worker (main and pool process): the message was never acknowledged
  (``acks_late``), so a new worker takes it back from Redis once the visibility
  timeout has passed; or
- only the pool process running the task: the worker hands the message back to the
  queue at once (``reject_on_worker_lost``) and a new pool process runs it.

The previous ratings stay in place until the rerun swaps in its own (a recompute
computes in memory, then swaps in one transaction: never anything in between), and
the ladder ends exactly as an uninterrupted recompute leaves it. Without either task
option the killed task is lost and the test times out waiting for it.
"""

from __future__ import annotations

import os
import signal
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection, transaction

from clubs.models import Club, Player
from games.models import Match, MatchSeat
from ladder import services
from ladder.models import Ladder, Rating, RatingChange, RecomputeJob
from tests.faults.conftest import send
from tests.faults.processes import (
    RedisServer,
    celery_worker,
    child_env,
    current_database_url,
    wait_until,
)
from tests.ladder.factories import BASE

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

CRYPTID = "cryptid-urban-legends"
#: enough matches that rating them takes a while, with progress every 200 (worker.py)
MATCHES = 10000
#: the restarted worker takes back messages left unacknowledged this long
VISIBILITY_TIMEOUT = 2


def stored_ladder(count: int) -> Ladder:
    """A club's Cryptid ladder of ``count`` matches between 60 players, written in
    bulk (as tests/ladder/factories.py writes matches, minus the log documents, which
    a Cryptid rating never reads)."""
    club = Club.objects.create(name="Riverside", slug="riverside")
    players = Player.objects.bulk_create(
        [Player(club=club, handle=f"player{n}") for n in range(60)]
    )
    matches = Match.objects.bulk_create(
        [
            Match(
                club=club,
                game=CRYPTID,
                played_at=BASE + timedelta(minutes=n),
                status=Match.Status.VALID,
                winner="cryptid" if n % 3 else "scientist",
                result={"winner": "cryptid" if n % 3 else "scientist"},
                content_hash=f"{n + 1:064x}",
            )
            for n in range(count)
        ],
        batch_size=2000,
    )
    seats = []
    for n, match in enumerate(matches):
        a, b = players[(n * 7) % 60], players[(n * 11 + 1) % 60]
        if a == b:
            b = players[(n * 11 + 2) % 60]
        seats += [
            MatchSeat(match=match, seat="cryptid", player=a),
            MatchSeat(match=match, seat="scientist", player=b),
        ]
    MatchSeat.objects.bulk_create(seats, batch_size=5000)
    return Ladder.objects.create(club=club, game=CRYPTID)


def snapshot(ladder: Ladder) -> tuple:
    """The ladder's standings and a fingerprint of its history (rating changes, their
    sum of ``after``), read in one snapshot of the database."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        table = tuple(
            Rating.objects.filter(ladder=ladder)
            .order_by("player_id")
            .values_list("player_id", "rating", "games", "wins", "losses", "provisional")
        )
        changes = RatingChange.objects.filter(ladder=ladder)
        history = changes.count(), round(sum(changes.values_list("after", flat=True)), 6)
    return table, history


def job_of(job: RecomputeJob) -> RecomputeJob:
    return RecomputeJob.objects.get(pk=job.pk)


@pytest.mark.parametrize("killed", ["whole worker", "pool process"])
def test_a_worker_killed_mid_recompute_loses_nothing(
    require_postgres, own_redis: RedisServer, tmp_path: Path, killed: str
):
    ladder = stored_ladder(MATCHES)
    services.recompute_ladder(ladder.pk)  # the ratings before: K 32 (the default)
    before = snapshot(ladder)
    assert before[1][0] == 2 * MATCHES
    # New options: the recompute changes every rating.
    Ladder.objects.filter(pk=ladder.pk).update(options={"k": 20, "provisional_games": 0})
    job = RecomputeJob.objects.create(ladder=ladder, reason=RecomputeJob.Reason.CHANGED)

    from ladder.tasks import recompute_ladder

    queue = f"lantern-faults-recompute-{os.getpid()}"
    env = child_env(DATABASE_URL=current_database_url(), REDIS_URL=own_redis.url)
    seen_states = {before}

    def part_way() -> RecomputeJob | None:
        current = job_of(job)
        assert current.status != RecomputeJob.Status.DONE, (
            "the recompute finished before the worker could be killed: more matches"
        )
        if current.phase == "rating" and 0 < current.progress < current.total:
            return current
        return None

    def finished() -> bool:
        done = job_of(job).status in (RecomputeJob.Status.DONE, RecomputeJob.Status.FAILED)
        seen_states.add(snapshot(ladder))  # before, or after: never anything else
        return done

    with celery_worker(queue, env, tmp_path / "worker-1.log", pool="prefork") as first:
        send(
            own_redis.url,
            recompute_ladder,
            ladder.pk,
            RecomputeJob.Reason.CHANGED,
            job.pk,
            queue=queue,
        )
        seen = wait_until(part_way, 60, "the recompute to be part-way", every=0.02)
        if killed == "pool process":
            (pool_process,) = first.children()
            os.kill(pool_process, signal.SIGKILL)
            wait_until(finished, 120, "the worker to run the task again", every=0.2)
            assert "WorkerLostError" in first.output()
        else:
            first.kill()
            killed_at = time.monotonic()
    if killed == "whole worker":
        # Between the kill and the restart: the job says running, the ratings are the old ones.
        stale = job_of(job)
        assert stale.status == RecomputeJob.Status.RUNNING and stale.progress < stale.total, (
            f"killed at {seen.progress}/{seen.total}, the job says {stale.status} "
            f"{stale.progress}/{stale.total}"
        )
        assert snapshot(ladder) == before
        # Redis hands an unacknowledged message to a worker once it has been out for the
        # visibility timeout: a short one here, so that the test need not wait an hour.
        time.sleep(max(0.0, VISIBILITY_TIMEOUT + 1 - (time.monotonic() - killed_at)))
        restarted = {**env, "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT)}
        with celery_worker(queue, restarted, tmp_path / "worker-2.log", pool="prefork") as second:
            wait_until(finished, 120, "the restarted worker to finish the recompute", every=0.2)
            assert "ladder.recompute_ladder" in second.output()

    done = job_of(job)
    assert done.status == RecomputeJob.Status.DONE, done.error
    assert (done.progress, done.total) == (MATCHES, MATCHES)
    after = snapshot(ladder)
    assert after != before
    assert seen_states == {before, after}
    assert after[1][0] == 2 * MATCHES
    assert Ladder.objects.get(pk=ladder.pk).rated_matches == MATCHES
    # The same as a recompute nobody interrupted (and deterministic): run one here.
    services.recompute_ladder(ladder.pk)
    assert snapshot(ladder) == after
