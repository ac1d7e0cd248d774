"""Stalled analyses (analysis.services.requeue_stalled): chunks waiting in the queue behind
other analyses' chunks are waiting, not stalled; a chunk whose worker died while running it
(started, then silent) is sent again alone, using one of the analysis's attempts. The clock
is injected: ``django.utils.timezone.now`` answers the test's time."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest

from analysis import chunking, services
from analysis.models import AnalysisChunk, MatchAnalysis
from engine import analyse, analysis_chunks, replay
from tests.analysis.conftest import running

pytestmark = pytest.mark.django_db

START = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


class Clock:
    """What ``timezone.now()`` answers, moved by the test."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = START
        monkeypatch.setattr("django.utils.timezone.now", lambda: self.now)

    def later(self, minutes: float) -> None:
        self.now += timedelta(minutes=minutes)


class WorkerKilled(BaseException):
    """The worker's process killed while it runs a chunk (out of memory, a machine lost):
    no handler of the task runs, as none would."""


@pytest.fixture
def clock(monkeypatch) -> Clock:
    return Clock(monkeypatch)


@pytest.fixture
def chunks_sent(monkeypatch) -> list[list[int]]:
    """The chunk indices of each group sent to the workers; none runs (they wait in the
    queue, behind other analyses' chunks, until the test runs them)."""
    sent: list[list[int]] = []

    def record(group, *args, **kwargs):
        sent.append([task.args[1] for task in group.tasks])

    monkeypatch.setattr("celery.canvas.group.apply_async", record)
    return sent


@pytest.fixture
def match(long_match):
    return long_match


def started(match) -> MatchAnalysis:
    """An analysis a worker started (attempt 1): its chunks sent, none run yet."""
    analysis = MatchAnalysis.objects.create(
        match=match, engine_version=services.current_version(match), budget=2
    )
    assert services.run_analysis(analysis.pk) == "sent"
    return MatchAnalysis.objects.get(pk=analysis.pk)


def killed_while_running(analysis: MatchAnalysis, index: int, monkeypatch) -> None:
    """A worker picks chunk ``index`` up, reports progress, and dies."""

    def dies(replay, first, stop, *, budget, seed, progress):
        progress(1, stop - first)
        raise WorkerKilled

    with monkeypatch.context() as patch:
        patch.setattr(chunking, "PROGRESS_EVERY", timedelta(0))
        patch.setattr(chunking, "analyse_plies", dies)
        with pytest.raises(WorkerKilled):
            chunking.run_chunk(analysis.pk, index)


def requeue(django_capture_on_commit_callbacks) -> int:
    with django_capture_on_commit_callbacks(execute=True):
        return services.requeue_stalled()


def test_chunks_waiting_in_the_queue_are_not_a_stall(
    match, clock, chunks_sent, queued, django_capture_on_commit_callbacks
):
    """Nothing of the analysis runs while its chunks wait behind others: that is no sign
    its worker died, so it is not sent again (which would pile its chunks onto the busy
    queue a second time), costs no attempt and never ends failed as stalled."""
    analysis = started(match)
    chunks = len(analysis_chunks(replay(match.log.document)))
    assert chunks_sent == [list(range(chunks))]
    for minutes in (6, 5, 5, 40):  # under the broker's visibility timeout (see below)
        clock.later(minutes)
        assert requeue(django_capture_on_commit_callbacks) == 0
        row = MatchAnalysis.objects.get()
        assert (row.status, row.attempts) == ("running", 1)
    assert chunks_sent == [list(range(chunks))] and queued == []
    # the workers reach them at last
    for index in chunks_sent[0]:
        assert chunking.run_chunk(analysis.pk, index) == "stored"
    row = MatchAnalysis.objects.get()
    assert (row.status, row.attempts) == ("done", 1)
    assert row.result == analyse(replay(match.log.document), budget=2, seed=chunking.SEED)


