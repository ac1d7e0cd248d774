"""Ladder recompute jobs on the dashboard: what it lists, jobs.json, and Retry."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubs.models import AuditEntry
from dashboard.selectors import ladder_jobs
from ladder import services
from ladder.models import Ladder, Rating, RecomputeJob
from ladder.services import RecomputeError, progress_interval, recompute_ladder, retry_recompute
from tests.ladder.factories import BASE, make_match

pytestmark = pytest.mark.django_db

CRYPTID = "cryptid-urban-legends"


@pytest.fixture
def ladder(club) -> Ladder:
    handles = ["ann", "ben", "cat", "dan"]
    for n in range(6):
        make_match(
            club,
            CRYPTID,
            [("cryptid", handles[n % 4]), ("scientist", handles[(n + 1) % 4])],
            "cryptid" if n % 3 else "scientist",
            played_at=BASE + timedelta(days=n),
        )
    return Ladder.objects.create(club=club, game=CRYPTID)


def job(ladder: Ladder, status: str, **fields) -> RecomputeJob:
    return RecomputeJob.objects.create(ladder=ladder, reason="manual", status=status, **fields)


def test_jobs_are_grouped_and_a_failure_the_ladder_recomputed_since_is_left_out(ladder, club):
    other = Ladder.objects.create(club=club, game="mister-x")
    resolved = job(ladder, "failed", error="OperationalError: gone")
    done = job(ladder, "done", total=6, progress=6)
    failed = job(other, "failed", error="MemoryError: ")
    running = job(ladder, "running", total=6, progress=2, phase="rating")
    queued = job(ladder, "queued")

    jobs = ladder_jobs()
    assert [j.pk for j in jobs["active"]] == [running.pk, queued.pk]
    assert [j.pk for j in jobs["failed"]] == [failed.pk]
    assert resolved.pk not in [j.pk for j in jobs["failed"]]
    assert [j.pk for j in jobs["finished"]] == [done.pk]


def test_retry_queues_a_new_recompute_on_commit_and_audits_it(
    ladder, staff, django_capture_on_commit_callbacks
):
    failed = job(ladder, "failed", error="OperationalError: the server closed the connection")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        retry = retry_recompute(staff, failed.pk)
    # Nothing ran yet: the task is sent once the transaction commits.
    assert (retry.status, retry.reason, len(callbacks)) == ("queued", "manual", 1)
    assert not Rating.objects.exists()
    callbacks[0]()  # the commit: eager Celery runs the recompute here
    retry.refresh_from_db()
    assert (retry.status, retry.total, retry.progress) == ("done", 6, 6)
    assert Rating.objects.filter(ladder=ladder).count() == 4
    failed.refresh_from_db()
    assert (failed.status, failed.error) == (
        "failed",
        "OperationalError: the server closed the connection",
    )
    entry = AuditEntry.objects.get()
    assert (entry.club, entry.actor, entry.action) == (ladder.club, staff, "ladder.recompute_retry")
    assert entry.details == {"ladder": ladder.pk, "failed_job": failed.pk, "job": retry.pk}


def test_a_job_is_retried_once_and_only_when_it_failed(
    ladder, staff, django_capture_on_commit_callbacks
):
    failed = job(ladder, "failed", error="boom")
    with django_capture_on_commit_callbacks(execute=True):
        retry_recompute(staff, failed.pk)
    with pytest.raises(RecomputeError, match="newer recompute"):
        retry_recompute(staff, failed.pk)  # the second click
    with pytest.raises(RecomputeError, match="did not fail"):
        retry_recompute(staff, job(ladder, "done").pk)
    with pytest.raises(RecomputeError, match="no such"):
        retry_recompute(staff, 99999)
    assert RecomputeJob.objects.count() == 3
    assert AuditEntry.objects.count() == 1


def test_retry_button_is_a_post_for_staff_with_csrf(
    ladder, staff, user, django_capture_on_commit_callbacks
):
    failed = job(ladder, "failed", error="boom")
    url = reverse("dashboard-job-retry", args=[failed.pk])
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(staff)
    page = browser.get(reverse("dashboard"))
    assert f'action="{url}"' in page.content.decode()
    assert browser.post(url).status_code == 403  # no CSRF token
    assert browser.get(url).status_code == 405
    member = Client()
    member.force_login(user)
    assert member.post(url).status_code == 403
    assert Client().post(url).status_code == 403
    assert RecomputeJob.objects.count() == 1

    token = page.context["csrf_token"]
    with django_capture_on_commit_callbacks(execute=True):
        response = browser.post(url, {"csrfmiddlewaretoken": str(token)})
    assert response.status_code == 302 and response["Location"].endswith("/dashboard/#jobs")
    retry = RecomputeJob.objects.exclude(pk=failed.pk).get()
    assert retry.status == "done"
    follow = browser.get(reverse("dashboard")).content.decode()
    assert f"Recompute queued again as job {retry.pk}." in follow
    assert browser.post(url, {"csrfmiddlewaretoken": str(token)}).status_code == 302
    assert "nothing to retry" in browser.get(reverse("dashboard")).content.decode()


def test_jobs_json_is_for_staff_and_says_what_the_page_says(client, ladder, staff, user):
    url = reverse("dashboard-jobs")
    assert client.get(url).status_code == 403
    client.force_login(user)
    refused = client.get(url)
    # The API's one error shape (config.errors.error_body), for the script that polls it.
    assert refused.status_code == 403 and refused.json() == {
        "error": "forbidden",
        "index": None,
        "rule": None,
        "message": "operators only",
    }
    client.force_login(staff)
    running = job(ladder, "running", total=6, progress=3, phase="rating")
    failed = job(
        Ladder.objects.create(club=ladder.club, game="mister-x"),
        "failed",
        error="<b>ValueError</b>",
    )
    body = client.get(url).json()["jobs"]
    (active,) = body["active"]
    assert (
        active["id"],
        active["status"],
        active["progress"],
        active["total"],
        active["percent"],
    ) == (running.pk, "running", 3, 6, 50)
    assert active["club"] == ladder.club.name and active["game"] == CRYPTID
    (shown,) = body["failed"]
    assert shown["error"] == "<b>ValueError</b>"
    assert shown["retry_url"] == reverse("dashboard-job-retry", args=[failed.pk])
    assert body["finished"] == []
    page = client.get(reverse("dashboard")).content.decode()
    assert '<progress max="6" value="3">' in page
    assert "&lt;b&gt;ValueError&lt;/b&gt;" in page


@pytest.mark.parametrize(
    ("language", "status", "phase"),
    [
        ("en", "Running", "rating the matches"),
        ("ja", "実行中", "対局をレーティング計算中"),
        ("ru", "Выполняется", "расчёт рейтингов"),
    ],
)
def test_a_jobs_status_and_step_are_said_in_the_readers_language(
    client, ladder, staff, language, status, phase
):
    # jobs.json replaces the page's rows as it polls: what it says must be words in the
    # reader's language, as the page's are, not the stored codes ("running", "rating").
    client.force_login(staff)
    job(ladder, "running", total=6, progress=3, phase="rating")
    (active,) = client.get(reverse("dashboard-jobs"), HTTP_ACCEPT_LANGUAGE=language).json()["jobs"][
        "active"
    ]
    assert (active["status"], active["status_label"], active["phase"], active["phase_label"]) == (
        "running",
        status,
        "rating",
        phase,
    )
    page = client.get(reverse("dashboard"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f"{status} ({phase})" in page


def test_a_recompute_reports_its_progress_as_it_goes(ladder, monkeypatch):
    reports: list[tuple[int, int]] = []
    real = services.report_progress

    def record(job_id: int, done: int, total: int) -> None:
        real(job_id, done, total)
        saved = RecomputeJob.objects.get(pk=job_id)
        reports.append((saved.progress, saved.total))

    monkeypatch.setattr(services.recompute, "report_progress", record)
    monkeypatch.setattr(services.recompute, "PROGRESS_STEPS", 3)  # six matches: every second one
    monkeypatch.setattr(services.recompute, "PROGRESS_SECONDS", 0)  # this ladder takes milliseconds
    recompute_ladder(ladder.pk)
    assert reports == [(2, 6), (4, 6), (6, 6)]


def test_a_short_recompute_saves_no_progress_until_the_end(ladder, monkeypatch):
    """Progress is saved at most every PROGRESS_SECONDS: milliseconds of work, no report."""
    reports: list[int] = []
    monkeypatch.setattr(
        services.recompute, "report_progress", lambda job_id, done, total: reports.append(done)
    )
    monkeypatch.setattr(services.recompute, "PROGRESS_STEPS", 6)
    job = recompute_ladder(ladder.pk)
    assert reports == []
    assert (job.status, job.progress, job.total) == ("done", 6, 6)


def test_progress_interval_bounds():
    assert progress_interval(0) == 1
    assert progress_interval(50) == 1
    assert progress_interval(10_000) == 100
    assert progress_interval(10_000_000) == services.PROGRESS_EVERY


def test_a_running_recompute_keeps_a_heartbeat(ladder, monkeypatch):
    beats = []
    real = services.report_progress

    def record(job_id: int, done: int, total: int) -> None:
        real(job_id, done, total)
        beats.append(RecomputeJob.objects.get(pk=job_id).heartbeat_at)

    monkeypatch.setattr(services.recompute, "report_progress", record)
    monkeypatch.setattr(services.recompute, "PROGRESS_STEPS", 3)
    monkeypatch.setattr(services.recompute, "PROGRESS_SECONDS", 0)
    job = recompute_ladder(ladder.pk)
    assert len(beats) == 3 and None not in beats and beats == sorted(beats)
    assert job.started_at <= beats[0] <= job.heartbeat_at <= job.finished_at


def silent(job: RecomputeJob, minutes: float) -> RecomputeJob:
    """Make ``job``'s last sign of life ``minutes`` old."""
    ago = timezone.now() - timedelta(minutes=minutes)
    RecomputeJob.objects.filter(pk=job.pk).update(created_at=ago, started_at=ago, heartbeat_at=ago)
    job.refresh_from_db()
    return job


