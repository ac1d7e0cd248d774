"""Cryptid: Urban Legends replays in headless Chromium: blocks, sensors, markers and the
declared trace follow the frames; a seat sees its own hand and only the size of the other."""

from __future__ import annotations

import pytest

from replay.frames import build_frames
from tests.replay.browsing import board_ply, open_replay

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def drawn(page, selector: str, attribute: str) -> list[str]:
    return page.eval_on_selector_all(
        selector, f"els => els.map(e => e.getAttribute('{attribute}'))"
    )


def expected_table(view: dict) -> tuple[list[str], list[str], list[str]]:
    """Block ids, their presence flags and the sensors per space, top row first."""
    blocks, presence, spaces = [], [], []
    for seat in ("scientist", "cryptid"):
        row = view["rows"][seat]
        blocks += [b["id"] for b in row["blocks"]]
        presence += [str(b["presence"]).lower() for b in row["blocks"]]
        spaces += [
            "".join(f"{c[0]}{g[c]}" for c in ("red", "white", "black") if g.get(c))
            for g in row["spaces"]
        ]
    return blocks, presence, spaces


def test_all_seeing_table_follows_every_action(
    page, live_server, club, store_match, example_log, screenshot
):
    log = example_log("cryptid-escape.json")
    match = store_match(club, log)
    payload = build_frames(log, "all")
    frames = payload["frames"]
    open_replay(page, live_server, match)
    declared = []
    for ply, frame in enumerate(frames):
        assert board_ply(page) == ply
        blocks, presence, spaces = expected_table(frame["view"])
        assert drawn(page, "g.cul-block", "data-block") == blocks, f"ply {ply}"
        assert drawn(page, "g.cul-block", "data-presence") == presence, f"ply {ply}"
        assert drawn(page, "g.cul-space", "data-sensors") == spaces, f"ply {ply}"
        active = frame["view"]["active_row"]
        assert drawn(page, "rect.cul-active", "data-row") == [active]
        if frame["action"] and frame["action"]["type"] == "declare":
            declared.append(ply)
            matching = frame["view"]["trace"]["matching"]
            assert sorted(drawn(page, "g.cul-match", "data-block")) == sorted(matching), (
                f"ply {ply}"
            )
            if ply in (5,):
                screenshot(page, "cryptid-all-declare")
        if ply < len(frames) - 1:
            page.keyboard.press("ArrowRight")
    assert declared, "the example declares traces"
    # The result as the engine says it, never a reason's id ("Cryptid won (escape)").
    assert frames[-1]["result_sentence"] in page.inner_text(".board-panels")
    screenshot(page, "cryptid-all-last")


def test_a_seat_sees_its_hand_and_only_the_size_of_the_other(
    page, live_server, club, store_match, example_log, screenshot
):
    log = example_log("cryptid-escape.json")
    match = store_match(club, log)
    frames = build_frames(log, "scientist")["frames"]
    draw = next(
        f["ply"] for f in frames if f["seat"] == "cryptid" and f["action"]["type"] == "draw"
    )
    open_replay(page, live_server, match, f"?ply={draw}&view=scientist")
    view = frames[draw]["view"]
    own = page.eval_on_selector_all(
        '[data-hand="scientist"] .card-chip', "els => els.map(e => e.dataset.card)"
    )
    assert own == view["hands"]["scientist"]["cards"]
    # Each card by its name at the table (Split), its log id on hover.
    words = build_frames(log, "scientist")["card_words"]
    named = page.eval_on_selector_all(
        '[data-hand="scientist"] .card-chip', "els => els.map(e => [e.textContent, e.title])"
    )
    assert named == [[words[card], card] for card in own] and {words[c] for c in own} <= {
        "Split",
        "Shuffle",
        "Align",
    }
    other = page.eval_on_selector_all(
        '[data-hand="cryptid"] .card-chip', "els => els.map(e => e.textContent)"
    )
    assert other == ["?"] * view["hands"]["cryptid"]["size"]
    # The cryptid's draw is shown as a count in the move list, never the cards.
    assert frames[draw]["action"] == {"seat": "cryptid", "type": "draw", "count": 2}
    move = f'#replay-moves button[data-ply="{draw}"]'
    assert (
        page.inner_text(move)
        == frames[draw]["sentence"]
        == f"Cryptid ({log['seats'][0]['player']}) draws 2 cards"
    )
    # Its notation only when the reader turns notation on.
    assert page.get_attribute(move, "title") is None
    page.check("#replay-notation-toggle")
    assert page.inner_text(move) == frames[draw]["notation"]
    page.uncheck("#replay-notation-toggle")
    screenshot(page, "cryptid-scientist-draw")
    page.select_option("#replay-view", "cryptid")
    page.wait_for_function("document.querySelector('#replay-board').dataset.view === 'cryptid'")
    assert board_ply(page) == draw
    cryptid_frames = build_frames(log, "cryptid")["frames"]
    own = page.eval_on_selector_all(
        '[data-hand="cryptid"] .card-chip', "els => els.map(e => e.dataset.card)"
    )
    assert own == cryptid_frames[draw]["view"]["hands"]["cryptid"]["cards"]
