"""Ladders against the real services: PostgreSQL row locks, Redis and a Celery worker.

Marker ``integration``: skipped with the reason when DATABASE_URL is not PostgreSQL
or REDIS_URL is not set (failed instead when LANTERN_REQUIRE_SERVICES=1)."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections

from clubs.models import Club
from ladder.models import Ladder, Rating, RatingChange, RecomputeJob
from ladder.services import Outcome, apply_match
from tests.ladder.factories import BASE, make_match, random_matches

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

CRYPTID = "cryptid-urban-legends"


def run_together(count: int, work) -> list:
    """Run ``work(i)`` in ``count`` threads released at the same moment; each thread
    has its own database connection, as two Celery workers would."""
    barrier = threading.Barrier(count)
    results: list = [None] * count
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            results[i] = work(i)
        except BaseException as exc:  # reported below, in the test's thread
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    return results


def test_same_match_rated_twice_at_once_is_rated_once(require_postgres):
    club = Club.objects.create(name="Riverside", slug="riverside")
    match = make_match(
        club, CRYPTID, [("cryptid", "ann"), ("scientist", "ben")], "cryptid", played_at=BASE
    )
    outcomes = run_together(2, lambda i: apply_match(match.pk))
    # One worker rated it; the other waited for the ladder lock, then found it rated.
    assert sorted(outcomes) == sorted([Outcome.RATED, Outcome.ALREADY_RATED])
    assert RatingChange.objects.count() == 2
    # Rated once: 1500 each, K 64, E 0.5 -> 1532 / 1468, one game each.
    assert dict(Rating.objects.values_list("player__handle", "rating")) == {
        "ann": 1532.0,
        "ben": 1468.0,
    }
    assert set(Rating.objects.values_list("games", flat=True)) == {1}
    assert Ladder.objects.get().rated_matches == 1


def test_concurrent_uploads_of_one_ladder_lose_nothing(require_postgres):
    """Six new matches rated by six workers at once, some back-dated relative to the
    others: the ladder ends exactly as rating them in order."""
    club = Club.objects.create(name="Riverside", slug="riverside")
    specs = random_matches(seed=21, count=6)
    matches = [make_match(club, **spec) for spec in specs]
    run_together(len(matches), lambda i: apply_match(matches[i].pk))

    reference = Club.objects.create(name="Reference", slug="reference")
    for spec in sorted(specs, key=lambda s: s["played_at"]):
        apply_match(make_match(reference, **spec).pk)

    def table(c):
        return sorted(
            (r.ladder.game, r.player.handle, r.rating, r.games, r.wins, r.losses)
            for r in Rating.objects.filter(ladder__club=c).select_related("ladder", "player")
        )

    assert table(club) == table(reference)
    assert (
        RatingChange.objects.filter(ladder__club=club).count()
        == RatingChange.objects.filter(ladder__club=reference).count()
    )


def test_rate_match_and_recompute_run_through_redis_and_a_worker(celery_worker_queue):
    from ladder.tasks import rate_match, recompute_ladder

    club = Club.objects.create(name="Riverside", slug="riverside")
    first = make_match(
        club,
        CRYPTID,
        [("cryptid", "ann"), ("scientist", "ben")],
        "cryptid",
        played_at=BASE + timedelta(days=1),
    )
    result = rate_match.apply_async((first.pk,), queue=celery_worker_queue)
    assert result.get(timeout=30) == "rated"
    # A back-dated match: the worker recomputes the ladder.
    earlier = make_match(
        club, CRYPTID, [("cryptid", "ben"), ("scientist", "ann")], "scientist", played_at=BASE
    )
    result = rate_match.apply_async((earlier.pk,), queue=celery_worker_queue)
    assert result.get(timeout=30) == "recomputed"
    # Twice changes nothing.
    assert rate_match.apply_async((earlier.pk,), queue=celery_worker_queue).get(timeout=30) == (
        "already_rated"
    )
    ladder = Ladder.objects.get()
    # In order: ann (scientist) beats ben on day 0 -> 1532 / 1468; day 1, cryptid won 0
    # of 1 -> p = 1/3, adv = -120.41: E_ann(cryptid) = 1 / (1 + 10^((1468 - 1532 + 120.41)
    # / 400)) = 1 / (1 + 10^0.141030) = 1 / 2.383661 = 0.419523;
    # ann wins: +64 * (1 - 0.419523) = +37.151 -> 1569.151; ben 1430.849.
    ratings = dict(Rating.objects.values_list("player__handle", "rating"))
    assert ratings["ann"] == pytest.approx(1569.151, abs=1e-3)
    assert ratings["ben"] == pytest.approx(1430.849, abs=1e-3)
    summary = recompute_ladder.apply_async((ladder.pk,), queue=celery_worker_queue).get(timeout=30)
    assert summary["status"] == "done" and summary["matches"] == 2
    assert dict(Rating.objects.values_list("player__handle", "rating")) == ratings
    assert RecomputeJob.objects.filter(status="done").count() == 2
    assert connection.vendor == "postgresql"


def test_an_upload_is_rated_by_the_worker(route_to_test_worker, example_log):
    """ingest_log commits the match, on_commit sends rate_match through Redis, the
    worker rates it."""
    import time

    from games.services import ingest_log

    route_to_test_worker("ladder.rate_match")
    club = Club.objects.create(name="Riverside", slug="riverside")
    match = ingest_log(club, example_log("misterx-destination.json"), None)
    deadline = time.monotonic() + 30
    while not RatingChange.objects.filter(match=match).exists():
        assert time.monotonic() < deadline, "the worker did not rate the upload in 30 s"
        time.sleep(0.2)
    # dmitri (mrx, K 64, E 0.5) wins: +32; ada 3 pawns -19.2; lena 2 pawns -12.8.
    assert dict(Rating.objects.values_list("player__handle", "rating")) == pytest.approx(
        {"dmitri": 1532.0, "ada": 1480.8, "lena": 1487.2}, abs=1e-9
    )
