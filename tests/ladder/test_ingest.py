"""Uploading a log rates it: games.services.ingest_log queues ladder.tasks.rate_match
once the match is committed (Celery runs it eagerly here; the integration tests send
it through Redis to a worker)."""

from __future__ import annotations

import pytest

from games import services as games_services
from games.models import Match
from ladder.models import Rating, RatingChange

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]


def upload(club, document, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        match = games_services.ingest_log(club, document, None)
    return match, callbacks


def test_uploaded_mister_x_example_is_rated_with_its_pawns(
    club, example_log, queued_tasks, django_capture_on_commit_callbacks
):
    # dmitri (mrx) beats ada (det1: blue, black, red -> 3 pawns) and lena (det2: 2 pawns).
    # All new: 1500, K 64, role advantage estimated from no history: 0. T = 1500, E = 0.5.
    #   dmitri: 64 * (1 - 0.5) = +32 -> 1532
    #   ada:  64 * 3/5 * (0 - 0.5) = -19.2 -> 1480.8
    #   lena: 64 * 2/5 * (0 - 0.5) = -12.8 -> 1487.2
    match, callbacks = upload(
        club, example_log("misterx-destination.json"), django_capture_on_commit_callbacks
    )
    assert queued_tasks(callbacks) == ["ladder.rate_match"]
    ratings = dict(Rating.objects.values_list("player__handle", "rating"))
    assert ratings == pytest.approx({"dmitri": 1532.0, "ada": 1480.8, "lena": 1487.2}, abs=1e-9)
    assert set(
        RatingChange.objects.filter(match=match).values_list("player__handle", "weight")
    ) == {("dmitri", 1.0), ("ada", 0.6), ("lena", 0.4)}


def test_uploaded_cryptid_and_cloak_examples_are_rated(
    club, example_log, django_capture_on_commit_callbacks
):
    # Cryptid: alice (cryptid) escapes from bob: 1500 each, K 64, E 0.5 -> 1532 / 1468.
    upload(club, example_log("cryptid-escape.json"), django_capture_on_commit_callbacks)
    # Cloak & Dagger, 2 players: p1 wins, N - 1 = 1: +32 / -32.
    upload(club, example_log("cloak-documents.json"), django_capture_on_commit_callbacks)
    assert dict(
        Rating.objects.values_list("ladder__game", "player__handle", "rating").values_list(
            "player__handle", "rating"
        )
    ) == {"alice": 1532.0, "bob": 1468.0, "greedy-bot-1": 1532.0, "greedy-bot-2": 1468.0}


def test_an_unfinished_upload_queues_nothing(
    club, example_log, queued_tasks, django_capture_on_commit_callbacks
):
    log = example_log("cryptid-escape.json")
    log["actions"] = log["actions"][:3]
    log["result"] = None
    match, callbacks = upload(club, log, django_capture_on_commit_callbacks)
    assert match.status == Match.Status.UNFINISHED and queued_tasks(callbacks) == []
    assert not Rating.objects.exists()
