"""Building Cloak & Dagger logs for the tests, in the game's short notation."""

from __future__ import annotations

from typing import Any

import pytest

from engine import IllegalAction, replay
from engine.games.cloak.notation import parse

HAZARD_LETTERS = "KLMNPQRSTUVW"


def cloak_log(
    actions: list[str | dict[str, Any]],
    *,
    players: int = 2,
    pile: str | None = "XYZ",
    options: dict[str, Any] | None = None,
    seed: int | None = None,
    result: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A log of ``players`` seats; ``actions`` in notation (``"p1 take 3 d+X"``) or as dicts."""
    return {
        "format": "lantern-log/1",
        "game": "cloak-and-dagger",
        "options": options or {},
        "seats": [{"seat": f"p{i + 1}", "player": f"player-{i + 1}"} for i in range(players)],
        "seed": seed,
        "setup": {} if pile is None else {"pile": list(pile)},
        "actions": [parse(a) if isinstance(a, str) else a for a in actions],
        "result": result,
    }


def rejected(log: dict[str, Any]) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        replay(log)
    return info.value


def assert_rejected(log: dict[str, Any], rule: str, index: int | None) -> IllegalAction:
    error = rejected(log)
    assert (error.rule, error.index) == (rule, index), str(error)
    return error


def contents(state: Any, envelope: int) -> str:
    """An envelope's true contents as a sorted string (ASCII: capitals first)."""
    return "".join(sorted(state.envelopes[envelope]))


# Turns used by several tests (two players, pile X Y Z): envelope 5 ends with
# d X Y Z and p2's spy e after turn 15, e leaves it at turn 16, p1 examines it and
# wins at turn 17 (CD-4.1, CD-7.2).
WIN_ON_EXAMINE = [
    "p1 drop 1",
    "p2 drop 2",
    "p1 place 3 X",
    "p2 place 4 Y",
    "p1 take 1 d",
    "p2 place 5 Z",
    "p1 drop 3",
    "p2 take 2 e",
    "p1 take 3 d+X",
    "p2 drop 4",
    "p1 drop 4",
    "p2 take 4 e+Y",
    "p1 take 4 d+X",
    "p2 drop 5",
    "p1 drop 5",
    "p2 take 5 e",
    "p1 examine 5",
]
