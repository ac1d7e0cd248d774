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
    """Store a log as a match of ``club`` through the upload service, as the site does."""
    from games.services import ingest_log

    def store(club: Any, log: dict[str, Any]) -> Any:
        return ingest_log(club, log, None)

    return store
