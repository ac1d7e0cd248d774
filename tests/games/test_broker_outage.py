"""Redis down while a club uploads (the integration twin, with a real Redis stopped,
is tests/faults/test_redis_outage.py): the upload is stored and answered 201, its rating
is left for ladder.requeue_unrated_matches; an import waits for
games.requeue_queued_imports."""

from __future__ import annotations

import json
import logging
from datetime import timedelta

import kombu.exceptions
import pytest
import redis.exceptions
from django.core.files.uploadedfile import SimpleUploadedFile

from games import services
from games.bundles import write_json_lines
from games.models import Import, Match
from games.tasks import run_import_task
from games.throttling import UploadThrottle
from ladder.models import RatingChange
from ladder.tasks import rate_match
from tests.games.logs import bot_log, compact

pytestmark = pytest.mark.django_db

BROKER_DOWN = kombu.exceptions.OperationalError("Error 111 connecting to 127.0.0.1:6379.")


def broker_down(*args, **kwargs):
    raise BROKER_DOWN


def test_an_upload_succeeds_while_the_broker_is_down(
    api, example_log, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(rate_match, "apply_async", broker_down)
    with caplog.at_level(logging.WARNING), django_capture_on_commit_callbacks(execute=True):
        response = api("member").post(
            "/api/clubs/riverside/matches/",
            data=json.dumps(example_log("cryptid-escape.json")),
            content_type="application/json",
        )
    assert response.status_code == 201, response.content
    match = Match.objects.get()
    assert not RatingChange.objects.filter(match=match).exists()
    assert f"ladder.rate_match({match.pk},) was not queued" in caplog.text


def test_an_upload_is_not_throttled_out_when_the_cache_is_down(api, example_log, monkeypatch):
    class CacheDown:
        def get(self, *args, **kwargs):
            raise redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6379.")

        set = get

    monkeypatch.setattr(UploadThrottle, "cache", CacheDown())
    response = api("member").post(
        "/api/clubs/riverside/matches/",
        data=json.dumps(example_log("cryptid-escape.json")),
        content_type="application/json",
    )
    assert response.status_code == 201, response.content


def test_an_import_stored_while_the_broker_is_down_is_queued_again(
    api, monkeypatch, django_capture_on_commit_callbacks
):
    lines = [compact(bot_log("cryptid-urban-legends", seed, ["ann", "ben"])) for seed in range(3)]
    with monkeypatch.context() as patch, django_capture_on_commit_callbacks(execute=True):
        patch.setattr(run_import_task, "apply_async", broker_down)
        response = api("organiser").post(
            "/api/clubs/riverside/imports/",
            {"file": SimpleUploadedFile("night.jsonl", write_json_lines(lines))},
            format="multipart",
        )
    assert response.status_code == 202
    run = Import.objects.get()
    assert run.status == Import.Status.QUEUED

    # Too recent: its task may still be in the queue.
    assert services.requeue_queued_imports() == 0
    # Later, with the broker back: queued again (eager here), and run once.
    assert services.requeue_queued_imports(older_than=timedelta(0)) == 1
    run.refresh_from_db()
    assert (run.status, run.accepted, run.rejected) == (Import.Status.DONE, 3, 0)
    assert Match.objects.count() == 3
    assert services.requeue_queued_imports(older_than=timedelta(0)) == 0


def test_requeueing_imports_stops_while_the_broker_is_still_down(club, monkeypatch):
    for name in ("a.jsonl", "b.jsonl"):
        Import.objects.create(club=club, filename=name, size=1, payload=b"{}")
    monkeypatch.setattr(run_import_task, "apply_async", broker_down)
    assert services.requeue_queued_imports(older_than=timedelta(0)) == 0
    assert set(Import.objects.values_list("status", flat=True)) == {Import.Status.QUEUED}
