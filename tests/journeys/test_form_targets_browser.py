"""The forms a club's people fill in on a 390 px phone, in Japanese and Russian, are made of
targets a finger can hit: every text field, number, date and file field, menu and button is
44 px high (Apple's and Google's guides; WCAG 2.5.8 asks 24), and a checkbox or radio
button stands in a row 44 px high with its words, the whole row a target (its label). On a
1400 px screen the fields keep their size."""

from __future__ import annotations

from typing import Any

import pytest

from pages import demo
from tests.demo_sign_in import sign_in
from tests.live.conftest import CRYPTID

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TARGET = 44  # px

#: Each visible field and button of the page's forms, its width and the height of its
#: target as a finger meets it: the unbroken run of points through its middle that
#: ``elementFromPoint`` gives to it, or for a checkbox or radio button to it or one of its
#: labels (so a label that is a row around it counts, a label above it with a gap does not).
TARGETS = """() => [...document.querySelectorAll(
    'main form :is(input:not([type=hidden]), select, textarea, button)')]
  .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
  .map(e => {
    e.scrollIntoView({block: 'center'});
    const r = e.getBoundingClientRect(), x = r.x + r.width / 2, middle = r.y + r.height / 2;
    const labels = e.matches('[type=checkbox], [type=radio]') ? [...e.labels] : [];
    const mine = y => {
      const hit = document.elementFromPoint(x, y);
      return !!hit && (hit === e || labels.some(l => l.contains(hit)));
    };
    let top = middle, bottom = middle;
    if (!mine(middle)) return {name: e.name || e.type, height: 0, width: r.width};
    while (top > 0 && mine(top - 0.5)) top -= 0.5;
    while (bottom < innerHeight && mine(bottom + 0.5)) bottom += 0.5;
    const width = Math.max(r.width, ...labels.map(l => l.getBoundingClientRect().width));
    return {name: e.name || (e.textContent || '').trim().slice(0, 30) || e.type,
            type: e.type, height: bottom - top + 0.5, width};
  })"""


def form_pages() -> dict[str, str]:
    """The demo's pages with forms an organiser of Riverside fills in."""
    return {
        "upload": "/clubs/riverside/upload/",
        "recorder": "/clubs/riverside/record/",
        "recorder setup": f"/clubs/riverside/record/?game={CRYPTID}&chance=table",
        "new table": f"/clubs/riverside/tables/new/?game={CRYPTID}",
        "club settings": "/clubs/riverside/manage/",
        "new tournament": "/clubs/riverside/tournaments/new/",
        "matches": "/clubs/riverside/matches/",
    }


def localized(base: str, path: str, language: str) -> str:
    return f"{base}{path}{'&' if '?' in path else '?'}lang={language}"


def short_targets(page: Any) -> list[dict[str, Any]]:
    targets: list[dict[str, Any]] = page.evaluate(TARGETS)
    assert targets, f"{page.url}: nothing to measure"
    # the 1 px of a sampled run's ends: 43 px of points is a 44 px target
    return [t for t in targets if t["height"] < TARGET - 1 or t["width"] < 24]


