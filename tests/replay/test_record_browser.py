"""The replay as a game record, in a real browser, for every game: the header (game,
club, players by seat with links, date, the result as the engine says it, rating
changes), the scrub bar with its round markers, the copy-link button, the move list
beside the board on a wide screen and as a strip on a phone. Screenshots of each game
at 1400 and 390 px are written to artifacts/replay/, or to the folder named by
LANTERN_SCREENSHOTS (``LANTERN_SCREENSHOTS=docs/screenshots`` refreshes the committed ones)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine import get_game, play
from replay.frames import build_frames
from tests.replay.browsing import board_ply, open_replay

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / os.environ.get("LANTERN_SCREENSHOTS", "artifacts/replay")

GAMES = {
    "cryptid-urban-legends": (5, ["greedy", "greedy"], ["alice", "boris"]),
    "mister-x": (4, ["greedy", "random", "random"], ["xenia", "dmitri", "olga"]),
    "cloak-and-dagger": (7, ["greedy", "random", "greedy"], ["anna", "bob", "chen"]),
}


def _log(game: str) -> dict:
    seed, bots, players = GAMES[game]
    log = play(game, seed, bots, players=players, max_actions=400)
    log["meta"] = {"played_at": "2026-11-20T19:00:00Z"}
    return log


@pytest.fixture
def rated(club, store_match):
    """Store ``game``'s bot-played log in a club with a ladder for it, rated."""
    from ladder.models import Ladder

    def store(game: str):
        Ladder.objects.get_or_create(club=club, game=game)
        return store_match(club, _log(game))

    return store


@pytest.mark.parametrize("game", sorted(GAMES))
def test_header_and_scrub_bar(page, live_server, rated, game):
    from ladder.models import RatingChange

    match = rated(game)
    frames = build_frames(match.log.document, "all")["frames"]
    open_replay(page, live_server, match)
    head = page.locator(".replay-head")
    # Game, club and match, date.
    assert page.inner_text(".replay-title h1") == get_game(game).name
    assert page.get_attribute(".replay-crumbs a >> nth=0", "href") == f"/clubs/{match.club.slug}/"
    assert page.get_attribute(".replay-crumbs a >> nth=1", "href") == f"/matches/{match.pk}/"
    assert "20 November 2026" in head.inner_text()
    # Players by seat, each linking to their ladder page; the role comes from the engine.
    seats = page.eval_on_selector_all(".replay-players li", "els => els.map(e => e.dataset.seat)")
    assert seats == [entry["seat"] for entry in match.log.document["seats"]]
    links = page.eval_on_selector_all(".replay-players li a", "els => els.map(e => e.textContent)")
    assert links == [entry["player"] for entry in match.log.document["seats"]]
    # The result is a sentence, behind a spoiler, with the rating changes of this match.
    result = page.locator("#replay-result")
    assert not result.evaluate("e => e.open")
    result.locator("summary").click()
    assert " win" in result.inner_text()
    changes = {
        c.player.handle: c.after - c.before for c in RatingChange.objects.filter(match=match)
    }
    assert changes, "the match was rated"
    shown = page.eval_on_selector_all(
        ".replay-rating-changes li", "els => els.map(e => e.textContent)"
    )
    assert len(shown) == len(changes)
    for handle, delta in changes.items():
        assert any(handle in line and f"{abs(delta):.1f}" in line for line in shown), (
            handle,
            shown,
        )
    # The scrub bar spans every ply; a marker per round, each jumping to its round's first move.
    assert page.get_attribute("#replay-scrub", "max") == str(len(frames) - 1)
    rounds = sorted({f["round"] for f in frames[1:]})
    marks = page.locator(".round-mark")
    assert marks.count() == len(rounds)
    mark = marks.nth(len(rounds) // 2)
    ply = int(mark.get_attribute("data-ply"))
    assert frames[ply]["round"] == int(mark.get_attribute("data-round")) != frames[ply - 1]["round"]
    mark.click()
    assert board_ply(page) == ply
    assert page.input_value("#replay-scrub") == str(ply)
    # Dragging the bar moves the board.
    page.locator("#replay-scrub").fill(str(len(frames) // 3))
    assert board_ply(page) == len(frames) // 3
    assert f"ply={len(frames) // 3}" in page.url


@pytest.mark.parametrize("game", sorted(GAMES))
def test_screenshots_at_1400_and_390(chromium, live_server, rated, game):
    match = rated(game)
    frames = build_frames(match.log.document, "all")["frames"]
    middle = len(frames) // 2
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in ((1400, 1000), (390, 844)):
        context = chromium.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
        page = context.new_page()
        open_replay(page, live_server, match, f"?ply={middle}")
        if width == 390:
            # The move list is a short list above the board that scrolls down (never
            # sideways), scrolled to the current move.
            strip = page.locator("#replay-moves")
            assert strip.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
            assert strip.evaluate("e => e.scrollHeight > e.clientHeight")
            current = page.locator('#replay-moves [aria-current="step"]').bounding_box()
            box = strip.bounding_box()
            assert (
                box["y"] <= current["y"]
                and current["y"] + current["height"] <= box["y"] + box["height"] + 1
            )
            assert box["y"] < page.locator("#replay-board").bounding_box()["y"]
            # Nothing wider than the screen.
            wide = page.evaluate(
                """w => [...document.querySelectorAll('body *')]
                .filter(e => e.getBoundingClientRect().right > w + 1)
                .map(e => `${e.tagName}.${e.getAttribute('class')}`)""",
                width,
            )
            assert page.evaluate("document.documentElement.scrollWidth") <= width, wide[:10]
        else:
            # Beside the board.
            moves = page.locator("#replay-moves").bounding_box()
            board = page.locator("#replay-board").bounding_box()
            assert moves["x"] > board["x"] + board["width"] - 1
        # A full-page shot draws the sticky controls where the first screen ends, over
        # the board; in the page they ride along the bottom of the screen.
        page.add_style_tag(content=".replay-controls { position: static; }")
        page.screenshot(path=str(SCREENSHOTS / f"{game}-{width}.png"), full_page=True)
        context.close()


def test_copy_link_to_this_moment(chromium, live_server, rated):
    match = rated("mister-x")
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    open_replay(page, live_server, match, "?view=det1")
    page.click('[data-go="next"]')
    page.click('[data-go="next"]')
    page.click("#replay-copy")
    page.wait_for_function("document.querySelector('#replay-copied').textContent === 'Link copied'")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith(f"{live_server.url}/matches/{match.pk}/replay?")
    assert "ply=2" in copied and "view=det1" in copied
    # The link opens that moment, from that perspective.
    other = context.new_page()
    other.goto(copied)
    other.wait_for_selector('#replay[data-ready="true"]')
    assert board_ply(other) == 2 and other.input_value("#replay-view") == "det1"
    context.close()
