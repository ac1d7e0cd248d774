"""Cloak & Dagger replays in headless Chromium: the envelopes (all-seeing) and a seat's
check sheet follow the frames step by step."""

from __future__ import annotations

import re

import pytest

from replay.frames import build_frames
from tests.replay.browsing import board_ply, open_replay

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ENVELOPES = "#replay-board g.envelope"


def drawn_envelopes(page, attribute: str) -> list[str]:
    return page.eval_on_selector_all(
        ENVELOPES, f"els => els.map(e => e.getAttribute('{attribute}'))"
    )


def test_all_seeing_envelopes_follow_every_action(
    page, live_server, club, store_match, example_log, screenshot
):
    log = example_log("cloak-documents.json")
    match = store_match(club, log)
    frames = build_frames(log, "all")["frames"]
    open_replay(page, live_server, match)
    for ply, frame in enumerate(frames):
        assert board_ply(page) == ply
        expected = [",".join(e["contents"]) for e in frame["view"]["envelopes"]]
        assert drawn_envelopes(page, "data-contents") == expected, f"ply {ply}"
        page.keyboard.press("ArrowRight" if ply % 2 else "j")
    # The last action wins: its envelope is marked and the winner named.
    assert (
        page.get_attribute('g.envelope[data-envelope="1"]', "class")
        == "envelope env-current env-won"
    )
    # ... as the engine says the result, not as a seat id ("p1 won").
    panels = page.inner_text(".board-panels")
    assert frames[-1]["result_sentence"] in panels and "p1" not in panels
    screenshot(page, "cloak-all-last")


def test_a_seat_sees_its_check_sheet_not_the_envelopes(
    page, live_server, club, store_match, example_log, screenshot
):
    log = example_log("cloak-documents.json")
    match = store_match(club, log)
    frames = build_frames(log, "p2")["frames"]
    open_replay(page, live_server, match, "?ply=13")
    page.select_option("#replay-view", "p2")
    page.wait_for_function("document.querySelector('#replay-board').dataset.view === 'p2'")
    assert board_ply(page) == 13
    assert drawn_envelopes(page, "data-contents") == [None] * 20
    sheet = frames[13]["view"]["check_sheet"]
    expected = ["never" if e["seen"] is None else ",".join(e["seen"]) for e in sheet]
    assert drawn_envelopes(page, "data-seen") == expected
    # p1's place into 16 was announced: p2's sheet records it there (p2 never looked in).
    assert sheet[15]["since"] == [{"seat": "p1", "type": "place", "turn": 5}]
    assert page.get_attribute('g.envelope[data-envelope="16"]', "data-since") == "1"
    # p2 does not learn the card p1 placed: the move list says the number only...
    moves = page.inner_text("#replay-moves")
    p1 = log["seats"][0]["player"]
    assert f"{p1} places the top card of the pile in envelope 16" in moves
    assert not re.search(
        r"places (document|spy|double agent|hazard) \S+ from the pile in envelope 16", moves
    )
    # ...and so does the compact notation, shown on request.
    page.check("#replay-notation-toggle")
    moves = page.inner_text("#replay-moves")
    assert "p1 place 16 ?" in moves and "p1 place 16 Y" not in moves
    page.uncheck("#replay-notation-toggle")
    screenshot(page, "cloak-p2-ply13")
    page.click('#replay-moves button[data-ply="17"]')
    assert board_ply(page) == 17
    expected = [
        "never" if e["seen"] is None else ",".join(e["seen"])
        for e in frames[17]["view"]["check_sheet"]
    ]
    assert drawn_envelopes(page, "data-seen") == expected
    page.reload()
    page.wait_for_selector('#replay[data-ready="true"]')
    assert board_ply(page) == 17 and page.input_value("#replay-view") == "p2"
