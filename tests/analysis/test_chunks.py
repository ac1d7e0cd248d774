"""One match's analysis in chunks of plies (analysis.chunking): a Celery group on the
analysis queue, each chunk stored once however often it runs, the whole the engine's
analysis of the log."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from analysis import budgets, chunking, services
from analysis.models import AnalysisChunk, ClubAnalysisDay, MatchAnalysis
from analysis.tasks import analyse_chunk
from config.celery import app
from engine import analyse, analysis_chunks, replay
from tests.analysis.conftest import running

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(long_match):
    return long_match


def test_a_chunk_is_routed_to_the_analysis_queue():
    assert app.amqp.router.route({}, analyse_chunk.name)["queue"].name == "analysis"


def test_chunks_cover_the_game_and_their_whole_is_the_engine_analysis(match):
    rep = replay(match.log.document)
    parts = analysis_chunks(rep)
    assert len(parts) >= 3 and parts[0][0] == 0 and parts[-1][1] == len(rep.actions) + 1
    analysis = running(match)
    # the chunks run in any order, each by another worker
    for index in reversed(range(len(parts))):
        assert chunking.run_chunk(analysis.pk, index) == "stored"
    analysis.refresh_from_db()
    assert analysis.status == "done" and analysis.plies_done == analysis.plies_total
    assert analysis.result == analyse(rep, budget=2, seed=chunking.SEED)
    assert not AnalysisChunk.objects.exists()  # kept only while the analysis runs


def test_a_retried_or_duplicated_chunk_stores_once(match, monkeypatch):
    analysis = running(match)
    assert chunking.run_chunk(analysis.pk, 1) == "stored"
    stored = AnalysisChunk.objects.get()
    calls = []
    monkeypatch.setattr(chunking, "analyse_plies", lambda *a, **k: calls.append(1))
    assert chunking.run_chunk(analysis.pk, 1) == "skipped"  # retried after it stored
    assert analyse_chunk.apply(args=[analysis.pk, 1]).get() == "skipped"
    assert calls == [] and AnalysisChunk.objects.get() == stored
    # a duplicate that ran alongside and finishes second: the database keeps the first
    with pytest.raises(IntegrityError), transaction.atomic():
        AnalysisChunk.objects.create(
            analysis=analysis, index=1, first=stored.first, stop=stored.stop, result={}
        )
    monkeypatch.undo()
    AnalysisChunk.objects.all().delete()
    overtaken_while_running(analysis, 1, monkeypatch)
    assert chunking.run_chunk(analysis.pk, 1) == "skipped"
    assert AnalysisChunk.objects.count() == 1 and MatchAnalysis.objects.get().status == "running"


def overtaken_while_running(analysis: MatchAnalysis, index: int, monkeypatch) -> None:
    """The next run of chunk ``index`` goes silent past STALLED_AFTER midway (its worker
    paused, not dead), so another run of the chunk takes it over and stores it first; the
    paused run then finishes too."""
    real = chunking.analyse_plies
    runs = []

    def paused(rep, first, stop, **kwargs):
        runs.append(first)
        if len(runs) == 1:
            silent_since = timezone.now() - services.STALLED_AFTER - timedelta(seconds=1)
            AnalysisChunk.objects.filter(analysis=analysis, index=index).update(
                heartbeat_at=silent_since
            )
            assert chunking.run_chunk(analysis.pk, index) == "stored"
        return real(rep, first, stop, **kwargs)

    monkeypatch.setattr(chunking, "analyse_plies", paused)


def test_a_restarted_analysis_sends_only_the_chunks_not_stored(match, monkeypatch):
    analysis = running(match)
    chunking.run_chunk(analysis.pk, 0)
    ran = []
    real = chunking.run_chunk
    monkeypatch.setattr(
        chunking, "run_chunk", lambda pk, index: ran.append(index) or real(pk, index)
    )
    MatchAnalysis.objects.filter(pk=analysis.pk).update(status="queued")
    assert services.run_analysis(analysis.pk) == "done"
    assert ran == list(range(1, len(analysis_chunks(replay(match.log.document)))))
    assert MatchAnalysis.objects.get().result == analyse(
        replay(match.log.document), budget=2, seed=chunking.SEED
    )


#: the CPU seconds each run of a chunk takes in the tests below (a fake thread clock)
CHUNK_SECONDS = 2.0


@pytest.fixture
def each_run_takes_two_seconds(monkeypatch) -> None:
    clock = iter(range(0, 10_000, int(CHUNK_SECONDS)))
    monkeypatch.setattr(chunking, "time", SimpleNamespace(thread_time=lambda: next(clock)))


def automatic(match, estimate: float = 100.0) -> MatchAnalysis:
    """A running automatic analysis whose ``estimate`` the club's day reserved."""
    day = budgets.club_day(match.club.time_zone)
    assert budgets.reserve_for_club(match.club_id, estimate, day=day)
    analysis = running(match)
    MatchAnalysis.objects.filter(pk=analysis.pk).update(
        automatic=True, estimated_seconds=estimate, club_day=day
    )
    return MatchAnalysis.objects.get(pk=analysis.pk)


