"""The analysis job (analysis.services, analysis.tasks): queued on its own queue once
committed, progress stored, one result per match and engine version however often it
runs, cached, recomputed when the engine changes, retried when its worker died."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from analysis import chunking, services
from analysis.models import MatchAnalysis
from analysis.tasks import analyse_match
from config.celery import app
from engine.ai import analysis as engine_analysis
from engine.ai import analysis_result
from engine.core.messages import msg, render

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _small_budget(settings):
    settings.LANTERN_ANALYSIS_BUDGET = 2


@pytest.fixture
def match(club, example_log):
    from games.services import ingest_log

    return ingest_log(club, example_log("cryptid-escape.json"), None)


def test_the_job_is_routed_to_the_analysis_queue():
    route = app.amqp.router.route({}, analyse_match.name)
    assert route["queue"].name == "analysis" and route["queue"].routing_key == "analysis"
    assert "analysis" in {q.name for q in app.conf.task_queues}


def test_a_request_queues_the_job_on_commit_and_it_stores_the_result(
    match, django_capture_on_commit_callbacks, queued_tasks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        analysis = services.request_analysis(match, None)
    assert queued_tasks(callbacks) == ["analysis.analyse_match"]
    assert analysis.status == "queued" and analysis.result is None
    for callback in callbacks:
        callback()
    analysis.refresh_from_db()
    plies = len(match.log.document["actions"]) + 1
    assert analysis.status == "done" and analysis.attempts == 1
    assert (analysis.plies_done, analysis.plies_total) == (plies, plies)
    assert len(analysis.result["plies"]) == plies
    assert analysis.engine_version == engine_analysis.engine_version(engine_analysis_game(match))


def engine_analysis_game(match):
    from engine import get_game

    return get_game(match.game)


def test_progress_is_stored_while_it_runs(match, monkeypatch):
    monkeypatch.setattr(chunking, "PROGRESS_EVERY", timedelta(0))
    seen: list[tuple[int, int, str]] = []
    real = chunking.analyse_plies

    def spy(replay, first, stop, *, budget, seed, progress):
        def watched(done, total):
            progress(done, total)
            row = MatchAnalysis.objects.get()
            seen.append((row.plies_done, row.plies_total, row.status))

        return real(replay, first, stop, budget=budget, seed=seed, progress=watched)

    monkeypatch.setattr(chunking, "analyse_plies", spy)
    analysis = MatchAnalysis.objects.create(
        match=match, engine_version=services.current_version(match), budget=1
    )
    assert services.run_analysis(analysis.pk) == "done"
    total = len(match.log.document["actions"]) + 1
    assert seen == [(k, total, "running") for k in range(1, total + 1)]


def test_a_duplicated_or_retried_job_stores_one_result(match, monkeypatch):
    analysis = MatchAnalysis.objects.create(
        match=match, engine_version=services.current_version(match), budget=1
    )
    assert services.run_analysis(analysis.pk) == "done"
    first = MatchAnalysis.objects.get().result
    calls = []
    monkeypatch.setattr(chunking, "analyse_plies", lambda *a, **k: calls.append(1))
    assert services.run_analysis(analysis.pk) == "skipped"  # the duplicate: done already
    assert analyse_match.apply(args=[analysis.pk]).get() == "skipped"
    assert (
        calls == []
        and MatchAnalysis.objects.count() == 1
        and MatchAnalysis.objects.get().result == first
    )


def test_a_duplicate_arriving_while_it_runs_does_nothing(match, monkeypatch):
    analysis = MatchAnalysis.objects.create(
        match=match,
        engine_version=services.current_version(match),
        budget=1,
        status="running",
        heartbeat_at=timezone.now(),
    )
    monkeypatch.setattr(chunking, "analyse_plies", lambda *a, **k: pytest.fail("ran twice"))
    assert services.run_analysis(analysis.pk) == "skipped"
    assert MatchAnalysis.objects.get().status == "running"


def test_the_database_keeps_one_analysis_per_match_and_engine_version(match):
    from django.db import IntegrityError, transaction

    version = services.current_version(match)
    MatchAnalysis.objects.create(match=match, engine_version=version, budget=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        MatchAnalysis.objects.create(match=match, engine_version=version, budget=1)


def test_a_second_request_is_served_from_the_stored_analysis(
    match, django_capture_on_commit_callbacks, queued_tasks, monkeypatch
):
    with django_capture_on_commit_callbacks(execute=True):
        services.request_analysis(match, None)
    monkeypatch.setattr(chunking, "analyse_plies", lambda *a, **k: pytest.fail("analysed again"))
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        again = services.request_analysis(match, None)
    assert queued_tasks(callbacks) == [] and again.status == "done"
    assert MatchAnalysis.objects.count() == 1


def test_a_new_engine_version_is_analysed_again(
    match, django_capture_on_commit_callbacks, monkeypatch
):
    with django_capture_on_commit_callbacks(execute=True):
        old = services.request_analysis(match, None)
    monkeypatch.setattr(analysis_result, "ANALYSIS_VERSION", "test-next")
    with django_capture_on_commit_callbacks(execute=True):
        new = services.request_analysis(match, None)
    new.refresh_from_db()
    assert (
        new.pk != old.pk
        and new.status == "done"
        and new.engine_version.endswith("analysis-test-next")
    )
    assert MatchAnalysis.objects.count() == 2


def test_an_analysis_whose_worker_died_is_queued_again_and_finishes(
    match, django_capture_on_commit_callbacks, queued_tasks
):
    long_ago = timezone.now() - services.STALLED_AFTER - timedelta(seconds=1)
    analysis = MatchAnalysis.objects.create(
        match=match,
        engine_version=services.current_version(match),
        budget=1,
        status="running",
        heartbeat_at=long_ago,
        attempts=1,
        plies_done=7,
    )
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert services.requeue_stalled() == 1
    assert queued_tasks(callbacks) == ["analysis.analyse_match"]
    for callback in callbacks:
        callback()
    analysis.refresh_from_db()
    assert analysis.status == "done" and analysis.attempts == 2


def test_one_that_keeps_killing_its_worker_is_left_failed(match):
    long_ago = timezone.now() - services.STALLED_AFTER - timedelta(seconds=1)
    MatchAnalysis.objects.create(
        match=match,
        engine_version=services.current_version(match),
        budget=1,
        status="running",
        heartbeat_at=long_ago,
        attempts=services.MAX_ATTEMPTS,
    )
    assert services.requeue_stalled() == 0
    row = MatchAnalysis.objects.get()
    assert row.status == "failed"
    assert json.loads(row.error) == {
        "id": "analysis.failed.stalled",
        "params": {"count": services.MAX_ATTEMPTS},
    }


def test_a_failed_job_keeps_why_as_a_message_said_in_the_reader_language(match, monkeypatch):
    """An engine error fails the job; the row keeps a message id (the exception's English
    text goes to the log only) and the page says it in the reader's language."""
    from django.contrib.auth.models import AnonymousUser
    from django.utils import translation

    from analysis.selectors import analysis_payload

    def broken(replay, first, stop, *, budget, seed, progress):
        raise RuntimeError("an English sentence from deep in the engine")

    monkeypatch.setattr(chunking, "analyse_plies", broken)
    analysis = MatchAnalysis.objects.create(
        match=match, engine_version=services.current_version(match), budget=1
    )
    assert services.run_analysis(analysis.pk) == "failed"
    analysis.refresh_from_db()
    assert json.loads(analysis.error) == {"id": "analysis.failed.engine_error", "params": {}}
    for language in ("ja", "ru"):
        with translation.override(language):
            error = analysis_payload(match, "all", AnonymousUser())["error"]
        assert render(msg("analysis.failed.engine_error"), language) in error
        assert "English" not in error and "engine stopped" not in error


