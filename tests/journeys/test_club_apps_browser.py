"""Issue 35 in headless Chromium, in Japanese and Russian, at 1400 px and 390 px, from
the home page: a club named in Japanese or Russian created with its address left blank
(the address shown as the name is typed)."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import Club

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-enough-passphrase"
SIZES = {1400: 900, 390: 844}
NAMES = {
    "ja": ("東京推理ゲーム会", "tokyo-suiri-game-kai"),
    "ru": ("Московский клуб дедукции", "moskovsky-klub-deduktsii"),
}


@pytest.fixture
def organiser(django_user_model):
    return django_user_model.objects.create_user("olga", "olga@example.org", PASSWORD)


def sign_in_from_home(page: Any, base: str, language: str, username: str = "olga") -> None:
    page.goto(f"{base}/?lang={language}")
    page.locator("a[href^='/accounts/login/']").first.click()
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_selector("a.who")


def fits(page: Any) -> None:
    """Nothing on the page is wider than the screen."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("width", SIZES)
@pytest.mark.parametrize("language", NAMES)
def test_a_club_named_in_japanese_or_russian_gets_an_address_shown_before_saving(
    chromium, live_server, organiser, screenshot, language, width
):
    name, address = NAMES[language]
    context = chromium.new_context(viewport={"width": width, "height": SIZES[width]})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        sign_in_from_home(page, live_server.url, language)
        page.locator("a[href^='/clubs/new/']").first.click()
        page.fill("#id_name", name)
        preview = page.locator("#address-preview")
        preview.filter(has_text=f"/clubs/{address}/").wait_for()
        fits(page)
        screenshot(page, f"club-new-{language}-{width}")
        page.locator("main form button[type=submit]").click()
        page.wait_for_url(f"**/clubs/{address}/manage/")
        assert Club.objects.get(slug=address).name == name
        fits(page)
        screenshot(page, f"club-created-{language}-{width}")
    finally:
        context.close()
    assert not errors


ZONES = {
    "ja": ("Asia/Tokyo", "9:49", "ニューヨーク", "America/New_York"),
    "ru": ("Europe/Moscow", "3:49", "Владивосток", "Asia/Vladivostok"),
}


@pytest.mark.parametrize("width", SIZES)
@pytest.mark.parametrize("language", ZONES)
def test_times_in_the_browsers_zone_from_the_first_visit_and_a_zone_found_by_name(
    chromium, live_server, organiser, screenshot, language, width
):
    from datetime import UTC, datetime

    from accounts.models import AccountSettings
    from clubs import services
    from games.models import Match
    from games.services import ingest_log
    from tests.games.logs import bot_log

    browser_zone, local_time, search, found = ZONES[language]
    club = services.create_club(organiser, name="Owls", slug="owls", is_public=True)
    match = ingest_log(club, bot_log("cryptid-urban-legends", 1, ["a", "b"]), organiser)
    Match.objects.filter(pk=match.pk).update(played_at=datetime(2026, 11, 28, 0, 49, tzinfo=UTC))
    context = chromium.new_context(
        viewport={"width": width, "height": SIZES[width]}, timezone_id=browser_zone
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"{live_server.url}/?lang={language}")  # the first visit: no zone known yet
        page.wait_for_load_state("load")
        assert {c["name"]: c["value"] for c in context.cookies()}["lantern_tz"] == browser_zone
        page.locator("nav a[href^='/clubs/?']").first.click()
        page.locator("main a[href^='/clubs/owls/']").first.click()
        page.locator(f"a[href^='/matches/{match.pk}/']").first.click()
        page.wait_for_url(f"**/matches/{match.pk}/**")
        assert local_time in page.inner_text("main"), page.inner_text("main")
        fits(page)
        screenshot(page, f"match-local-time-{language}-{width}")

        sign_in_from_home(page, live_server.url, language)
        page.locator("a[href^='/accounts/settings/']").first.click()
        page.fill("input.zone-search", search)
        assert page.input_value("#id_time_zone") == found
        fits(page)
        screenshot(page, f"settings-zone-search-{language}-{width}")
        page.locator("main form button[type=submit]").click()
        page.wait_for_selector(".message.success")
        assert AccountSettings.objects.get(user=organiser).time_zone == found
    finally:
        context.close()
    assert not errors


