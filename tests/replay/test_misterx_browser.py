"""Mister X replays in headless Chromium: pawns, Mister X's path or revealed positions,
and the detectives' overlay of where he could be, as the frames say."""

from __future__ import annotations

import pytest

from engine import play
from replay.frames import build_frames
from tests.replay.browsing import board_ply, open_replay

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module")
def greedy_log():
    """Greedy bots, 3 seats: the first complete game (from seed 4 on) in which the
    detectives learn a position while Mister X still moves hidden."""
    for seed in range(4, 40):
        log = play("mister-x", seed, ["greedy", "greedy", "greedy"])
        frames = build_frames(log, "det1")["frames"]
        if log["result"] and any(
            f["view"]["reveals"] and not f["view"]["open_play"] for f in frames
        ):
            return log
    raise AssertionError("no greedy Mister X game with a reveal in hidden play")


def drawn(page, selector: str, attribute: str) -> list[str]:
    return page.eval_on_selector_all(
        selector, f"els => els.map(e => e.getAttribute('{attribute}'))"
    )


def drawn_pawns(page) -> dict[str, int]:
    pawns = drawn(page, "g.mx-pawn", "data-pawn")
    cities = drawn(page, "g.mx-pawn", "data-city")
    return {p: int(c) for p, c in zip(pawns, cities, strict=True)}


def test_all_seeing_board_follows_the_frames(
    page, live_server, club, store_match, greedy_log, screenshot
):
    match = store_match(club, greedy_log)
    payload = build_frames(greedy_log, "all")
    frames = payload["frames"]
    open_replay(page, live_server, match)
    assert page.locator("g.mx-city").count() == 199
    ply = 0
    while ply < 40:
        view = frames[ply]["view"]
        assert drawn_pawns(page) == view["pawns"], f"ply {ply}"
        assert drawn(page, "g.mx-x", "data-city") == [str(view["mrx"]["position"])]
        assert len(drawn(page, "text.mx-slot", "data-slot")) == len(view["mrx"]["path"])
        page.keyboard.press("ArrowRight")
        ply += 1
        assert board_ply(page) == ply
    page.keyboard.press("End")  # a later page of views: drawn once it has come
    page.wait_for_selector(f'#replay-board[data-ply="{len(frames) - 1}"]')
    # The result as the engine says it (it came with that page of views), never a reason's
    # id ("Mister X won (destination)").
    assert frames[-1]["result_sentence"] in page.inner_text(".board-panels")
    screenshot(page, "misterx-all-last")


def test_detectives_see_only_revealed_positions_and_the_possible_cities(
    page, live_server, club, store_match, greedy_log, screenshot
):
    match = store_match(club, greedy_log)
    payload = build_frames(greedy_log, "det1")
    frames = payload["frames"]
    # A moment in hidden play after a reveal, so the overlay and a known position show.
    ply = next(f["ply"] for f in frames if f["view"]["reveals"] and not f["view"]["open_play"])
    open_replay(page, live_server, match, f"?ply={ply}&view=det1")
    view = frames[ply]["view"]
    assert (
        view["mrx"]["position"] is None or view["mrx"]["position"] in view["mrx"]["known"].values()
    )
    if view["mrx"]["position"] is None:
        assert drawn(page, "g.mx-x", "data-city") == []
    assert drawn(page, "polyline.mx-path", "points") == []  # no true path for a detective
    assert {int(c) for c in drawn(page, "g.mx-known", "data-city")} == set(
        view["mrx"]["known"].values()
    )
    assert (
        sorted(int(c) for c in drawn(page, "circle.mx-possible", "data-city"))
        == view["mrx"]["possible"]
    )
    assert page.get_attribute("svg.mx-board", "data-possible") == str(len(view["mrx"]["possible"]))
    # det1's own rack is shown, det2's only as a count.
    assert page.locator('[data-rack="det1"] .card-chip').count() == view["racks"]["det1"]["size"]
    # Tickets read as players call them (train (investigate)), their log ids on hover.
    chips = page.eval_on_selector_all(
        '[data-rack="det1"] .card-chip', "els => els.map(e => [e.textContent, e.title])"
    )
    assert chips == [[payload["card_words"][t], t] for t in view["racks"]["det1"]["tickets"]]
    assert all("/" not in text for text, _id in chips)
    # A reveal says when and how he was seen, in words: "move 3: Paris (round 4, position check)".
    reveals = page.inner_text('.board-panel:has(h3:text-is("Reveals"))')
    assert "slot" not in reveals and ("position check" in reveals or "investigation" in reveals)
    assert page.locator('[data-rack="det2"] .card-chip').count() == 0
    assert page.locator('[data-rack="mrx"] .card-chip').count() == 0
    screenshot(page, "misterx-det1-reveal")
    page.keyboard.press("ArrowDown")
    new_ply = board_ply(page)
    assert frames[new_ply]["round"] == view["round"] + 1 or new_ply == len(frames) - 1
    assert (
        sorted(int(c) for c in drawn(page, "circle.mx-possible", "data-city"))
        == frames[new_ply]["view"]["mrx"]["possible"]
    )
    # The team view shows every detective rack.
    page.select_option("#replay-view", "detectives")
    page.wait_for_function("document.querySelector('#replay-board').dataset.view === 'detectives'")
    assert (
        page.locator('[data-rack="det2"] .card-chip').count()
        == frames[new_ply]["view"]["racks"]["det2"]["size"]
    )
    screenshot(page, "misterx-detectives")