def test_a_sample_that_cannot_be_dealt_does_not_fail_the_job(club, example_log, monkeypatch):
    from engine.ai.cloak import particles
    from engine.ai.contract import SAMPLING_FAILED, SamplingFailed
    from games.services import ingest_log

    cloak = ingest_log(club, example_log("cloak-documents.json"), None)

    def never(self, state, opening, count, rng):
        raise SamplingFailed("no history consistent with p2's observations")

    monkeypatch.setattr(particles.Particles, "worlds", never)
    analysis = MatchAnalysis.objects.create(
        match=cloak, engine_version=services.current_version(cloak), budget=1
    )
    assert services.run_analysis(analysis.pk) == "done"
    analysis.refresh_from_db()
    plies = analysis.result["plies"]
    assert analysis.error == "" and len(plies) == len(cloak.log.document["actions"]) + 1
    assert all(
        p["not_estimated"] == {"p1": SAMPLING_FAILED, "p2": SAMPLING_FAILED} for p in plies[:-1]
    )
    assert all(not m["rated"] for m in analysis.result["moves"])


def test_a_game_without_a_belief_sampler_is_refused_clearly(club, example_log, monkeypatch):
    from engine.ai.registry import ai_of
    from games.services import ingest_log

    monkeypatch.setattr(type(ai_of("cloak-and-dagger")), "analysis_search", None)
    cloak = ingest_log(club, example_log("cloak-documents.json"), None)
    with pytest.raises(services.AnalysisError, match="cannot be analysed"):
        services.request_analysis(cloak, None)


