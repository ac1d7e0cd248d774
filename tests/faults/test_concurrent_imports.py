"""The same bulk import file sent twice at once.

Two organisers' requests post the same JSON-lines file concurrently; a Celery worker
of two threads runs both imports at the same time (each waits, once it has read the
file, until the other has too, so they really overlap and race for every log). The
database's unique constraint on (club, content_hash) decides each race: every log
becomes exactly one match, both imports finish, and their counts add up.
"""

from __future__ import annotations

import threading

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from rest_framework.test import APIClient

from clubs.models import Club, Membership
from games import services
from games.bundles import write_json_lines
from games.models import Import, Match, Upload
from ladder.models import Ladder, RatingChange
from tests.faults.processes import wait_until
from tests.games.logs import bot_log, compact, corrupt

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

CRYPTID = "cryptid-urban-legends"
VALID, CORRUPT, REPEATED = 140, 10, 5


def test_one_file_imported_twice_at_once_makes_one_match_per_log(
    two_thread_worker, django_user_model, monkeypatch
):
    two_thread_worker.route("games.run_import", "ladder.rate_match", "ladder.rate_matches")
    club = Club.objects.create(name="Riverside Deduction Society", slug="riverside")
    organisers = [django_user_model.objects.create_user(username=name) for name in ("olga", "oz")]
    for user in organisers:
        Membership.objects.create(user=user, club=club, role="organiser")
    logs = [
        compact(bot_log(CRYPTID, seed, ["ann", "ben", "cy"][seed % 2 : seed % 2 + 2]))
        for seed in range(VALID)
    ]
    lines = (
        logs
        + [compact(corrupt(bot_log(CRYPTID, 1000 + n, ["ann", "ben"]))) for n in range(CORRUPT)]
        + logs[:REPEATED]
    )
    bundle = write_json_lines(lines)

    both_read = threading.Barrier(2, timeout=60)
    read_bundle = services.imports.read_bundle

    def read_then_wait(*args, **kwargs):
        entries = read_bundle(*args, **kwargs)
        both_read.wait()  # neither stores a log before both are under way
        return entries

    monkeypatch.setattr(services.imports, "read_bundle", read_then_wait)

    responses: list = [None, None]
    both_posting = threading.Barrier(2, timeout=30)

    def post(slot: int) -> None:
        try:
            client = APIClient()
            client.force_authenticate(organisers[slot])
            both_posting.wait()
            responses[slot] = client.post(
                "/api/clubs/riverside/imports/",
                {"file": SimpleUploadedFile("season.jsonl", bundle)},
                format="multipart",
            )
        finally:
            connection.close()  # this thread's own connection

    threads = [threading.Thread(target=post, args=(slot,)) for slot in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert [r.status_code for r in responses] == [202, 202], [r.content for r in responses]

    def both_finished() -> bool:
        return not Import.objects.exclude(status__in=["done", "failed"]).exists()

    wait_until(both_finished, 180, "both imports to finish", every=0.2)
    first, second = runs = list(Import.objects.order_by("id"))
    assert [run.status for run in runs] == ["done", "done"], [run.error for run in runs]
    # They ran at the same time.
    assert first.started_at < second.finished_at and second.started_at < first.finished_at

    total = VALID + CORRUPT + REPEATED
    for run in runs:
        assert (run.total, run.processed, run.rejected) == (total, total, CORRUPT)
        assert run.accepted + run.duplicates + run.rejected == total
        # Every line has its Upload record, and the record agrees with the count.
        assert run.uploads.count() == total
        assert run.uploads.filter(status=Upload.Status.ACCEPTED).count() == run.accepted
        assert run.uploads.filter(status=Upload.Status.DUPLICATE).count() == run.duplicates
    # One match per distinct log: the two imports' accepted logs are all of them, once.
    assert first.accepted + second.accepted == VALID
    assert first.duplicates + second.duplicates == VALID + 2 * REPEATED
    assert Match.objects.filter(club=club).count() == VALID
    assert Match.objects.values("content_hash").distinct().count() == VALID
    accepted = Upload.objects.filter(status=Upload.Status.ACCEPTED)
    assert sorted(accepted.values_list("match_id", flat=True)) == sorted(
        Match.objects.values_list("id", flat=True)
    )

    # Every finished match rated exactly once (one change per seat).
    finished = Match.objects.filter(status=Match.Status.VALID).count()
    wait_until(
        lambda: RatingChange.objects.count() >= 2 * finished,
        120,
        "the worker to rate the imported matches",
        every=0.2,
    )
    assert finished > VALID // 2
    assert RatingChange.objects.count() == 2 * finished
    assert Ladder.objects.get(club=club, game=CRYPTID).rated_matches == finished
    assert len(two_thread_worker.sent) > 2  # two imports, and rating tasks per batch
    wait_until(two_thread_worker.idle, 120, "the worker to finish its tasks")
    assert RatingChange.objects.count() == 2 * finished  # the tasks still queued changed nothing
