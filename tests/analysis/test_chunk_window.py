"""An analysis's window of chunks (analysis.services.chunk_window): with workers, at most
LANTERN_ANALYSIS_CHUNKS_AT_ONCE of its chunks are sent or running at once, each chunk
stored sends the next, and the stall machinery re-sends within the window; so another
person's analysis waits behind a window of each analysis ahead of it, not all their chunks.

The queue is the broker's as a worker sees it (first in, first out), faked: chunks sent
to it wait until the test has a worker take the next. The clock is injected."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

import pytest

from analysis import chunking, services
from analysis.models import MatchAnalysis
from config.celery import app
from engine import analyse, analysis_chunks, play, replay
from games.services import ingest_log
from tests.analysis.test_stalls import Clock, WorkerKilled, killed_while_running

pytestmark = pytest.mark.django_db

WINDOW = 2


class Queue:
    """The ``analysis`` queue: the groups of chunks sent, in order, and the chunks waiting
    in it, (analysis, chunk), first in first out."""

    def __init__(self) -> None:
        self.sends: list[tuple[int, list[int]]] = []
        self.waiting: deque[tuple[int, int]] = deque()
        self.reachable = True

    def send(self, analysis_id: int, indices: list[int]) -> bool:
        if not self.reachable:
            return False
        self.sends.append((analysis_id, list(indices)))
        self.waiting.extend((analysis_id, index) for index in indices)
        return True


@pytest.fixture
def queue(monkeypatch, settings) -> Iterator[Queue]:
    """Chunks go to workers through a broker (not run in turn in this process)."""
    settings.LANTERN_ANALYSIS_CHUNKS_AT_ONCE = WINDOW
    # Set and put back here, not by monkeypatch: the suite's own eager setting is put back
    # before monkeypatch undoes its changes, which would then leave later tests eager.
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False
    fake = Queue()
    monkeypatch.setattr(services, "_send_chunks", fake.send)
    yield fake
    app.conf.task_always_eager = eager


@pytest.fixture
def match(long_match):
    return long_match


@pytest.fixture
def clock(monkeypatch) -> Clock:
    return Clock(monkeypatch)


def started(match) -> MatchAnalysis:
    analysis = MatchAnalysis.objects.create(
        match=match, engine_version=services.current_version(match), budget=2
    )
    assert services.run_analysis(analysis.pk) == "sent"
    return analysis


def take(queue: Queue, capture) -> tuple[int, int, str]:
    """A worker takes the next chunk from the queue and runs it (what it sends is sent
    once its transaction commits)."""
    analysis_id, index = queue.waiting.popleft()
    with capture(execute=True):
        return analysis_id, index, chunking.run_chunk(analysis_id, index)


def requeue(capture) -> int:
    with capture(execute=True):
        return services.requeue_stalled()


def engine_analysis(match) -> dict:
    return analyse(replay(match.log.document), budget=2, seed=chunking.SEED)


def test_the_window_is_sent_first_then_one_chunk_per_chunk_stored(
    match, queue, django_capture_on_commit_callbacks
):
    """The start sends the first WINDOW chunks; each stored sends the next one; a second
    delivery of a stored chunk stores nothing and sends nothing; the whole is the engine's
    analysis, as when every chunk was sent at once."""
    analysis = started(match)
    count = len(analysis_chunks(replay(match.log.document)))
    assert count > WINDOW
    assert queue.sends == [(analysis.pk, [0, 1])]
    waiting = []
    while queue.waiting:
        waiting.append(len(queue.waiting))
        assert take(queue, django_capture_on_commit_callbacks)[2] == "stored"
        if len(waiting) == 1:  # the first chunk delivered twice (Redis handing it out again)
            with django_capture_on_commit_callbacks(execute=True):
                assert chunking.run_chunk(analysis.pk, 0) == "skipped"
    assert waiting == [WINDOW] * (count - WINDOW) + list(range(WINDOW, 0, -1))
    assert queue.sends == [(analysis.pk, [0, 1])] + [
        (analysis.pk, [index]) for index in range(WINDOW, count)
    ]
    row = MatchAnalysis.objects.get()
    assert (row.status, row.attempts) == ("done", 1)
    assert row.result == engine_analysis(match)


def test_a_dead_chunk_is_sent_again_within_the_window(
    match, queue, clock, monkeypatch, django_capture_on_commit_callbacks
):
    """A worker dies running chunk 1: the beat sends chunk 1 again, alone, so the window
    still holds WINDOW chunks (0 waiting, 1 sent again), and the analysis runs to the end."""
    analysis = started(match)
    assert queue.waiting.pop() == (analysis.pk, 1)  # its worker takes it, and dies
    killed_while_running(analysis, 1, monkeypatch)
    clock.later(6)
    assert requeue(django_capture_on_commit_callbacks) == 1
    assert queue.sends[1:] == [(analysis.pk, [1])]
    assert list(queue.waiting) == [(analysis.pk, 0), (analysis.pk, 1)]
    while queue.waiting:
        take(queue, django_capture_on_commit_callbacks)
        assert len(queue.waiting) <= WINDOW
    row = MatchAnalysis.objects.get()
    assert (row.status, row.attempts) == ("done", 2)
    assert row.result == engine_analysis(match)


def test_chunks_that_waited_too_long_are_sent_again_within_the_window(
    match, queue, clock, django_capture_on_commit_callbacks
):
    """Nothing of it run for a whole visibility timeout: the chunks its start sent are
    sent again, not the chunks it has not sent yet."""
    analysis = started(match)
    clock.later(services.waited_too_long().total_seconds() / 60 + 1)
    assert requeue(django_capture_on_commit_callbacks) == 1
    assert queue.sends == [(analysis.pk, [0, 1]), (analysis.pk, [0, 1])]


def test_the_beat_sends_the_next_chunk_when_the_chunk_stored_could_not(
    match, queue, clock, monkeypatch, django_capture_on_commit_callbacks
):
    """Chunk 0 is stored while the broker is unreachable, then chunk 1 by a worker lost
    before it sent the next: nothing is waiting for the analysis's next chunks, so the
    beat sends them (no attempt spent) and it runs to the end."""
    analysis = started(match)
    queue.reachable = False
    assert take(queue, django_capture_on_commit_callbacks)[2] == "stored"
    queue.reachable = True
    assert queue.sends == [(analysis.pk, [0, 1])]
    with monkeypatch.context() as patch:

        def lost(analysis_id: int) -> None:
            raise WorkerKilled

        patch.setattr(chunking, "assemble", lost)
        with pytest.raises(WorkerKilled):
            take(queue, django_capture_on_commit_callbacks)
    assert not queue.waiting
    clock.later(5)
    assert requeue(django_capture_on_commit_callbacks) == 1
    assert queue.sends[1:] == [(analysis.pk, [2])]
    while queue.waiting:
        take(queue, django_capture_on_commit_callbacks)
    row = MatchAnalysis.objects.get()
    assert (row.status, row.attempts) == ("done", 1)
    assert row.result == engine_analysis(match)


def test_a_later_persons_analysis_waits_behind_a_window_of_each_not_all_their_chunks(
    club, people, queued, queue, monkeypatch, django_capture_on_commit_callbacks
):
    """Mia asks for three long games, then Olga for one: one worker takes the queue in
    order. Olga's first chunk waits behind WINDOW chunks of each of Mia's analyses (not
    all of Mia's chunks), and from then on the analyses take turns, one chunk each. (The
    chunks' analysis itself is faked here: the order is what is tested.)"""
    monkeypatch.setattr(chunking, "analyse_plies", lambda rep, first, stop, **_: {"f": first})
    monkeypatch.setattr(chunking, "merge_analysis", lambda rep, parts, **_: {"parts": parts})
    matches = [
        ingest_log(club, play("cryptid-urban-legends", seed, ["greedy", "greedy"]), None)
        for seed in (0, 7, 15, 21)
    ]
    counts = [len(analysis_chunks(replay(match.log.document))) for match in matches]
    assert len(set(counts)) == 1 and counts[0] > WINDOW  # games of the same length
    mias = [services.request_analysis(match, people["member"]) for match in matches[:3]]
    for analysis in mias:  # the worker takes the starts as they were queued
        assert services.run_analysis(analysis.pk) == "sent"
    olgas = services.request_analysis(matches[3], people["organiser"])
    assert queued == [analysis.pk for analysis in [*mias, olgas]]
    assert services.run_analysis(olgas.pk) == "sent"
    ran = []
    while MatchAnalysis.objects.get(pk=olgas.pk).status != "done":
        ran.append(take(queue, django_capture_on_commit_callbacks)[0])
    ahead = ran.index(olgas.pk)
    assert ahead == WINDOW * len(mias) < sum(counts[:3])
    # then one chunk of each in turn: Mia's three, then Olga's
    turns = ran[ahead + WINDOW :]
    assert turns == ([analysis.pk for analysis in mias] + [olgas.pk]) * (counts[3] - WINDOW)
    assert MatchAnalysis.objects.filter(status="done").count() == 4


def test_without_a_worker_every_chunk_is_sent_at_once(match, monkeypatch):
    """Run in turn in this process (Celery eager, ``make run``): nobody else's analysis
    waits behind them, and a chunk sending the next would run it inside its own run."""
    sent = []
    monkeypatch.setattr(services, "_send_chunks", lambda pk, indices: sent.append(indices))
    started(match)
    assert sent == [list(range(len(analysis_chunks(replay(match.log.document)))))]
