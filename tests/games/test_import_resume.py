"""An import whose worker died mid-run resumes after its last saved batch, or, after
too many lost workers, ends "failed" keeping what it accepted; it never stays running."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.bundles import write_json_lines
from games.models import Import, Match, Upload
from tests.games.logs import bot_log, compact

pytestmark = pytest.mark.django_db


class WorkerKilled(BaseException):
    """What the process sees of a SIGKILL: nothing after it runs (not an Exception, so no
    handler of the import's marks it failed)."""


def _bundle(count: int) -> bytes:
    return write_json_lines(
        [compact(bot_log("cryptid-urban-legends", seed, ["alice", "bob"])) for seed in range(count)]
    )


def _killed_after(monkeypatch, entries: int) -> None:
    real = services.imports._import_entry
    seen = {"n": 0}

    def entry(run, item, batch):
        seen["n"] += 1
        if seen["n"] > entries:
            raise WorkerKilled
        return real(run, item, batch)

    monkeypatch.setattr(services.imports, "_import_entry", entry)


def _silent_for(run: Import, minutes: int) -> None:
    Import.objects.filter(pk=run.pk).update(
        heartbeat_at=timezone.now() - timedelta(minutes=minutes)
    )


def test_an_import_killed_mid_run_resumes_after_its_last_batch(
    club, people, monkeypatch, queued_tasks
):
    count = services.IMPORT_BATCH * 2 + 7
    run = services.create_import(
        club, _bundle(count), "big.jsonl", people["organiser"], enqueue=False
    )
    _killed_after(monkeypatch, services.IMPORT_BATCH + 3)  # dies inside the second batch
    with pytest.raises(WorkerKilled):
        services.run_import(run.pk)
    monkeypatch.undo()
    run.refresh_from_db()
    # The first batch is kept and counted; the second was rolled back with the worker.
    assert (run.status, run.processed, run.accepted) == (
        "running",
        services.IMPORT_BATCH,
        services.IMPORT_BATCH,
    )
    assert Match.objects.filter(club=club).count() == services.IMPORT_BATCH
    # While it might still be alive, nobody takes it over.
    assert services.run_import(run.pk).status == "running"
    assert services.requeue_queued_imports() == 0
    # Silent for longer than a batch ever takes: the requeue resumes it.
    _silent_for(run, 11)
    assert services.requeue_queued_imports() == 1
    run = services.run_import(run.pk)
    assert (run.status, run.processed, run.accepted, run.duplicates) == ("done", count, count, 0)
    assert run.attempts == 2
    assert Match.objects.filter(club=club).count() == count
    assert Upload.objects.filter(import_run=run).count() == count


def test_an_import_that_keeps_killing_its_worker_ends_failed_with_what_it_kept(
    club, people, monkeypatch
):
    run = services.create_import(
        club, _bundle(services.IMPORT_BATCH + 5), "poison.jsonl", people["organiser"], enqueue=False
    )
    for attempt in range(services.MAX_IMPORT_ATTEMPTS):
        _killed_after(monkeypatch, services.IMPORT_BATCH + 1 if attempt == 0 else 1)
        with pytest.raises(WorkerKilled):
            services.run_import(run.pk)
        monkeypatch.undo()
        _silent_for(run, 11)
    run = services.run_import(run.pk)
    assert run.status == "failed" and run.accepted == services.IMPORT_BATCH
    assert f"stopped its worker {services.MAX_IMPORT_ATTEMPTS} times" in run.error
    assert Match.objects.filter(club=club).count() == services.IMPORT_BATCH
    assert services.requeue_queued_imports() == 0  # failed: not retried any more