def test_a_duplicate_start_does_not_start_an_analysis_whose_chunks_wait(match, clock, chunks_sent):
    """A second delivery of the start (the queued analysis re-sent as lost while its task
    waited) finds the chunks sent: it sends nothing and costs no attempt."""
    analysis = started(match)
    clock.later(30)
    assert services.run_analysis(analysis.pk) == "skipped"
    assert len(chunks_sent) == 1 and MatchAnalysis.objects.get().attempts == 1


def test_a_chunk_whose_worker_died_is_sent_again_alone_once(
    match, clock, chunks_sent, queued, monkeypatch, django_capture_on_commit_callbacks
):
    """Started, then silent for STALLED_AFTER: its worker died. Only that chunk is sent
    again (the others still wait in the queue), using an attempt; waiting in the queue
    once more, it is not counted again; run, the analysis is the engine's."""
    analysis = started(match)
    chunks = chunks_sent[0]
    clock.later(1)
    killed_while_running(analysis, 1, monkeypatch)
    clock.later(4)
    assert requeue(django_capture_on_commit_callbacks) == 0  # silent for 4 minutes only
    clock.later(2)
    assert requeue(django_capture_on_commit_callbacks) == 1
    assert chunks_sent == [chunks, [1]] and queued == []
    row = MatchAnalysis.objects.get()
    assert (row.status, row.attempts) == ("running", 2)
    for minutes in (6, 30):
        clock.later(minutes)
        assert requeue(django_capture_on_commit_callbacks) == 0
    assert MatchAnalysis.objects.get().attempts == 2 and len(chunks_sent) == 2
    # the chunk sent again, then every original (the dead one's delivery among them)
    outcomes = [chunking.run_chunk(analysis.pk, index) for index in [1, *chunks]]
    assert outcomes == ["stored"] + ["skipped" if index == 1 else "stored" for index in chunks]
    row = MatchAnalysis.objects.get()
    assert (row.status, row.attempts) == ("done", 2)
    assert row.result == analyse(replay(match.log.document), budget=2, seed=chunking.SEED)


def test_a_chunk_that_keeps_killing_its_worker_is_left_failed(
    match, clock, chunks_sent, monkeypatch, django_capture_on_commit_callbacks
):
    analysis = started(match)
    for attempt in range(1, services.MAX_ATTEMPTS):
        killed_while_running(analysis, 2, monkeypatch)
        clock.later(6)
        assert requeue(django_capture_on_commit_callbacks) == 1
        assert MatchAnalysis.objects.get().attempts == attempt + 1
    killed_while_running(analysis, 2, monkeypatch)
    clock.later(6)
    assert requeue(django_capture_on_commit_callbacks) == 0
    row = MatchAnalysis.objects.get()
    assert row.status == "failed" and row.attempts == services.MAX_ATTEMPTS
    assert json.loads(row.error) == {
        "id": "analysis.failed.stalled",
        "params": {"count": services.MAX_ATTEMPTS},
    }
    assert chunks_sent[1:] == [[2]] * (services.MAX_ATTEMPTS - 1)


def test_a_chunk_running_elsewhere_is_not_run_again_by_a_duplicate(match, monkeypatch):
    """A second delivery of a chunk whose run is alive (Redis hands an unacknowledged task
    out again past its visibility timeout) does not analyse the plies a second time."""
    analysis = running(match)
    runs = []
    real = chunking.analyse_plies

    def alongside(replay, first, stop, **kwargs):
        runs.append(first)
        if len(runs) == 1:
            assert chunking.run_chunk(analysis.pk, 1) == "skipped"
        return real(replay, first, stop, **kwargs)

    monkeypatch.setattr(chunking, "analyse_plies", alongside)
    assert chunking.run_chunk(analysis.pk, 1) == "stored"
    assert len(runs) == 1 and AnalysisChunk.objects.get().result is not None


def test_a_start_that_died_before_sending_its_chunks_is_started_again(
    match, clock, monkeypatch, django_capture_on_commit_callbacks
):
    """Claimed, then its worker died (or the broker was down) before the chunks were
    sent: nothing will run them, so once silent for STALLED_AFTER it is started again."""
    analysis = MatchAnalysis.objects.create(
        match=match, engine_version=services.current_version(match), budget=2
    )
    monkeypatch.setattr(services, "_send_chunks", lambda *args: None)
    services.run_analysis(analysis.pk)
    monkeypatch.undo()
    Clock(monkeypatch).now = START + timedelta(minutes=6)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.requeue_stalled() == 1
    row = MatchAnalysis.objects.get()
    assert (row.status, row.attempts) == ("done", 2)


