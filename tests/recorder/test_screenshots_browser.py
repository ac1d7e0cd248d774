"""The recorder looked at, at 1400 px and 390 px: each game's set-up form, a game in
progress at the table, and a game against bots with Player 1's envelope opened. The move
list reads as the engine's sentences (the notation on hover and by the toggle), nothing
is wider than a phone, and no person is asked for JSON.

The screenshots go to ``artifacts/recorder/`` or ``$LANTERN_SCREENSHOTS``
(``LANTERN_SCREENSHOTS=docs/screenshots`` refreshes the committed ones)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from engine import play
from tests.recorder.recording import sign_in, wait_ready

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / os.environ.get("LANTERN_SCREENSHOTS", "artifacts/recorder")

#: game -> (players, seed, actions played before the screenshot)
GAMES = {
    "cryptid-urban-legends": (2, 3, 12),
    "mister-x": (3, 3, 40),
    "cloak-and-dagger": (3, 3, 14),
}


def api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def table_game(user: Any, game: str) -> dict[str, Any]:
    players, seed, plies = GAMES[game]
    log = play(game, seed, ["greedy"] * players)
    client = api(user)
    response = client.post(
        "/api/drafts/",
        {
            "club": "riverside",
            "game": game,
            "chance": "table",
            "setup": log["setup"],
            "seats": [
                {"seat": e["seat"], "player": h}
                for e, h in zip(log["seats"], ("alice", "bob", "carol"), strict=False)
            ],
        },
        format="json",
    )
    draft = response.json()
    for action in log["actions"][:plies]:
        response = client.post(
            f"/api/drafts/{draft['id']}/apply/",
            {"version": draft["version"], "action": action},
            format="json",
        )
        assert response.status_code == 200, response.json()
        draft = response.json()
    return draft


def cloak_bot_game_with_an_envelope_opened(user: Any) -> dict[str, Any]:
    client = api(user)
    draft = client.post(
        "/api/drafts/",
        {
            "club": "riverside",
            "game": "cloak-and-dagger",
            "seats": [
                {"seat": "p1", "player": "alice"},
                {"seat": "p2", "bot": "greedy"},
                {"seat": "p3", "bot": "random"},
            ],
        },
        format="json",
    ).json()

    def listed() -> list[dict[str, Any]]:
        """Player 1's choices, the first value of each field until they are listed (the
        pick of an envelope, when it has one, first)."""
        prefix: dict[str, Any] = {}
        while True:
            choice = client.get(
                f"/api/drafts/{draft['id']}/legal-actions/",
                {"prefix": json.dumps(prefix)} if prefix else {},
            ).json()
            if choice["field"] is None:
                return [entry["action"] for entry in choice["actions"]]
            values = [v["value"] for v in choice["values"]]
            pick = "open" if choice["field"] == "type" and "open" in values else values[0]
            prefix = {**choice["prefix"], choice["field"]: pick}

    for _ in range(12):
        actions = listed()
        opens = [a for a in actions if a["type"] == "open"]
        draft = client.post(
            f"/api/drafts/{draft['id']}/apply/",
            {"version": draft["version"], "action": (opens or actions)[-1]},
            format="json",
        ).json()
        if opens and draft["ply"] >= 3:
            break
    assert "opened" in json.dumps(draft["frame"]["view"]), "no envelope was opened"
    return draft


def look(page: Any, width: int, name: str) -> None:
    if width == 390:
        wide = page.evaluate(
            """w => [...document.querySelectorAll('body *')]
            .filter(e => e.getBoundingClientRect().right > w + 1
                && !e.closest('.replay-moves, .replay-board'))
            .map(e => `${e.tagName}.${e.getAttribute('class')}`)""",
            width,
        )
        assert page.evaluate("document.documentElement.scrollWidth") <= width, wide[:10]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"recorder-{name}-{width}.png"), full_page=True)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_recorder_screenshots_at_1400_and_390(chromium, live_server, club, people, game):
    from engine import get_game

    user = people["member"]
    draft = table_game(user, game)
    players = GAMES[game][0]
    for width, height in ((1400, 1000), (390, 844)):
        context = chromium.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
        page = context.new_page()
        sign_in(page, live_server, user)
        page.goto(
            f"{live_server.url}/clubs/riverside/record/?game={game}&players={players}&chance=table"
        )
        page.wait_for_selector("#rec-setup")
        assert "JSON" not in page.locator("#rec-setup").inner_text()
        look(page, width, f"{game}-setup")
        page.goto(f"{live_server.url}/clubs/riverside/record/{draft['id']}/")
        wait_ready(page)
        # The move list says what happened, as the engine says it; the notation only when
        # the reader turns it on (the sentence then on hover).
        moves = page.locator("#rec-moves .move")
        assert moves.count() == len(draft["moves"])
        assert moves.evaluate_all("els => els.map(e => e.textContent.replace(/bot$/, ''))") == [
            m["sentence"] for m in draft["moves"]
        ]
        assert moves.last.get_attribute("title") is None
        page.get_by_label("Notation").check()
        assert moves.last.text_content() == draft["moves"][-1]["notation"]
        assert moves.last.get_attribute("title") == draft["moves"][-1]["sentence"]
        page.get_by_label("Notation").uncheck()
        assert get_game(game).name in page.locator("h1").inner_text()
        look(page, width, f"{game}-game")
        context.close()


def test_recorder_screenshot_of_a_bot_game_with_an_envelope_opened(
    chromium, live_server, club, people
):
    user = people["member"]
    draft = cloak_bot_game_with_an_envelope_opened(user)
    for width, height in ((1400, 1000), (390, 844)):
        context = chromium.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
        page = context.new_page()
        sign_in(page, live_server, user)
        page.goto(f"{live_server.url}/clubs/riverside/record/{draft['id']}/")
        wait_ready(page)
        # Bots' moves are marked; what the person may act on is the opened envelope's.
        assert page.locator("#rec-moves .move-bot").count() >= 2
        assert page.locator("#rec-entry .rec-confirm, #rec-entry .rec-question").count()
        look(page, width, "cloak-and-dagger-bots")
        context.close()
