"""Uploads against the real services (marker ``integration``): PostgreSQL, Redis, a worker.

Two uploads of the same log at the same moment: both requests are held just before
they store (each has replayed the log), then released together: the database's
unique constraint on (club, content_hash) decides, and the loser answers with the
winner's match.
"""

from __future__ import annotations

import json
import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

import engine
from games import services
from games.models import Match, Upload

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_two_concurrent_uploads_of_the_same_log_make_one_match(
    require_postgres, people, example_log, monkeypatch
):
    body = json.dumps(example_log("cryptid-escape.json"))
    both_replayed = threading.Barrier(2, timeout=30)
    real_replay = engine.replay

    def replay_then_wait(log):
        replayed = real_replay(log)
        both_replayed.wait()  # neither stores before both are about to
        return replayed

    monkeypatch.setattr(services.ingest.engine, "replay", replay_then_wait)
    responses = [None, None]

    def upload(slot: int, who: str) -> None:
        try:
            client = APIClient()
            client.force_authenticate(people[who])
            responses[slot] = client.post(
                "/api/clubs/riverside/matches/", data=body, content_type="application/json"
            )
        finally:
            connection.close()  # this thread's own connection

    threads = [
        threading.Thread(target=upload, args=(0, "member")),
        threading.Thread(target=upload, args=(1, "organiser")),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert sorted(r.status_code for r in responses) == [200, 201]
    assert responses[0].json()["id"] == responses[1].json()["id"]
    assert Match.objects.count() == 1
    assert sorted(Upload.objects.values_list("status", flat=True)) == ["accepted", "duplicate"]


def test_a_bulk_import_runs_on_a_worker_through_redis(route_to_test_worker, people):
    """POST an import: the request stores it and answers 202 at once; run_import goes
    through Redis to a worker, whose progress the import's resource shows."""
    import time

    from django.core.files.uploadedfile import SimpleUploadedFile

    from games.bundles import write_json_lines
    from tests.games.logs import bot_log, compact, corrupt

    route_to_test_worker("games.run_import", "ladder.rate_matches")
    logs = [bot_log("cryptid-urban-legends", seed, ["ann", "ben"]) for seed in range(30)]
    lines = [compact(corrupt(log) if seed % 10 == 3 else log) for seed, log in enumerate(logs)]
    client = APIClient()
    client.force_authenticate(people["organiser"])
    response = client.post(
        "/api/clubs/riverside/imports/",
        {"file": SimpleUploadedFile("season.jsonl", write_json_lines(lines))},
        format="multipart",
    )
    assert response.status_code == 202
    assert response.json()["status"] in ("queued", "running", "done")

    deadline = time.monotonic() + 60
    while (body := client.get(response["Location"]).json())["status"] in ("queued", "running"):
        assert time.monotonic() < deadline, f"the worker did not finish the import: {body}"
        time.sleep(0.2)
    assert body["status"] == "done"
    assert (body["total"], body["accepted"], body["rejected"], body["progress_percent"]) == (
        30,
        27,
        3,
        100,
    )
    assert Match.objects.count() == 27
