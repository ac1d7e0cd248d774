"""Matches whose rating task was lost: ladder.services.requeue_unrated_matches (beat,
every few minutes) queues them again; the ladder then ends exactly as if every task
had arrived. And the ladder tasks survive a lost worker (acks_late)."""

from __future__ import annotations

from datetime import timedelta

import kombu.exceptions
import pytest
from django.utils import timezone

from clubs.models import Club
from games.models import Match
from ladder import tasks
from ladder.models import Rating, RatingChange
from ladder.services import apply_match, requeue_unrated_matches, unrated_matches
from tests.ladder.factories import BASE, make_match, random_matches

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]

CRYPTID = "cryptid-urban-legends"
NOW = timedelta(0)


def stored_ago(match: Match, age: timedelta) -> None:
    Match.objects.filter(pk=match.pk).update(uploaded_at=timezone.now() - age)


def standings(club: Club) -> list[tuple]:
    return sorted(
        (r.ladder.game, r.player.handle, round(r.rating, 9), r.games, r.wins, r.losses)
        for r in Rating.objects.filter(ladder__club=club).select_related("ladder", "player")
    )


def test_lost_tasks_are_queued_again_and_the_ladder_ends_as_if_none_was_lost():
    """Twelve matches of three games uploaded in the order played; every third one's
    task was lost, so the matches after it were rated without it. The requeue finds
    exactly those, and the standings then equal rating every match in order."""
    specs = sorted(random_matches(seed=5, count=12), key=lambda s: s["played_at"])
    club = Club.objects.create(name="Riverside", slug="riverside")
    lost = []
    for n, spec in enumerate(specs):
        match = make_match(club, **spec)
        if n % 3 == 0:
            lost.append(match.pk)
        else:
            apply_match(match.pk)
    assert sorted(unrated_matches(older_than=NOW).values_list("pk", flat=True)) == lost
    reference = Club.objects.create(name="Reference", slug="reference")
    for spec in specs:
        apply_match(make_match(reference, **spec).pk)
    assert standings(club) != standings(reference)

    assert requeue_unrated_matches(older_than=NOW) == len(lost)
    assert not unrated_matches(older_than=NOW).exists()
    assert standings(club) == standings(reference)
    # Rated once each: one change per seat.
    assert RatingChange.objects.filter(ladder__club=club).count() == sum(
        len(spec["seats"]) for spec in specs
    )
    assert requeue_unrated_matches(older_than=NOW) == 0


def test_only_recent_rateable_unrated_matches_are_queued_again(club, monkeypatch):
    sent = []
    monkeypatch.setattr(
        tasks.rate_match, "apply_async", lambda args, kwargs, **kw: sent.append(args[0])
    )
    seats = [("cryptid", "ann"), ("scientist", "ben")]
    waiting = make_match(club, CRYPTID, seats, "cryptid", played_at=BASE)
    just_stored = make_match(club, CRYPTID, seats, "scientist", played_at=BASE)
    too_old = make_match(club, CRYPTID, seats, "cryptid", played_at=BASE)
    void = make_match(club, CRYPTID, seats, "cryptid", played_at=BASE)
    Match.objects.filter(pk=void.pk).update(is_void=True, void_reason="wrong table")
    unfinished = make_match(club, CRYPTID, seats, "cryptid", status=Match.Status.UNFINISHED)
    one_player_both_seats = make_match(
        club, CRYPTID, [("cryptid", "ann"), ("scientist", "ann")], "cryptid", played_at=BASE
    )
    for match in (waiting, void, unfinished, one_player_both_seats):
        stored_ago(match, timedelta(minutes=5))
    stored_ago(too_old, timedelta(days=3))

    assert requeue_unrated_matches() == 1
    assert sent == [waiting.pk]
    # just_stored's task may still be in the queue; too_old is the nightly recompute's.
    assert set(unrated_matches().values_list("pk", flat=True)) == {
        waiting.pk,
        one_player_both_seats.pk,
    }
    assert just_stored.pk in unrated_matches(older_than=NOW).values_list("pk", flat=True)


def test_requeue_stops_while_the_broker_is_still_down(club, monkeypatch):
    def broker_down(*args, **kwargs):
        raise kombu.exceptions.OperationalError("Error 111 connecting to 127.0.0.1:6379.")

    monkeypatch.setattr(tasks.rate_match, "apply_async", broker_down)
    for hour in range(3):
        make_match(
            club,
            CRYPTID,
            [("cryptid", "ann"), ("scientist", "ben")],
            "cryptid",
            played_at=BASE + timedelta(hours=hour),
        )
    assert requeue_unrated_matches(older_than=NOW) == 0
    assert unrated_matches(older_than=NOW).count() == 3


@pytest.mark.parametrize(
    "task",
    [tasks.rate_match, tasks.rate_matches, tasks.recompute_ladder, tasks.recompute_all_ladders],
)
def test_ladder_tasks_are_acknowledged_only_when_done(task):
    # A worker killed mid-task leaves the message to be delivered again
    # (tests/faults/test_worker_killed.py kills one for real).
    assert task.acks_late is True
    assert task.reject_on_worker_lost is True


def test_the_beat_task_requeues_matches_of_any_age_when_told(club):
    match = make_match(
        club, CRYPTID, [("cryptid", "ann"), ("scientist", "ben")], "cryptid", played_at=BASE
    )
    assert tasks.requeue_unrated_matches.delay().get() == 0  # stored just now: may be queued
    assert tasks.requeue_unrated_matches.delay(0).get() == 1
    assert RatingChange.objects.filter(match=match).count() == 2
