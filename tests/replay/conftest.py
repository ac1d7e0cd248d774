"""Fixtures for the replay viewer: a toy game and stored bot-played matches.

The headless Chromium fixtures (chromium, page, screenshot) live in tests/conftest.py."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture
def toy_game() -> Iterator[Any]:
    """The toy game of tests/replay/toy_game.py, registered for one test only."""
    from engine.core import registry
    from tests.replay.toy_game import ToyGame

    game = registry.register(ToyGame())
    yield game
    registry.unregister(game.id)


@pytest.fixture
def store_match(db):
    """Store a log as a match of ``club`` through the upload service, as the site does."""
    from games.services import ingest_log

    def store(club: Any, log: dict[str, Any]) -> Any:
        return ingest_log(club, log, None)

    return store
