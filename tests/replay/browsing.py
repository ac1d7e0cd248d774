"""Steps shared by the replay browser tests."""

from __future__ import annotations

from typing import Any


def open_replay(page: Any, live_server: Any, match: Any, query: str = "") -> None:
    """Open the replay page of ``match`` and wait until its first frame is drawn."""
    page.goto(f"{live_server.url}/matches/{match.pk}/replay{query}")
    page.wait_for_selector('#replay[data-ready="true"]')


def board_ply(page: Any) -> int:
    """The ply the board shows now."""
    return int(page.get_attribute("#replay-board", "data-ply"))