def test_a_club_with_automatic_analysis_analyses_what_it_stores(
    club, example_log, django_user_model, django_capture_on_commit_callbacks, queued_tasks
):
    from clubs.models import AuditEntry, Membership
    from games.services import ingest_log

    organiser = django_user_model.objects.create_user(username="olga", password="pw-for-tests-only")
    Membership.objects.create(user=organiser, club=club, role=Membership.Role.ORGANISER)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        ingest_log(club, example_log("cryptid-escape.json"), None)
    assert "analysis.analyse_match" not in queued_tasks(callbacks)  # off by default
    assert not MatchAnalysis.objects.exists()

    from django.test import Client

    web = Client()
    web.force_login(organiser)
    assert (
        web.post(f"/clubs/{club.slug}/auto-analysis/", {"auto_analysis": "on"}).status_code == 302
    )
    club.refresh_from_db()
    assert (
        club.auto_analysis
        and AuditEntry.objects.filter(club=club, action="club.auto_analysis").exists()
    )
    with django_capture_on_commit_callbacks(execute=True):
        match = ingest_log(club, example_log("cryptid-timeout.json"), None)
    analysis = MatchAnalysis.objects.get()
    assert analysis.match_id == match.pk and analysis.status == "done"
    with django_capture_on_commit_callbacks(execute=True):
        ingest_log(club, example_log("cloak-documents.json"), None)  # Cloak & Dagger too
    assert MatchAnalysis.objects.count() == 2


def test_only_organisers_change_the_setting(club, django_user_model):
    from django.test import Client

    from clubs.models import Membership

    member = django_user_model.objects.create_user(username="mo", password="pw-for-tests-only")
    Membership.objects.create(user=member, club=club, role=Membership.Role.MEMBER)
    web = Client()
    web.force_login(member)
    assert web.post(f"/clubs/{club.slug}/auto-analysis/", {"auto_analysis": "on"}).status_code in (
        403,
        404,
    )
    club.refresh_from_db()
    assert not club.auto_analysis


@pytest.mark.django_db(transaction=True)
def test_without_a_worker_the_analysis_runs_beside_the_request(
    club, example_log, settings, monkeypatch
):
    """`make run` has no Redis and no worker: tasks run eagerly, but an analysis (minutes
    of CPU) runs in a thread of its own, so the request that asked for it answers at once
    and the page follows its progress."""
    import threading

    from games.services import ingest_log

    settings.LANTERN_EAGER_BESIDE = ("analysis.analyse_match",)
    match = ingest_log(club, example_log("cryptid-escape.json"), None)
    release = threading.Event()
    real = chunking.analyse_plies

    def held(replay, first, stop, *, budget, seed, progress):
        assert release.wait(30), "the test never let the analysis go on"
        return real(replay, first, stop, budget=budget, seed=seed, progress=progress)

    monkeypatch.setattr(chunking, "analyse_plies", held)
    analysis = services.request_analysis(match, None)
    (thread,) = [t for t in threading.enumerate() if t.name == "eager analysis.analyse_match"]
    analysis.refresh_from_db()
    assert analysis.status in ("queued", "running") and analysis.result is None
    release.set()
    thread.join(60)
    assert not thread.is_alive()
    analysis.refresh_from_db()
    assert analysis.status == "done" and analysis.result is not None
