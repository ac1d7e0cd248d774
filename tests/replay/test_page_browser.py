"""The replay page in real headless Chromium, on the toy game: every control, the
keyboard, the move list, the URL and the perspective selector."""

from __future__ import annotations

import re

import pytest

from tests.replay.browsing import board_ply, open_replay
from tests.replay.toy_game import toy_log

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOG = toy_log(cards=[(3, 8), (5, 1), (2, 6)], guesses=[(4, 4), (9, 9), (6, 7)])
del LOG["actions"][-1]  # north's right guess of 6 ends the game at ply 11


def test_keys_buttons_and_move_list_move_through_the_game(
    page, live_server, club, store_match, toy_game, screenshot
):
    match = store_match(club, LOG)
    open_replay(page, live_server, match)
    assert board_ply(page) == 0
    page.keyboard.press("ArrowRight")
    assert board_ply(page) == 1
    page.keyboard.press("j")
    assert board_ply(page) == 2
    page.keyboard.press("k")
    assert board_ply(page) == 1
    page.keyboard.press("ArrowLeft")
    assert board_ply(page) == 0
    page.keyboard.press("ArrowDown")  # first action of round 2
    assert board_ply(page) == 5
    page.keyboard.press("ArrowDown")
    assert board_ply(page) == 9
    page.keyboard.press("ArrowUp")  # at the start of round 3: back to round 2's start
    assert board_ply(page) == 5
    page.keyboard.press("End")
    assert board_ply(page) == 11
    assert page.is_disabled('[data-go="next"]')
    page.keyboard.press("Home")
    assert board_ply(page) == 0
    assert page.is_disabled('[data-go="prev"]')
    page.click('[data-go="last"]')
    assert board_ply(page) == 11
    page.click('[data-go="prev-round"]')
    assert board_ply(page) == 9
    page.click('[data-go="prev"]')
    assert board_ply(page) == 8
    page.click('[data-go="next-round"]')
    assert board_ply(page) == 9
    page.click('[data-go="first"]')
    page.click('[data-go="next"]')
    assert board_ply(page) == 1
    # The move list: grouped by round and phase, a click jumps, the current move is marked.
    rounds = page.locator(".moves-round h3").all_inner_texts()
    assert rounds == ["Round 1", "Round 2", "Round 3"]
    assert page.locator('.moves-round[data-round="1"] h4').all_text_contents() == ["draw", "guess"]
    page.click('#replay-moves button[data-ply="6"]')
    assert board_ply(page) == 6
    assert page.get_attribute('#replay-moves button[data-ply="6"]', "aria-current") == "step"
    # The notation beside the sentence only once the reader turns it on.
    assert not page.is_visible("#replay-notation")
    page.check("#replay-notation-toggle")
    assert "draws 1" in page.inner_text("#replay-notation")
    page.uncheck("#replay-notation-toggle")
    assert re.search(r"ply=6", page.url) and "view=all" in page.url
    screenshot(page, "toy-all-ply6")


def test_help_dialog_and_autoplay(page, live_server, club, store_match, toy_game):
    match = store_match(club, LOG)
    open_replay(page, live_server, match, "?ply=9")
    page.keyboard.press("?")
    assert page.is_visible("#replay-keys")
    page.keyboard.press("Escape")
    assert not page.is_visible("#replay-keys")
    page.select_option("#replay-speed", "250")
    page.locator("#replay-board").click()  # focus away from the select, as a user would
    page.keyboard.press(" ")
    assert page.get_attribute('[data-go="play"]', "aria-pressed") == "true"
    page.wait_for_function(
        "document.querySelector('#replay-board').dataset.ply === '11'", timeout=5000
    )
    # Autoplay stops at the end by itself.
    page.wait_for_function(
        "document.querySelector('[data-go=\"play\"]').getAttribute('aria-pressed') === 'false'",
        timeout=2000,
    )


def test_perspective_switch_and_shared_url(
    page, live_server, club, store_match, toy_game, screenshot
):
    match = store_match(club, LOG)
    open_replay(page, live_server, match, "?ply=2")
    assert "8" in page.inner_text("#replay-board")  # all-seeing: south's card 8 is shown
    page.select_option("#replay-view", "north")
    page.wait_for_function("document.querySelector('#replay-board').dataset.view === 'north'")
    assert board_ply(page) == 2
    assert "view=north" in page.url and "ply=2" in page.url
    board = page.inner_text("#replay-board")
    assert "8" not in board
    assert "draws a card" in page.inner_text("#replay-moves")
    assert "draws 8" not in page.inner_text("#replay-moves")
    screenshot(page, "toy-north-ply2")
    # Reloading the shared URL comes back to the same moment and perspective.
    shared = page.url
    page.goto("about:blank")
    page.goto(shared)
    page.wait_for_selector('#replay[data-ready="true"]')
    assert board_ply(page) == 2
    assert page.input_value("#replay-view") == "north"


def test_phone_width_keeps_every_control_reachable(
    page, live_server, club, store_match, toy_game, screenshot
):
    match = store_match(club, LOG)
    page.set_viewport_size({"width": 375, "height": 740})
    open_replay(page, live_server, match, "?ply=3")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page scrolls sideways at phone width ({width}px)"
    for control in ("first", "prev-round", "prev", "play", "next", "next-round", "last"):
        box = page.locator(f'[data-go="{control}"]').bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 375
        assert box["height"] >= 40  # big enough for a thumb
    page.click('[data-go="next"]')
    assert board_ply(page) == 4
    screenshot(page, "toy-phone")


def test_space_after_clicking_a_control_toggles_autoplay_only(
    page, live_server, club, store_match, toy_game
):
    match = store_match(club, LOG)
    open_replay(page, live_server, match, "?ply=3")
    page.click('[data-go="next"]')  # the button keeps the focus
    assert board_ply(page) == 4
    page.keyboard.press(" ")
    assert page.get_attribute('[data-go="play"]', "aria-pressed") == "true"
    page.keyboard.press(" ")
    assert page.get_attribute('[data-go="play"]', "aria-pressed") == "false"
    # Stepping stopped where autoplay left it; the focused button did not fire as well.
    ply = board_ply(page)
    assert 4 <= ply <= 5
    page.keyboard.press("k")
    assert board_ply(page) == ply - 1


def test_a_replay_the_engine_cannot_set_up_says_why(
    chromium, live_server, club, store_match, example_log
):
    match = store_match(club, example_log("cloak-documents.json"))
    match.log.document["setup"] = {"pile": ["Q"]}
    match.log.save()
    context = chromium.new_context()
    page = context.new_page()
    page.goto(f"{live_server.url}/matches/{match.pk}/replay")
    page.wait_for_selector("#replay-error:not([hidden])")
    assert "HTTP 422" in page.inner_text("#replay-error") and "CD-" in page.inner_text(
        "#replay-error"
    )
    # The rule cited is a link to its text.
    rule = page.inner_text("#replay-error a.rule-link")
    assert (
        page.get_attribute("#replay-error a.rule-link", "href")
        == f"{live_server.url}/rules/cloak-and-dagger/#{rule}"
    )
    context.close()
