"""Endings off the board: a game that stops because a seat ran out of time (LIVE-1.1) or
left it and the others claimed it (LIVE-1.2), written in a log as its ``end``:
``{"reason": "time" | "claim", "seat": SEAT}``, the seat whose side loses.

The rules of the games never see it: the log's actions replay as they always do, and
the ending is read once they are over. Its result names the side that wins as a
board ending does (``{"winner": SIDE, "reason": "time", "seat": SEAT}``), so a ladder
rates it like any finished game. Only a game of two sides ends this way (LIVE-1.4): in
a free-for-all of three or more, one seat's loss makes no single winner.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from engine.core.errors import IllegalAction
from engine.core.game import Game, State
from engine.core.messages import msg

#: The reasons of an ending off the board, and the rule each is.
REASONS = {"time": "LIVE-1.1", "claim": "LIVE-1.2"}
#: A game over on the board has no ending off it.
ALREADY_OVER = "LIVE-1.3"
#: Only a game of two sides ends by time or claim.
TWO_SIDES = "LIVE-1.4"


def check_end(end: Any, seats: Collection[str]) -> None:
    """IllegalAction(LOG-END) unless ``end`` is null or ``{"reason", "seat"}`` with a
    reason of :data:`REASONS` and a seat of the log."""
    if end is None:
        return
    if (
        not isinstance(end, dict)
        or set(end) != {"reason", "seat"}
        or end.get("reason") not in REASONS
        or end.get("seat") not in seats
    ):
        raise IllegalAction(
            "LOG-END",
            msg("core.refuse.end_shape", reasons=", ".join(sorted(REASONS))),
            path="end",
        )


def winning_side(game: Game, seats: Collection[str], loser: str) -> str | None:
    """The one side opposing ``loser``'s, or None when the game has other than two sides
    (LIVE-1.4)."""
    sides = {game.side_of(seat) for seat in seats}
    others = sides - {game.side_of(loser)}
    return next(iter(others)) if len(sides) == 2 and len(others) == 1 else None


def end_result(
    game: Game, state: State, seats: Collection[str], end: dict[str, Any]
) -> dict[str, Any]:
    """The result of a game ended off the board by ``end`` (checked by :func:`check_end`)
    at ``state``; IllegalAction when it cannot end so: already over on the board
    (LIVE-1.3), or not a game of two sides (LIVE-1.4)."""
    if game.is_over(state):
        raise IllegalAction(ALREADY_OVER, msg("core.refuse.end_after_board_end"), path="end")
    winner = winning_side(game, seats, end["seat"])
    if winner is None:
        raise IllegalAction(
            TWO_SIDES, msg("core.refuse.end_needs_two_sides", name=game.title()), path="end"
        )
    return {"winner": winner, "reason": end["reason"], "seat": end["seat"]}


#: The JSON Schema of a result off the board (every game's ``result`` may be one).
RESULT_SCHEMA = {
    "type": "object",
    "required": ["winner", "reason", "seat"],
    "properties": {
        "winner": {"type": "string"},
        "reason": {"enum": sorted(REASONS)},
        "seat": {"type": "string"},
    },
    "additionalProperties": False,
}
#: The JSON Schema of a log's ``end``.
END_SCHEMA = {
    "oneOf": [
        {"type": "null"},
        {
            "type": "object",
            "required": ["reason", "seat"],
            "properties": {"reason": {"enum": sorted(REASONS)}, "seat": {"type": "string"}},
            "additionalProperties": False,
        },
    ]
}