@pytest.mark.parametrize("width", SIZES)
@pytest.mark.parametrize("language", ["ja", "ru"])
def test_the_pages_issue_35_touched_fit_the_screen_in_japanese_and_russian(
    chromium, live_server, organiser, screenshot, language, width
):
    """The manage page (time zone, guests), the club page, a match, the profile, the
    settings, a refused upload's guests step and the admin: no script error, nothing
    wider than the screen."""
    import json

    from clubs import services
    from clubs.models import Membership
    from games.models import Upload
    from games.services import LogRejected, ingest_log
    from tests.games.logs import bot_log

    organiser.is_staff = organiser.is_superuser = True
    organiser.save()
    club = services.create_club(
        organiser, name=NAMES[language][0], is_public=True, time_zone="Asia/Tokyo"
    )
    match = ingest_log(club, bot_log("cryptid-urban-legends", 1, ["a", "b"]), organiser)
    member = type(organiser).objects.create_user("mia", password=PASSWORD)
    Membership.objects.create(club=club, user=member)
    with pytest.raises(LogRejected):
        ingest_log(club, json.dumps(bot_log("cryptid-urban-legends", 2, ["a", "zoe"])), member)
    upload = Upload.objects.get(status="rejected")
    pages = {
        "manage": f"/clubs/{club.slug}/manage/",
        "club": f"/clubs/{club.slug}/",
        "match": f"/matches/{match.pk}/",
        "profile": "/accounts/profile/",
        "settings": "/accounts/settings/",
        "upload-guests": f"/uploads/{upload.pk}/",
        "admin": "/admin/",
    }
    context = chromium.new_context(
        viewport={"width": width, "height": SIZES[width]}, timezone_id="Asia/Tokyo"
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        sign_in_from_home(page, live_server.url, language)
        for name, path in pages.items():
            page.goto(f"{live_server.url}{path}")
            screenshot(page, f"{name}-{language}-{width}")
            if name != "admin":  # the admin is Django's own, drawn for its own widths
                fits(page)
    finally:
        context.close()
    assert not errors


@pytest.mark.parametrize("width", SIZES)
@pytest.mark.parametrize("language", ["ja", "ru"])
def test_a_member_confirms_a_guest_in_the_step_after_uploading(
    chromium, live_server, organiser, screenshot, tmp_path, language, width
):
    """From the home page: a member uploads a log naming a handle the club does not know;
    the club lets members confirm guests, so the next page asks, and confirming stores it."""
    import json

    from clubs import services
    from clubs.models import AuditEntry, Membership, Player
    from games.models import Match
    from tests.games.logs import bot_log

    club = services.create_club(organiser, name=NAMES[language][0], is_public=True)
    club.members_confirm_guests = True
    club.save()
    member = type(organiser).objects.create_user("mia", password=PASSWORD)
    Membership.objects.create(club=club, user=member)
    Player.objects.create(club=club, handle="mia")
    path = tmp_path / "night.json"
    path.write_text(json.dumps(bot_log("cryptid-urban-legends", 3, ["mia", "zoe"])))
    context = chromium.new_context(viewport={"width": width, "height": SIZES[width]})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        sign_in_from_home(page, live_server.url, language, "mia")
        page.locator(f"main a[href^='/clubs/{club.slug}/']").first.click()
        page.locator(f"a[href^='/clubs/{club.slug}/upload/']").first.click()
        page.set_input_files("input[type=file]", str(path))
        page.locator("main form.upload button[type=submit]").click()
        page.locator("form.guests-step").wait_for()
        fits(page)
        screenshot(page, f"guests-step-{language}-{width}")
        page.locator("form.guests-step button[type=submit]").click()
        page.wait_for_url("**/matches/*/**")
        assert Match.objects.filter(club=club).count() == 1
        assert Player.objects.get(club=club, handle="zoe").guest
        assert AuditEntry.objects.get(club=club, action="player.guests").actor == member
    finally:
        context.close()
    assert not errors
