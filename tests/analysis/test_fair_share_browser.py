"""Fair share as a person meets it, in headless Chromium at 1400 px and 390 px, in
Japanese and Russian: from the home page to the club, whose page says how much of the
day's automatic analysis is spent and how many matches were left for it; past the limit
of games against a bot, the setup page says the limit (a 429, not a crash); a long match's
replay says it is analysed with fewer playouts; the operators' dashboard lists the day.

Screenshots: artifacts/analysis/fair-share-*.png."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from rest_framework.test import APIClient

from analysis import budgets
from analysis.models import MatchAnalysis
from analysis.services import current_version, plan_of
from clubs.models import Club, Membership, Player
from games.services import ingest_log
from tests.games.logs import bot_log
from tests.recorder.recording import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (1400, 390)


@pytest.fixture
def member(django_user_model) -> Any:
    user = django_user_model.objects.create_user(username="mia", password="pw-for-tests-only")
    club = Club.objects.create(
        name="Riverside Deduction Society", slug="riverside", auto_analysis=True
    )
    Membership.objects.create(user=user, club=club, role=Membership.Role.MEMBER)
    for handle in ("alice", "bob"):
        Player.objects.create(club=club, handle=handle)
    return user


@pytest.fixture
def refused_page(chromium: Any) -> Any:
    """A page on which the 429 a test expects is the one console error allowed (Chromium
    reports every document answered 4xx as a resource that failed to load)."""
    context = chromium.new_context(viewport={"width": 1400, "height": 900}, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    yield page
    context.close()
    assert not [e for e in errors if "status of 429" not in e], errors


def at_each_width(page: Any, url: str) -> Iterator[int]:
    """Open ``url`` at each width of WIDTHS in turn (the width, for the screenshot's name)."""
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(url)
        yield width


def fits_the_phone(page: Any) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.parametrize("language", ["ja", "ru"])
def test_the_club_page_says_the_days_budget_from_the_home_page(
    page, live_server, member, settings, screenshot, language
):
    settings.LANTERN_CLUB_ANALYSIS_SECONDS_PER_DAY = 1800
    club = Club.objects.get()
    club.time_zone = "Asia/Tokyo"
    club.save()
    assert budgets.reserve_for_club(club.pk, 1500.4)
    for seed in range(7):
        waiting(club, seed)
    sign_in(page, live_server, member)
    for width in at_each_width(page, f"{live_server.url}/?lang={language}"):
        page.get_by_role("link", name="Riverside Deduction Society").first.click()
        panel = page.locator(".analysis-day")
        panel.scroll_into_view_if_needed()
        text = panel.inner_text()
        assert "1501" in text and "1800" in text and "7" in text
        assert "00:00" in text and ("東京" in text if language == "ja" else "Токио" in text)
        assert ("予算" in text) if language == "ja" else ("бюджет" in text)
        assert fits_the_phone(page)
        screenshot(page, f"fair-share-club-{language}-{width}")


def waiting(club: Club, seed: int) -> Any:
    """A match of the club whose automatic analysis waits for the club's next day (stored
    with automatic analysis off for a moment: it would run here and now)."""
    Club.objects.filter(pk=club.pk).update(auto_analysis=False)
    club.auto_analysis = False
    match = ingest_log(club, bot_log("cryptid-urban-legends", seed, ["alice", "bob"]), None)
    MatchAnalysis.objects.create(
        match=match,
        engine_version=current_version(match),
        budget=plan_of(match).budget,
        automatic=True,
        status="waiting",
        estimated_seconds=400,
    )
    Club.objects.filter(pk=club.pk).update(auto_analysis=True)
    club.auto_analysis = True
    return match


@pytest.mark.parametrize("language", ["ja", "ru"])
def test_a_waiting_analysis_says_from_when_in_the_readers_time_zone(
    chromium, live_server, member, screenshot, language
):
    club = Club.objects.get()
    club.time_zone = "Asia/Tokyo"
    club.save()
    match = waiting(club, 1)
    # the reader is in Moscow: the browser says so (js/time-zone.js keeps it in a cookie)
    context = chromium.new_context(
        viewport={"width": 1400, "height": 900}, bypass_csp=True, timezone_id="Europe/Moscow"
    )
    page = context.new_page()
    sign_in(page, live_server, member)
    page.goto(f"{live_server.url}/?lang={language}")
    for width in at_each_width(
        page, f"{live_server.url}/matches/{match.pk}/replay?lang={language}"
    ):
        status = page.locator(".analysis-status")
        status.scroll_into_view_if_needed()
        page.wait_for_function(
            "document.querySelector('.analysis-status').textContent.includes('00:00')"
        )
        text = status.inner_text()
        assert (
            ("東京" in text and "モスクワ" in text)
            if language == "ja"
            else ("Токио" in text and "Москва" in text)
        ), text
        assert page.locator(".analysis-request").is_visible()
        assert fits_the_phone(page)
        screenshot(page, f"fair-share-waiting-{language}-{width}")
    context.close()


@pytest.mark.parametrize("language", ["ja", "ru"])
def test_past_the_limit_of_bot_games_the_setup_page_says_it(
    refused_page, live_server, member, settings, screenshot, language
):
    settings.LANTERN_BOT_DRAFTS_OPEN = 1
    client = APIClient()
    client.force_authenticate(member)
    opened = client.post(
        "/api/drafts/",
        {
            "club": "riverside",
            "game": "cloak-and-dagger",
            "seats": [{"seat": "p1", "player": "alice"}, {"seat": "p2", "bot": "random"}],
        },
        format="json",
    )
    assert opened.status_code == 201
    page = refused_page
    sign_in(page, live_server, member)
    for width in at_each_width(page, f"{live_server.url}/clubs/riverside/?lang={language}"):
        # Each click loads a new page: wait for its load event, so the next click is on that
        # page with its scripts run (js/keep-lang.js carries the language on).
        with page.expect_navigation(wait_until="load"):
            page.locator("a.button[href*='chance=server']").first.click()
        with page.expect_navigation(wait_until="load"):
            page.locator(
                "form:has(select[name=game]) button[type=submit], form:has(select[name=game]) "
                "input[type=submit]"
            ).first.click()
        with (
            page.expect_navigation(wait_until="load"),
            page.expect_response(lambda r: r.request.method == "POST") as answer,
        ):
            page.locator("form[method=post] button[type=submit]").last.click()
        assert answer.value.status == 429 and int(answer.value.headers["retry-after"]) > 0
        error = page.locator(".errorlist").first.inner_text()
        assert ("1件まで" in error) if language == "ja" else ("не больше 1" in error), error
        assert fits_the_phone(page)
        screenshot(page, f"fair-share-bot-limit-{language}-{width}")


@pytest.mark.parametrize("language", ["ja", "ru"])
def test_a_long_match_says_it_is_analysed_with_fewer_playouts(
    page, live_server, member, settings, screenshot, language
):
    club = Club.objects.get()
    club.auto_analysis = False  # not analysed yet: the page says how it would be
    club.save()
    log = bot_log("cryptid-urban-legends", 1, ["alice", "bob"])
    match = ingest_log(club, log, None)
    settings.LANTERN_ANALYSIS_BUDGET = 24
    settings.LANTERN_ANALYSIS_MAX_WORK = (len(log["actions"]) + 1) * 3 * 6
    sign_in(page, live_server, member)
    for width in at_each_width(
        page, f"{live_server.url}/matches/{match.pk}/replay?lang={language}"
    ):
        note = page.locator(".analysis-note")
        note.scroll_into_view_if_needed()
        assert "6" in note.inner_text() and "24" in note.inner_text()
        assert fits_the_phone(page)
        screenshot(page, f"fair-share-long-match-{language}-{width}")


@pytest.mark.parametrize("language", ["ja", "ru"])
def test_the_dashboard_lists_the_clubs_day(
    page, live_server, member, django_user_model, screenshot, language
):
    club = Club.objects.get()
    budgets.reserve_for_club(club.pk, 312)
    operator = django_user_model.objects.create_user(
        username="ops", password="pw-for-tests-only", is_staff=True
    )
    sign_in(page, live_server, operator)
    for width in at_each_width(page, f"{live_server.url}/dashboard/?lang={language}"):
        table = page.locator("#analysis-days")
        table.scroll_into_view_if_needed()
        assert "Riverside Deduction Society" in table.inner_text() and "312" in table.inner_text()
        screenshot(page, f"fair-share-dashboard-{language}-{width}")


@pytest.mark.parametrize("language", ["ja", "ru"])
def test_asking_past_ones_share_of_analyses_says_the_limit_on_the_replay(
    refused_page, live_server, member, settings, screenshot, language
):
    settings.LANTERN_ANALYSES_AT_ONCE = 1
    club = Club.objects.get()
    club.auto_analysis = False
    club.save()
    waiting, asked = (
        ingest_log(club, bot_log("cryptid-urban-legends", seed, ["alice", "bob"]), None)
        for seed in (1, 2)
    )
    MatchAnalysis.objects.create(
        match=waiting,
        engine_version=current_version(waiting),
        budget=2,
        requested_by=member,
        estimated_seconds=40,
    )
    page = refused_page
    sign_in(page, live_server, member)
    for width in at_each_width(
        page, f"{live_server.url}/matches/{asked.pk}/replay?lang={language}"
    ):
        button = page.locator(".analysis-request")
        button.scroll_into_view_if_needed()
        with page.expect_response(lambda r: r.request.method == "POST") as answer:
            button.click()
        assert answer.value.status == 429
        status = page.locator(".analysis-status")
        status.wait_for()
        page.wait_for_function(
            "document.querySelector('.analysis-status').textContent.includes('40')"
        )
        text = status.inner_text()
        assert ("1件まで" in text) if language == "ja" else ("не больше 1" in text)
        assert fits_the_phone(page)
        screenshot(page, f"fair-share-analysis-limit-{language}-{width}")


@pytest.mark.parametrize("language", ["ja", "ru"])
def test_the_manage_page_says_the_budget_beside_the_switch(
    page, live_server, member, screenshot, language
):
    Membership.objects.filter(user=member).update(role=Membership.Role.ORGANISER)
    sign_in(page, live_server, member)
    for width in at_each_width(page, f"{live_server.url}/clubs/riverside/manage/?lang={language}"):
        section = page.locator("section[aria-labelledby=analysis-h]")
        section.scroll_into_view_if_needed()
        assert "1800" in section.inner_text()
        assert fits_the_phone(page)
        screenshot(page, f"fair-share-manage-{language}-{width}")
