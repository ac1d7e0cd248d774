"""Fixtures for the replay viewer: stored bot-played matches and a headless Chromium."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "replay"


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """One headless Chromium for the session (Debian's /usr/bin/chromium via Playwright)."""
    if not CHROMIUM.exists():
        pytest.skip("/usr/bin/chromium is missing (apt-get install -y chromium chromium-driver)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    # Playwright's sync API runs an event loop in this thread; Django's ORM then refuses
    # to run here unless told that the loop is not ours to share.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(chromium: Any) -> Iterator[Any]:
    """A fresh page; JavaScript errors fail the test."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    yield page
    context.close()
    assert not errors, f"the page reported errors: {errors}"


@pytest.fixture
def screenshot():
    """Save a screenshot of ``page`` as artifacts/replay/NAME.png (CI keeps them)."""

    def save(page: Any, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return save


@pytest.fixture
def toy_game() -> Iterator[Any]:
    """The toy game of tests/replay/toy_game.py, registered for one test only."""
    from engine.core import registry
    from tests.replay.toy_game import ToyGame

    game = registry.register(ToyGame())
    yield game
    registry._GAMES.pop(game.id)


@pytest.fixture
def store_match(db):
    """Store a log as a match of ``club`` the way an upload does; returns the Match."""
    import engine
    from games.models import Match, MatchLog, MatchSeat, Player, log_content_hash

    # TODO(replay): switch to games.services.ingest_log once the upload service lands.
    def store(club: Any, log: dict[str, Any]) -> Any:
        rep = engine.replay(log)
        match = Match.objects.create(
            club=club,
            game=log["game"],
            status="valid" if rep.status == "finished" else "unfinished",
            result=rep.result,
            winner=(rep.result or {}).get("winner", ""),
            content_hash=log_content_hash(log),
            rules_version=rep.game.rules_version,
            action_count=len(rep.actions),
        )
        MatchLog.objects.create(match=match, document=log)
        for entry in log["seats"]:
            player, _ = Player.objects.get_or_create(club=club, handle=entry["player"])
            MatchSeat.objects.create(match=match, seat=entry["seat"], player=player)
        return match

    return store
