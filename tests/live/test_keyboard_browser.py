"""A newcomer's table by keyboard only, in Japanese and Russian, on a phone and a desk
(issue 36 item 7): from the club page read by a ``?lang=`` link, open a table against a
bot, enter every move with Tab, Enter and Space on the choice list (the focus is on the
entry whenever the turn comes), reach the end and follow the match link, the language
kept all the way; and a two-person table joined from the club page."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from live.models import Table
from tests.live.browsers import n_of, signed_in

PlaywrightTimeout = pytest.importorskip("playwright.sync_api").TimeoutError

pytestmark = [pytest.mark.browser, pytest.mark.live, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESK = {"width": 1400, "height": 900}


def focused(page: Any) -> str:
    """What has the keyboard focus: ``choice``, ``select``, ``confirm`` or something else."""
    return page.evaluate(
        """() => { const a = document.activeElement;
        if (!a || !a.closest('#live-entry')) return a ? a.tagName + '.' + a.className : '';
        if (a.matches('button.rec-choice')) return 'choice';
        if (a.matches('select')) return 'select';
        if (a.matches('.rec-confirm')) return 'confirm';
        return 'entry:' + a.tagName; }"""
    )


def move_by_keyboard(page: Any, rng: random.Random) -> None:
    """Enter one move with the keys alone, starting where the page put the focus."""
    before = n_of(page)
    for step in range(40):
        if n_of(page) > before:
            return
        where = focused(page)
        assert where in ("choice", "select", "confirm"), f"focus lost at step {step}: {where!r}"
        if where == "choice":
            for _ in range(rng.randrange(3)):  # Tab along the choices, then pick one
                page.keyboard.press("Tab")
                if focused(page) != "choice":
                    page.keyboard.press("Shift+Tab")
                    break
            page.keyboard.press(rng.choice(["Enter", " "]))
        elif where == "select":
            page.keyboard.press("ArrowDown")
        else:
            page.keyboard.press("Enter")
            try:
                page.wait_for_function(
                    f"Number(document.querySelector('#live').dataset.n) > {before}", timeout=5000
                )
            except PlaywrightTimeout:
                continue  # the entry was redrawn under the key (news came): look again
            return
        page.wait_for_timeout(60)
    raise AssertionError("no move could be entered by keyboard")


def no_overflow(page: Any) -> None:
    """Nothing on the page is wider than the window (no sideways scrolling on a phone)."""
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"the page is {wide}px wider than the window"


@pytest.fixture
def local_server(settings, asgi_server) -> str:
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
    return asgi_server


def people_at(chromium: Any, server: str, users: list[Any], size: dict, errors: list) -> list:
    """A page each for ``users``, signed in, at the window ``size``."""
    pages = [signed_in(chromium, server, user, errors) for user in users]
    for page in pages:
        page.set_viewport_size(size)
    return pages


def open_table(page: Any, server: str, lang: str, seat2: str) -> Table:
    page.goto(f"{server}/clubs/riverside/?lang={lang}")
    page.locator('.live-tables a[href*="/tables/new/"]').click()
    page.select_option("select[name=game]", "cryptid-urban-legends")
    page.locator("#live-choose button[type=submit]").click()
    second = page.locator("select[name='seat.scientist'] option").evaluate_all(
        "els => els.map(e => e.value)"
    )
    page.select_option("select[name='seat.scientist']", next(v for v in second if seat2 in v))
    page.locator("#live-setup button[type=submit]").click()
    page.wait_for_selector("#live #live-link[data-state='live']")
    assert f"lang={lang}" in page.url and page.get_attribute("html", "lang") == lang
    return Table.objects.get()


@pytest.mark.parametrize(("lang", "size"), [("ru", PHONE), ("ja", DESK)])
def test_a_game_against_a_bot_by_keyboard_only_keeps_the_language(
    chromium, local_server, club, people, screenshot, lang, size
):
    asgi_server = local_server
    errors: list[str] = []
    [ann] = people_at(chromium, asgi_server, [people["ann"]], size, errors)
    width = size["width"]
    ann.goto(f"{asgi_server}/clubs/riverside/?lang={lang}")
    screenshot(ann, f"kb-club-{lang}-{width}")
    table = open_table(ann, asgi_server, lang, "bot:")
    ann.wait_for_selector('#live[data-status="playing"]')
    rng = random.Random(7)
    moves = 0
    for _ in range(400):
        status = ann.get_attribute("#live", "data-status")
        if status != "playing":
            break
        if ann.get_attribute("#live", "data-turn") != "true":
            ann.wait_for_timeout(100)
            continue
        ann.wait_for_function(
            "document.activeElement && document.activeElement.closest('#live-entry')"
        )
        if moves == 1:
            no_overflow(ann)
            screenshot(ann, f"kb-turn-{lang}-{width}")
        move_by_keyboard(ann, rng)
        moves += 1
    assert ann.get_attribute("#live", "data-status") == "finished", "the game did not end"
    match = ann.locator('#live-done a[data-link="match"]')
    match.wait_for()
    no_overflow(ann)
    screenshot(ann, f"kb-end-{lang}-{width}")
    match.focus()
    ann.keyboard.press("Enter")
    ann.wait_for_url(re.compile(r"/matches/"))
    assert f"lang={lang}" in ann.url and ann.get_attribute("html", "lang") == lang
    screenshot(ann, f"kb-match-{lang}-{width}")
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and moves >= 2
    assert not errors, errors


@pytest.mark.parametrize(("lang", "size"), [("ja", PHONE), ("ru", DESK)])
def test_two_people_join_and_move_by_keyboard_in_their_language(
    chromium, local_server, club, people, screenshot, lang, size
):
    asgi_server = local_server
    errors: list[str] = []
    ann, ben = people_at(chromium, asgi_server, [people["ann"], people["ben"]], size, errors)
    width = size["width"]
    open_table(ann, asgi_server, lang, "free:")
    screenshot(ann, f"kb-lobby-{lang}-{width}")
    ben.goto(f"{asgi_server}/clubs/riverside/?lang={lang}")
    no_overflow(ben)
    screenshot(ben, f"kb-club-list-{lang}-{width}")
    join = ben.locator(".live-table-list button[type=submit]").first
    # lantern.css's row of buttons (the club page loads no live.css)
    assert join.evaluate("b => getComputedStyle(b.closest('.actions')).flexWrap") == "wrap"
    join.focus()
    ben.keyboard.press("Enter")
    ben.wait_for_selector('#live[data-status="playing"]')
    assert f"lang={lang}" in ben.url and ben.get_attribute("html", "lang") == lang
    ann.wait_for_selector('#live[data-status="playing"]')
    rng = random.Random(3)
    made = 0
    for moves in range(4):
        for _ in range(100):  # whose turn it is, once a page has heard
            turns = (
                ann.get_attribute("#live", "data-turn"),
                ben.get_attribute("#live", "data-turn"),
            )
            if "true" in turns or ann.get_attribute("#live", "data-status") != "playing":
                break
            ann.wait_for_timeout(100)
        if ann.get_attribute("#live", "data-status") != "playing":
            break  # a Cryptid caught in its first moves: the game is over
        mover = ann if ann.get_attribute("#live", "data-turn") == "true" else ben
        mover.wait_for_function(
            "document.activeElement && document.activeElement.closest('#live-entry')"
        )
        move_by_keyboard(mover, rng)
        other = ben if mover is ann else ann
        other.wait_for_function(
            f"Number(document.querySelector('#live').dataset.n) >= {n_of(mover)}"
        )
        made += 1
        if moves == 1:
            for page, who in ((ann, "ann"), (ben, "ben")):
                no_overflow(page)
                screenshot(page, f"kb-two-{who}-{lang}-{width}")
    assert made >= 2 and not errors, errors
