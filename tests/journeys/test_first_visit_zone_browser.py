"""Issue 35, item 3, in headless Chromium: a visitor's very first page shows its times in
the browser's zone (Tokyo for a Japanese reader, Moscow for a Russian one), before the
server has been told that zone; a member's saved zone and a club's own zone still win."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-enough-passphrase"
SIZES = {1400: 900, 390: 844}
#: a game played at 00:49 UTC on 28 November 2026, as each reader's zone and language write it
PLAYED = datetime(2026, 11, 28, 0, 49, tzinfo=UTC)
READERS = {
    "ja": ("ja-JP", "Asia/Tokyo", "2026年11月28日 9:49"),
    "ru": ("ru-RU", "Europe/Moscow", "28.11.2026 03:49"),
}


def played_match(organiser: Any, time_zone: str = "") -> Any:
    from clubs import services
    from games.models import Match
    from games.services import ingest_log
    from tests.games.logs import bot_log

    club = services.create_club(
        organiser, name="Owls", slug="owls", is_public=True, time_zone=time_zone
    )
    match = ingest_log(club, bot_log("cryptid-urban-legends", 1, ["a", "b"]), organiser)
    Match.objects.filter(pk=match.pk).update(played_at=PLAYED)
    return match


def played_text(page: Any, match_id: int) -> str:
    """What the home page's card of the match says about when it was played."""
    card = page.locator(f"main li:has(a[href^='/matches/{match_id}/'])").first
    return card.locator("time").inner_text()


@pytest.fixture
def organiser(django_user_model):
    return django_user_model.objects.create_user("olga", "olga@example.org", PASSWORD)


@pytest.mark.parametrize("width", SIZES)
@pytest.mark.parametrize("language", READERS)
def test_the_first_page_a_visitor_opens_shows_times_in_the_browsers_zone(
    chromium, live_server, organiser, screenshot, language, width
):
    locale, zone, local = READERS[language]
    match = played_match(organiser)
    context = chromium.new_context(
        viewport={"width": width, "height": SIZES[width]}, timezone_id=zone, locale=locale
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        assert context.cookies() == []
        page.goto(f"{live_server.url}/?lang={language}")  # no zone known to the server yet
        assert played_text(page, match.pk) == local
        screenshot(page, f"first-visit-home-{language}-{width}")
        # the match's own page, as a second visitor's first page: the same time
        second = chromium.new_context(
            viewport={"width": width, "height": SIZES[width]}, timezone_id=zone, locale=locale
        )
        try:
            match_page = second.new_page()
            match_page.on("pageerror", lambda exc: errors.append(str(exc)))
            match_page.goto(f"{live_server.url}/matches/{match.pk}/?lang={language}")
            assert local in match_page.locator("main").inner_text()
            assert match_page.evaluate("document.documentElement.scrollWidth <= innerWidth")
            screenshot(match_page, f"first-visit-match-{language}-{width}")
        finally:
            second.close()
        # from the next page on the server knows the zone and writes it itself
        page.goto(f"{live_server.url}/matches/{match.pk}/?lang={language}")
        assert not page.evaluate("document.body.hasAttribute('data-zone-unknown')")
        assert local in page.locator("main").inner_text()
    finally:
        context.close()
    assert not errors


@pytest.mark.parametrize("language", READERS)
def test_a_members_saved_zone_and_a_clubs_own_zone_win_over_the_browsers(
    chromium, live_server, organiser, language
):
    from accounts.models import AccountSettings

    locale, zone, _ = READERS[language]
    match = played_match(organiser, time_zone="America/New_York")
    AccountSettings.objects.update_or_create(
        user=organiser, defaults={"time_zone": "America/Los_Angeles"}
    )
    context = chromium.new_context(timezone_id=zone, locale=locale)
    page = context.new_page()
    try:
        # the club's page and its match, first pages of a visitor: the club's zone
        page.goto(f"{live_server.url}/matches/{match.pk}/?lang={language}")
        new_york = {"ja": "2026年11月27日 19:49", "ru": "27.11.2026 19:49"}[language]
        assert new_york in page.locator("main").inner_text()
        page.goto(f"{live_server.url}/matches/{match.pk}/replay?lang={language}")
        assert "19:49" in page.locator(".replay-meta time").inner_text()  # its replay too
        # signed in, on a page of no club: the member's saved zone, whatever the browser says
        page.goto(f"{live_server.url}/accounts/login/?lang={language}")
        page.fill("#id_username", "olga")
        page.fill("#id_password", PASSWORD)
        page.locator("main form button[type=submit]").click()
        page.wait_for_selector("a.who")
        page.goto(f"{live_server.url}/?lang={language}")
        los_angeles = {"ja": "2026年11月27日 16:49", "ru": "27.11.2026 16:49"}[language]
        assert played_text(page, match.pk) == los_angeles
    finally:
        context.close()
