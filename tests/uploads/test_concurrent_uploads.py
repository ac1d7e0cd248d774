"""Two uploads of the same log at the same moment, against real PostgreSQL.

Both requests are held just before they store (after each found no existing
match), then released together: the database's unique constraint on
(club, content_hash) decides, and the loser answers with the winner's match.
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
        both_replayed.wait()  # neither stores before both have checked for an existing match
        return replayed

    monkeypatch.setattr(services.engine, "replay", replay_then_wait)
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