def test_a_silent_job_is_stalled_and_can_be_retried(
    ladder, staff, django_capture_on_commit_callbacks
):
    quiet = services.STALLED_AFTER.total_seconds() / 60
    busy = silent(job(ladder, "running", total=6, progress=2, phase="rating"), quiet - 1)
    assert not services.is_stalled(busy)
    with pytest.raises(RecomputeError, match="not stalled"):
        retry_recompute(staff, busy.pk)

    lost = silent(busy, quiet + 1)
    assert services.is_stalled(lost)
    assert [j["stalled"] for j in ladder_jobs_summaries()["active"]] == [True]
    with django_capture_on_commit_callbacks(execute=True):
        retry = retry_recompute(staff, lost.pk)
    lost.refresh_from_db()
    assert lost.status == "failed" and lost.error.startswith(
        "Stalled: running with no sign of life"
    )
    retry.refresh_from_db()
    assert retry.status == "done"
    assert "stalled recompute" in AuditEntry.objects.get().summary
    # A queued job whose task never arrived stalls the same way.
    never = silent(job(ladder, "queued"), quiet + 1)
    assert services.is_stalled(never)
    assert not services.is_stalled(job(ladder, "done"))
    assert not services.is_stalled(silent(job(ladder, "failed"), quiet * 10))


