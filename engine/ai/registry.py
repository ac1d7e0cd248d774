"""Each game's AI by the game's id.

The rules know nothing of the AI: a game's AI package (``engine/ai/<game>/``) registers
its :class:`~engine.ai.contract.GameAI` here on import, and ``engine.ai`` imports the
built-in ones when it is first imported. A game with no AI registered has no bots and
cannot be analysed.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.ai.contract import Bot, GameAI
from engine.core.game import Game

_AIS: dict[str, GameAI] = {}


def register_ai(ai: GameAI) -> GameAI:
    if ai.game.id in _AIS:
        raise ValueError(f"the AI of game {ai.game.id!r} registered twice")
    _AIS[ai.game.id] = ai
    return ai


def unregister_ai(game_id: str) -> None:
    """Forget a game's AI (tests that register a game of their own take it away again)."""
    _AIS.pop(game_id, None)


def ai_of(game: Game | str) -> GameAI | None:
    """The AI of ``game`` (a game or its id), None when it has none."""
    return _AIS.get(game if isinstance(game, str) else game.id)


def require_ai(game: Game) -> GameAI:
    """The AI of ``game``; ValueError when it has none."""
    ai = _AIS.get(game.id)
    if ai is None:
        raise ValueError(f"{game.name or game.id} has no AI: no bots, no beliefs")
    return ai


def bots_of(game: Game | str) -> Mapping[str, Bot]:
    """The bots of ``game`` by name (none when it has no AI)."""
    ai = ai_of(game)
    return {} if ai is None else ai.bots
