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
        page.locator("a[href='/clubs/new/']").first.click()
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