def test_a_run_taken_for_dead_that_finishes_stores_once_and_is_charged_once(
    match, clock, chunks_sent, monkeypatch, django_capture_on_commit_callbacks
):
    """A worker silent past STALLED_AFTER (paused, not dead): its chunk is sent again;
    the paused run then finishes and stores it, and the copy sent again stores nothing
    and is charged nothing."""
    analysis = started(match)
    thread_clock = iter(range(0, 10_000, 2))
    monkeypatch.setattr(chunking, "time", SimpleNamespace(thread_time=lambda: next(thread_clock)))
    real = chunking.analyse_plies

    def paused(rep, first, stop, **kwargs):
        clock.later(6)
        assert requeue(django_capture_on_commit_callbacks) == 1
        return real(rep, first, stop, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(chunking, "analyse_plies", paused)
        assert chunking.run_chunk(analysis.pk, 0) == "stored"
    assert chunks_sent[1:] == [[0]]
    assert chunking.run_chunk(analysis.pk, 0) == "skipped"
    row = MatchAnalysis.objects.get()
    assert (row.cpu_seconds, row.attempts) == (2, 2)
    assert AnalysisChunk.objects.filter(result__isnull=False).count() == 1


def test_asking_again_for_an_analysis_whose_chunk_died_starts_it_again(
    match, clock, chunks_sent, queued, monkeypatch
):
    analysis = started(match)
    killed_while_running(analysis, 0, monkeypatch)
    clock.later(3)
    assert services.request_analysis(match, None).status == "running" and queued == []
    clock.later(3)
    again = services.request_analysis(match, None)
    assert again.status == "queued" and queued == [analysis.pk]


def test_chunks_that_waited_longer_than_the_visibility_timeout_are_sent_again_for_free(
    match, clock, chunks_sent, queued, django_capture_on_commit_callbacks
):
    """Past the broker's visibility timeout with nothing of the analysis run, its chunks
    are still waiting or were lost with the broker's data: those not picked up are sent
    again, once a timeout, costing no attempt; the copies of chunks stored do nothing."""
    analysis = started(match)
    chunks = chunks_sent[0]
    clock.later(services.waited_too_long().total_seconds() / 60 - 1)
    assert requeue(django_capture_on_commit_callbacks) == 0
    clock.later(2)
    assert requeue(django_capture_on_commit_callbacks) == 1
    assert chunks_sent == [chunks, chunks] and queued == []
    clock.later(30)
    assert requeue(django_capture_on_commit_callbacks) == 0
    assert chunking.run_chunk(analysis.pk, chunks[0]) == "stored"
    clock.later(services.waited_too_long().total_seconds() / 60 + 1)
    assert requeue(django_capture_on_commit_callbacks) == 1
    assert chunks_sent[2:] == [chunks[1:]]
    outcomes = [chunking.run_chunk(analysis.pk, index) for index in sum(chunks_sent, [])]
    assert outcomes.count("stored") == len(chunks) - 1
    row = MatchAnalysis.objects.get()
    assert (row.status, row.attempts) == ("done", 1)


def test_a_chunk_dead_for_longer_than_the_visibility_timeout_is_sent_again_once(
    match, clock, chunks_sent, monkeypatch, django_capture_on_commit_callbacks
):
    """Dead and silent past both clocks (no beat ran meanwhile): the dead chunk is sent
    again, and that send restarts the long wait of the chunks still waiting."""
    analysis = started(match)
    killed_while_running(analysis, 1, monkeypatch)
    clock.later(services.waited_too_long().total_seconds() / 60 + 1)
    assert requeue(django_capture_on_commit_callbacks) == 1
    assert chunks_sent[1:] == [[1]] and MatchAnalysis.objects.get().attempts == 2
