"""Upload.validation_ms: how long the engine took to replay a log, measured in ingest_log."""

from __future__ import annotations

import time

import pytest

import engine
from games import services
from games.models import Upload
from games.services import LogRejected, ingest_log
from tests.games.logs import corrupt

pytestmark = pytest.mark.django_db

PAUSE_S = 0.05


@pytest.fixture
def slow_engine(monkeypatch):
    """engine.replay as ingest_log calls it, made to take at least PAUSE_S longer."""
    real_replay = engine.replay

    def replay(log):
        time.sleep(PAUSE_S)
        return real_replay(log)

    monkeypatch.setattr(services.ingest.engine, "replay", replay)


def test_an_accepted_upload_records_the_time_of_the_replay(club, example_log, slow_engine):
    ingest_log(club, example_log("cryptid-escape.json"), None)
    upload = Upload.objects.get()
    assert upload.status == "accepted"
    assert upload.validation_ms >= PAUSE_S * 1000
    assert upload.validation_ms < 60_000  # milliseconds, not microseconds


def test_a_log_the_engine_rejects_records_the_time_too(club, example_log, slow_engine):
    with pytest.raises(LogRejected):
        ingest_log(club, corrupt(example_log("cryptid-escape.json")), None)
    upload = Upload.objects.get()
    assert upload.error == "illegal"
    assert upload.validation_ms >= PAUSE_S * 1000


def test_no_time_when_the_engine_never_replayed_the_log(club, example_log):
    with pytest.raises(LogRejected):
        ingest_log(club, b"{not json", None)
    log = example_log("cryptid-escape.json")
    ingest_log(club, log, None)
    # A duplicate is found by the unique constraint when it is stored, after the replay.
    ingest_log(club, log, None)
    by_status = {u.status: u.validation_ms for u in Upload.objects.all()}
    assert by_status["rejected"] is None
    assert by_status["duplicate"] > 0
    assert by_status["accepted"] > 0
