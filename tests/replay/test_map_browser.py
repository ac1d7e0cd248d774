"""The Mister X map in a real browser: zoom and pan by buttons, wheel and pinch, names
legible at every zoom (at 390 px, a city name is at least 11 screen pixels high), the
selected move's path drawn, and the board said to be Lantern's own."""

from __future__ import annotations

import pytest

from engine import play
from replay.frames import build_frames
from tests.replay.browsing import open_replay

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}

#: The screen size of every shown city name, in pixels: its font size in board units
#: times the board's screen scale.
LABEL_SIZES = """() => [...document.querySelectorAll('.mx-city-name:not(.mx-label-hidden)')]
    .map(t =>
    parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a)"""


@pytest.fixture
def misterx_match(club, store_match):
    log = play("mister-x", 4, ["greedy", "random", "random"], players=["xenia", "dmitri", "olga"])
    return store_match(club, log), log


def _zoom(page) -> float:
    return float(page.get_attribute("svg.mx-board", "data-zoom"))


def test_at_390_px_the_map_zooms_and_names_stay_readable(page, live_server, misterx_match):
    match, _log = misterx_match
    page.set_viewport_size(PHONE)
    open_replay(page, live_server, match, "?ply=10")
    # A phone's map frames the action (tests/replay/test_misterx_phone_browser.py); the
    # reader asks for the whole board.
    page.click(".map-zoom-home")
    assert _zoom(page) == 1
    whole = page.eval_on_selector("svg.mx-board", "e => e.dataset.labels")
    sizes = page.evaluate(LABEL_SIZES)
    assert sizes and min(sizes) >= 11, sizes[:5]
    page.click(".map-zoom-in")
    page.click(".map-zoom-in")
    assert _zoom(page) > 2
    sizes = page.evaluate(LABEL_SIZES)
    assert sizes and min(sizes) >= 11, sizes[:5]
    # Zoomed in, more names fit on the screen.
    assert int(page.eval_on_selector("svg.mx-board", "e => e.dataset.labels")) > int(whole) / 2
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # A drag pans the map.
    before = page.get_attribute("svg.mx-board", "viewBox")
    page.locator("svg.mx-board").scroll_into_view_if_needed()
    box = page.locator("svg.mx-board").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 - 80, box["y"] + box["height"] / 2 - 40, steps=4)
    page.mouse.up()
    assert page.get_attribute("svg.mx-board", "viewBox") != before
    page.click(".map-zoom-home")
    assert _zoom(page) == 1


def test_wheel_and_pinch_zoom(page, live_server, misterx_match):
    match, _log = misterx_match
    open_replay(page, live_server, match, "?ply=10")
    page.locator("svg.mx-board").scroll_into_view_if_needed()
    box = page.locator("svg.mx-board").bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.6)
    page.mouse.wheel(0, -400)
    page.wait_for_function("parseFloat(document.querySelector('svg.mx-board').dataset.zoom) > 1.5")
    assert min(page.evaluate(LABEL_SIZES)) >= 11
    page.click(".map-zoom-home")
    # Two fingers moving apart zoom in around their middle.
    page.evaluate("""() => {
      const svg = document.querySelector('svg.mx-board');
      const r = svg.getBoundingClientRect();
      const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
      const fire = (type, id, x) => svg.dispatchEvent(new PointerEvent(type, {
        pointerId: id, pointerType: 'touch', clientX: x, clientY: cy, bubbles: true}));
      fire('pointerdown', 1, cx - 20); fire('pointerdown', 2, cx + 20);
      for (let d = 20; d <= 80; d += 10) {
        fire('pointermove', 1, cx - d); fire('pointermove', 2, cx + d);
      }
      fire('pointerup', 1, cx - 80); fire('pointerup', 2, cx + 80);
    }""")
    assert 3.5 < _zoom(page) < 4.5


def test_the_selected_moves_path_legend_and_board_note(page, live_server, misterx_match):
    match, log = misterx_match
    frames = build_frames(log, "all")["frames"]
    double = next(
        (f["ply"] for f in frames if f["action"] and f["action"]["type"] == "double"), None
    )
    move = next(
        f["ply"]
        for f in frames
        if f["action"] and f["seat"] == "mrx" and f["action"]["type"] == "move"
    )
    open_replay(page, live_server, match, f"?ply={move}")
    assert page.locator("line.mx-move-x").count() == 1
    if double is not None:
        page.click(f'#replay-moves button[data-ply="{double}"]')
        assert page.locator("line.mx-move-x").count() == len(frames[double]["action"]["moves"])
    # A detective sees no path for a hidden move.
    open_replay(page, live_server, match, f"?ply={move}&view=det1")
    assert page.locator("line.mx-move-x").count() == 0
    # The legend explains the lines, the dashes and the halos; the board is Lantern's own.
    page.click("#replay-legend summary")
    legend = page.inner_text("#replay-legend")
    for words in ("car line", "train or ferry line", "dashed", "orange halo"):
        assert words in legend
    assert page.locator('#replay-legend li[data-mark="line.plane"] svg').count() == 1
    assert "Lantern's own" in page.inner_text(".board-caption")  # the board's own name says it
    assert "not the board printed with the published game" in legend
