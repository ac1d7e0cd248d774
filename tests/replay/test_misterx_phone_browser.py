"""Mister X read on a phone and a desk, in Japanese and Russian (issue 35, items 6 and 7):
every city on the map and in the lists is named in the reader's script; no two city names
on the map overlap (kana are a whole em wide) nor run off its edge; the zoom buttons lie
outside the drawing, over no name (over it, they hid names at 390 px); at 390 px the map
follows the action (it frames the last move, until the reader moves the view) and the
move list scrolls down, never sideways. Screenshots:
artifacts/replay/phone-{ja,ru}-{1400,390}.png."""

from __future__ import annotations

import re

import pytest

from engine import play
from tests.replay.browsing import open_replay

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCRIPTS = {
    "ja": re.compile(r"^[\u3040-\u30ff\u4e00-\u9fff・ー＝]+$"),
    "ru": re.compile(r"^[А-Яа-яЁё][А-Яа-яЁё\- ]*$"),
}

LABEL_BOXES = """() => {
  const map = document.querySelector('.mx-board').getBoundingClientRect();
  return [...document.querySelectorAll('.mx-city-name:not(.mx-label-hidden)')].map((t) => {
    const r = t.getBoundingClientRect();
    return { name: t.textContent, left: r.left - map.left, top: r.top - map.top,
             right: r.right - map.left,
             bottom: r.bottom - map.top, width: map.width, height: map.height };
  });
}"""

#: How many lines an element's text takes (its text's height over its line height).
SETUP_LINES = """(e) => {
  const range = document.createRange();
  range.selectNodeContents(e);
  const line = parseFloat(getComputedStyle(e).lineHeight);
  return Math.round(range.getBoundingClientRect().height / line);
}"""


def _overlaps(boxes: list[dict]) -> list[tuple[str, str]]:
    found = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if (
                a["left"] < b["right"] - 1
                and b["left"] < a["right"] - 1
                and a["top"] < b["bottom"] - 1
                and b["top"] < a["bottom"] - 1
            ):
                found.append((a["name"], b["name"]))
    return found


#: The visible zoom buttons' boxes, in the drawing's coordinates as LABEL_BOXES.
BUTTON_BOXES = """() => {
  const map = document.querySelector('.mx-board').getBoundingClientRect();
  return [...document.querySelectorAll('.map-zoom button')].filter((b) => b.offsetWidth)
    .map((b) => {
      const r = b.getBoundingClientRect();
      return { name: b.className, left: r.left - map.left, top: r.top - map.top,
               right: r.right - map.left, bottom: r.bottom - map.top };
    });
}"""


def _buttons_over_the_map(page) -> list[tuple[str, str]]:
    """The zoom buttons lying over the drawing, or over a city's name (a name they hid)."""
    buttons = page.evaluate(BUTTON_BOXES)
    assert buttons
    drawing = {
        "name": "the map",
        "left": 0,
        "top": 0,
        **page.evaluate(
            "() => { const r = document.querySelector('.mx-board').getBoundingClientRect();"
            " return { right: r.width, bottom: r.height }; }"
        ),
    }
    found = _overlaps([*buttons, drawing])
    found += [
        (a, b)
        for a, b in _overlaps([*buttons, *page.evaluate(LABEL_BOXES)])
        if a.startswith("map-") or b.startswith("map-")
    ]
    return found


def _detective_move(log: dict) -> int:
    """The ply of a detective pawn's move some way into the game."""
    return next(
        i + 1
        for i, a in enumerate(log["actions"])
        if i > 20 and a["type"] == "move" and "pawn" in a
    )


@pytest.mark.parametrize(
    ("language", "width"), [("ja", 1400), ("ja", 390), ("ru", 1400), ("ru", 390)]
)
def test_the_map_names_every_city_readably_and_follows_the_action_on_a_phone(
    page, live_server, club, store_match, screenshot, language, width
):
    log = play("mister-x", 1, ["greedy"] * 3)
    ply = _detective_move(log)
    match = store_match(club, log)
    page.set_viewport_size({"width": width, "height": 900})
    open_replay(page, live_server, match, f"?lang={language}&ply={ply}")
    script = SCRIPTS[language]
    boxes = page.evaluate(LABEL_BOXES)
    assert len(boxes) >= 15
    assert [b["name"] for b in boxes if not script.match(b["name"])] == []
    assert _overlaps(boxes) == []
    assert _buttons_over_the_map(page) == []
    assert [b["name"] for b in boxes if b["left"] < -1 or b["right"] > b["width"] + 1] == []
    # The lists name the cities as the map does.
    possible = re.split(r"、|, | и ", page.inner_text(".mx-possible-list"))
    assert possible and all(script.match(name.strip()) for name in possible), possible
    moves = page.locator("#replay-moves")
    sideways = moves.evaluate("m => m.scrollWidth - m.clientWidth")
    assert sideways <= 1
    zoom = float(page.get_attribute(".mx-board", "data-zoom"))
    if width == 390:
        # The list scrolls within itself, a line per move; the setup entry is one line too
        # (its text: the button is a 44 px tap target either way).
        assert moves.evaluate("m => m.scrollHeight > m.clientHeight")
        assert page.locator("#replay-moves .move-setup").evaluate(SETUP_LINES) == 1
        # The map frames the last move: zoomed in, the moved pawn on screen.
        pawn = log["actions"][ply - 1]["pawn"]
        assert zoom >= 2, zoom
        board = page.locator(".mx-board").bounding_box()
        piece = page.locator(f'.mx-pawn[data-pawn="{pawn}"] circle').bounding_box()
        assert (
            board["x"] <= piece["x"] and piece["x"] + piece["width"] <= board["x"] + board["width"]
        )
        assert (
            board["y"] <= piece["y"]
            and piece["y"] + piece["height"] <= board["y"] + board["height"]
        )
        assert page.get_attribute(".map-follow", "aria-pressed") == "true"
        screenshot(page, f"phone-{language}-{width}")
        # The reader takes the view: the whole board, and it stays so on the next move.
        page.click(".map-zoom-home")
        page.click('[data-go="next"]')
        assert float(page.get_attribute(".mx-board", "data-zoom")) == 1.0
        assert page.get_attribute(".map-follow", "aria-pressed") == "false"
        assert _overlaps(page.evaluate(LABEL_BOXES)) == []
        assert _buttons_over_the_map(page) == []
        # Following again frames the action again.
        page.click(".map-follow")
        assert float(page.get_attribute(".mx-board", "data-zoom")) >= 2
    else:
        assert zoom == 1.0 and not page.is_visible(".map-follow")
        screenshot(page, f"phone-{language}-{width}")