@pytest.mark.parametrize("language", ["ja", "ru"])
def test_the_forms_are_targets_44_px_high_on_a_phone(
    chromium, live_server, settings, screenshot, language
):
    settings.DEBUG = True  # the demo accounts exist only then
    demo.seed_demo_clubs()
    demo.seed_demo_matches(1)
    demo.seed_demo_people()
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        small: dict[str, list[dict[str, Any]]] = {}
        page.goto(f"{live_server.url}/accounts/login/?lang={language}")
        small["sign in"] = short_targets(page)
        screenshot(page, f"forms-sign-in-{language}-390")
        page.set_viewport_size({"width": 1400, "height": 900})
        screenshot(page, f"forms-sign-in-{language}-1400")
        page.set_viewport_size({"width": 390, "height": 844})
        sign_in(page, live_server.url, language)
        for name, path in form_pages().items():
            assert page.goto(localized(live_server.url, path, language)).ok
            assert page.evaluate("document.documentElement.lang") == language
            small[name] = short_targets(page)
            overflow = page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow <= 1, f"{name} is {overflow}px wider than the phone"
            screenshot(page, f"forms-{name.replace(' ', '-')}-{language}-390")
        assert not {name: short for name, short in small.items() if short}
        # a wide screen keeps its fields one line of text high
        page.set_viewport_size({"width": 1400, "height": 900})
        for name, path in form_pages().items():
            page.goto(localized(live_server.url, path, language))
            screenshot(page, f"forms-{name.replace(' ', '-')}-{language}-1400")
            # a number field is as wide as its number, not the whole form
            widths = page.eval_on_selector_all(
                "main input[type=number]", "els => els.map(e => e.offsetWidth)"
            )
            assert max(widths, default=0) < 200, (name, widths)
        page.goto(f"{live_server.url}/clubs/riverside/manage/?lang={language}")
        heights = page.evaluate(
            "[...document.querySelectorAll('main .row-form input:not([type=checkbox])')]"
            ".map(e => e.offsetHeight)"
        )
        assert heights and max(heights) < 40, heights
        # the club's most minutes (a week) shows whole in its field
        minutes = page.locator("#id_watchers_see_all_after")
        minutes.fill("10080")
        assert minutes.evaluate("e => e.scrollWidth <= e.clientWidth")
    finally:
        context.close()


#: The look of a field: what the site's field style sets (lantern.css).
FIELD_LOOK = """(e) => {
  const s = getComputedStyle(e);
  return {font: s.fontFamily, radius: s.borderTopLeftRadius, border: s.borderTopColor,
          background: s.backgroundColor, padding: s.paddingLeft};
}"""


@pytest.mark.parametrize("language", ["ja", "ru"])
def test_a_tables_invitation_link_and_the_file_fields_look_like_the_others(
    chromium, live_server, settings, screenshot, language
):
    from django.contrib.auth import get_user_model

    from clubs.models import Club
    from live import services

    settings.DEBUG = True  # the demo accounts exist only then
    demo.seed_demo_clubs()
    demo.seed_demo_people()
    organiser = get_user_model().objects.get(username="organiser")
    table = services.open_table(
        Club.objects.get(slug="riverside"),
        organiser,
        game_id=CRYPTID,
        seats=[{"seat": "cryptid", "take": "me"}, {"seat": "scientist", "take": "free"}],
    )
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        sign_in(page, live_server.url, language)
        page.goto(localized(live_server.url, "/clubs/riverside/manage/", language))
        field = page.locator("#id_watchers_see_all_after").evaluate(FIELD_LOOK)
        page.goto(localized(live_server.url, f"/clubs/riverside/tables/{table.pk}/", language))
        assert page.locator(".live-invite").evaluate(FIELD_LOOK) == field
        screenshot(page, f"forms-table-invite-{language}-390")
        # so are the file fields of the upload and import pages
        for path in ("/clubs/riverside/upload/", "/clubs/riverside/imports/"):
            page.goto(localized(live_server.url, path, language))
            assert page.locator("main input[type=file]").evaluate(FIELD_LOOK) == field, path
    finally:
        context.close()


@pytest.mark.parametrize("language", ["ja", "ru"])
def test_the_download_formats_wrap_together_on_a_phone(chromium, live_server, screenshot, language):
    demo.seed_demo_clubs()
    demo.seed_demo_matches(1)
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        page.goto(localized(live_server.url, "/clubs/riverside/matches/", language))
        # "zip" and "JSON Lines" on one line, each whole: never one format alone
        boxes = page.eval_on_selector_all(
            "main .links a[href*='/matches/export.']",
            "els => els.map(e => [e.getClientRects().length, e.getBoundingClientRect().top])",
        )
        assert len(boxes) == 2 and all(rects == 1 for rects, _ in boxes), boxes
        assert boxes[0][1] == boxes[1][1], boxes
        screenshot(page, f"forms-matches-download-{language}-390")
    finally:
        context.close()
