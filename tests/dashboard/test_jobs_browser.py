"""The dashboard in headless Chromium: a staff member signs in through the login form,
opens the dashboard and watches a ladder recompute's progress bar move.

The recompute is the real one (``ladder.services.recompute_ladder`` over 300 stored
matches), run in the test's thread while the live server answers the page's polls of
/dashboard/jobs.json from another. Rating 300 matches takes milliseconds, far less than
one poll, so at some of its progress reports the recompute waits until the page has
drawn that report before it goes on: the bar the test reads is the one the page's
script drew from the server's answer, and it must grow from one report to the next.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from clubs.models import Player
from games.models import Match, MatchSeat
from ladder import services
from ladder.models import Ladder, RecomputeJob
from tests.ladder.factories import BASE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MATCHES = 300
REPORTS = 10  # PROGRESS_STEPS for this test: a report every 30 matches
WATCHED = {1, 4, 7, 9}  # the reports the page must show before the recompute goes on

BAR_AT_LEAST = """([id, done]) => {
  const bar = document.querySelector(`#jobs tr[data-job-id="${id}"] progress[value]`);
  return bar !== null && Number(bar.getAttribute("value")) >= done;
}"""
BAR = """(id) => {
  const bar = document.querySelector(`#jobs tr[data-job-id="${id}"] progress[value]`);
  return bar && [Number(bar.getAttribute("value")), Number(bar.getAttribute("max"))];
}"""


def stored_matches(club, count: int) -> Ladder:
    """``count`` finished Cryptid matches between eight players, one a day."""
    players = Player.objects.bulk_create(Player(club=club, handle=f"p{i}") for i in range(8))
    matches = Match.objects.bulk_create(
        Match(
            club=club,
            game="cryptid-urban-legends",
            status="valid",
            winner="cryptid" if n % 3 else "scientist",
            content_hash=f"{n:064x}",
            played_at=BASE + timedelta(days=n),
        )
        for n in range(count)
    )
    MatchSeat.objects.bulk_create(
        MatchSeat(match=match, seat=seat, player=players[(n + k) % 8])
        for n, match in enumerate(matches)
        for k, seat in enumerate(["cryptid", "scientist"])
    )
    return Ladder.objects.create(club=club, game="cryptid-urban-legends")


def sign_in(page, live_server, username: str, password: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/?next=/dashboard/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("form.form button[type=submit]")
    page.wait_for_url(f"{live_server.url}/dashboard/")


def test_staff_sees_a_recompute_progress_bar_move(
    page, live_server, club, django_user_model, monkeypatch, screenshot
):
    ladder = stored_matches(club, MATCHES)
    django_user_model.objects.create_user("operator", password="pw-for-tests-only", is_staff=True)
    sign_in(page, live_server, "operator", "pw-for-tests-only")
    assert page.inner_text("h1") == "Operator dashboard"
    assert page.locator('#jobs tbody[data-group="active"] tr[data-job-id]').count() == 0

    monkeypatch.setattr(services.recompute, "PROGRESS_STEPS", REPORTS)
    monkeypatch.setattr(services.recompute, "PROGRESS_SECONDS", 0)
    real_report = services.report_progress
    reports: list[int] = []
    seen: list[tuple[int, int]] = []  # (value, max) of the bar in the page

    def report_and_watch(job_id: int, done: int, total: int) -> None:
        real_report(job_id, done, total)
        reports.append(done)
        if len(reports) in WATCHED:
            page.wait_for_function(BAR_AT_LEAST, arg=[job_id, done], timeout=15_000)
            seen.append(tuple(page.evaluate(BAR, job_id)))
            if len(reports) == 4:
                screenshot(page, "dashboard-recompute-running")

    monkeypatch.setattr(services.recompute, "report_progress", report_and_watch)
    job = services.recompute_ladder(ladder.pk, reason=RecomputeJob.Reason.MANUAL)

    assert (job.status, job.total) == ("done", MATCHES)
    assert reports == [30 * n for n in range(1, REPORTS + 1)]
    values = [value for value, _ in seen]
    assert values == sorted(set(values)) and len(values) == len(WATCHED), seen  # it grew each time
    assert values[0] < MATCHES and all(maximum == MATCHES for _, maximum in seen)
    # Once done, the job leaves the running table for the finished one.
    page.wait_for_selector(f'#jobs tbody[data-group="finished"] tr[data-job-id="{job.pk}"]')
    assert page.locator(f'#jobs tbody[data-group="active"] tr[data-job-id="{job.pk}"]').count() == 0
    screenshot(page, "dashboard-recompute-done")