def charged(analysis: MatchAnalysis) -> tuple[float, float | None]:
    """What the club's day holds, and the CPU seconds kept on the analysis."""
    day = ClubAnalysisDay.objects.get(club_id=analysis.match.club_id, day=analysis.club_day)
    return day.reserved_seconds, MatchAnalysis.objects.get(pk=analysis.pk).cpu_seconds


def share(match, index: int) -> float:
    rep = replay(match.log.document)
    first, stop = analysis_chunks(rep)[index]
    return (stop - first) / (len(rep.actions) + 1)


def test_a_club_day_holds_the_estimate_of_the_chunks_still_to_run(
    match, each_run_takes_two_seconds
):
    """A stored chunk's CPU replaces only its own part of the estimate (its plies' share):
    the chunks still to run stay reserved, so the club's line cannot start more analyses
    on the strength of one chunk ended; once all are stored the day holds what they took."""
    analysis = automatic(match)
    assert chunking.run_chunk(analysis.pk, 0) == "stored"
    held, cpu = charged(analysis)
    assert held == pytest.approx(100.0 * (1 - share(match, 0)) + CHUNK_SECONDS)
    assert cpu == CHUNK_SECONDS
    chunks = len(analysis_chunks(replay(match.log.document)))
    for index in range(1, chunks):
        assert chunking.run_chunk(analysis.pk, index) == "stored"
    assert MatchAnalysis.objects.get(pk=analysis.pk).status == "done"
    held, cpu = charged(analysis)
    assert held == pytest.approx(chunks * CHUNK_SECONDS) and cpu == chunks * CHUNK_SECONDS


def test_a_chunk_run_twice_is_charged_once(match, monkeypatch, each_run_takes_two_seconds):
    """A run of a chunk that went silent, was taken over by another run, and then lost
    the race to store it is charged nothing, to the analysis or the club's day."""
    analysis = automatic(match)
    overtaken_while_running(analysis, 1, monkeypatch)
    assert chunking.run_chunk(analysis.pk, 1) == "skipped"
    assert charged(analysis) == (
        pytest.approx(100.0 * (1 - share(match, 1)) + CHUNK_SECONDS),
        CHUNK_SECONDS,
    )


def test_a_failed_chunk_is_not_charged_and_its_retry_is_charged_once(
    match, monkeypatch, each_run_takes_two_seconds
):
    """A chunk that fails stores nothing and is charged nothing: its part of the estimate
    stays reserved. Asked again, the analysis runs it once more, and only that run counts."""
    analysis = automatic(match)
    real = chunking.analyse_plies

    def fails(*args, **kwargs):
        raise RuntimeError("a worker's bad moment")

    monkeypatch.setattr(chunking, "analyse_plies", fails)
    assert chunking.run_chunk(analysis.pk, 1) == "failed"
    assert charged(analysis) == (pytest.approx(100.0), None)
    monkeypatch.setattr(chunking, "analyse_plies", real)
    MatchAnalysis.objects.filter(pk=analysis.pk).update(status="running")
    assert chunking.run_chunk(analysis.pk, 1) == "stored"
    assert charged(analysis) == (
        pytest.approx(100.0 * (1 - share(match, 1)) + CHUNK_SECONDS),
        CHUNK_SECONDS,
    )