def ladder_jobs_summaries() -> dict[str, list[dict]]:
    from dashboard.selectors import job_summary

    return {group: [job_summary(j) for j in rows] for group, rows in ladder_jobs().items()}


def test_the_page_offers_retry_for_a_stalled_job(client, ladder, staff):
    quiet = services.STALLED_AFTER.total_seconds() / 60
    lost = silent(job(ladder, "running", total=6, progress=2, phase="rating"), quiet + 5)
    fresh = job(Ladder.objects.create(club=ladder.club, game="mister-x"), "running")
    client.force_login(staff)
    page = client.get(reverse("dashboard")).content.decode()
    assert f'action="{reverse("dashboard-job-retry", args=[lost.pk])}"' in page
    assert f'action="{reverse("dashboard-job-retry", args=[fresh.pk])}"' not in page
    assert "stalled" in page
    body = client.get(reverse("dashboard-jobs")).json()["jobs"]["active"]
    assert [(j["id"], j["stalled"], "retry_url" in j) for j in body] == [
        (lost.pk, True, True),
        (fresh.pk, False, False),
    ]


def test_a_recompute_whose_worker_died_is_marked_and_retried_a_bounded_number_of_times(
    ladder, staff, django_capture_on_commit_callbacks
):
    quiet = services.STALLED_AFTER.total_seconds() / 60
    silent(job(ladder, "running", total=6, progress=2, phase="rating"), quiet - 1)
    assert services.retry_stalled_recomputes() == 0  # alive, as far as anyone can tell
    # Each time the worker dies, the next beat marks the job and queues the ladder again…
    for _ in range(services.MAX_STALLED_IN_A_ROW - 1):
        lost = RecomputeJob.objects.filter(ladder=ladder).order_by("-pk").first()
        silent(lost, quiet + 1)
        assert services.retry_stalled_recomputes() == 1
        lost.refresh_from_db()
        assert lost.status == "failed" and lost.error.endswith("retried automatically.")
        newest = RecomputeJob.objects.filter(ladder=ladder).order_by("-pk").first()
        assert newest.pk != lost.pk and newest.status == "queued"
    # …until as many in a row have died: then it stays failed, on the dashboard.
    last = silent(RecomputeJob.objects.filter(ladder=ladder).order_by("-pk").first(), quiet + 1)
    assert services.retry_stalled_recomputes() == 0
    last.refresh_from_db()
    assert last.status == "failed" and "in a row lost their worker" in last.error
    assert [j.pk for j in ladder_jobs()["failed"]] == [last.pk]
    response = Client()
    response.force_login(staff)
    assert "in a row lost their worker" in response.get("/dashboard/").content.decode()


def test_a_task_that_kills_its_worker_is_given_up_and_listed(ladder, staff):
    from config.redelivery import MAX_DELIVERIES
    from dashboard.models import DroppedTask
    from ladder.tasks import recompute_ladder as task

    ran = []
    original = services.recompute_ladder
    services.recompute_ladder = lambda *a, **k: ran.append(a) or original(*a, **k)
    try:
        for delivery in range(MAX_DELIVERIES + 2):
            task.push_request(id="poison-1", is_eager=False)
            try:
                if delivery < MAX_DELIVERIES:
                    # The worker dies while running it: the count stays, nothing finishes.
                    from django.core.cache import cache

                    cache.add("lantern:deliveries:poison-1", 0)
                    cache.incr("lantern:deliveries:poison-1")
                else:
                    assert task(ladder.pk) is None  # given up, not run
            finally:
                task.pop_request()
    finally:
        services.recompute_ladder = original
    assert ran == []
    dropped = DroppedTask.objects.get()
    assert dropped.name == "ladder.recompute_ladder" and dropped.deliveries >= MAX_DELIVERIES
    page = Client()
    page.force_login(staff)
    assert "poison-1" in page.get("/dashboard/").content.decode()
