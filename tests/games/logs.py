"""Bot-played logs for tests: real games played by the engine's own bots."""

from __future__ import annotations

import copy
import json
from typing import Any

import engine


def bot_log(
    game_id: str, seed: int, players: list[str], bot: str = "random", **meta: Any
) -> dict[str, Any]:
    """One game of ``game_id`` played by its ``bot`` in every seat, seat i held by
    ``players[i]``."""
    game = engine.get_game(game_id)
    assert game is not None, f"{game_id} is not in the engine yet"
    log = engine.play(game_id, seed, [bot] * len(players), players=players)
    log["meta"].update(meta)
    return log


def corrupt(log: dict[str, Any]) -> dict[str, Any]:
    """The log with its first action's seat replaced by one that does not exist: illegal
    at index 0 in every game (a seat must be one of the game's)."""
    broken = copy.deepcopy(log)
    broken["actions"][0]["seat"] = "nobody"
    return broken


def compact(log: dict[str, Any]) -> str:
    return json.dumps(log, separators=(",", ":"))
