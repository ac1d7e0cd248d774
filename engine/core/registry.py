"""Games by id.

The core holds the table and knows no game: each game package registers itself on
import, and the ``engine`` package imports the built-in ones (``engine.games``) when it
is first imported, so every look-up through ``engine`` (or any of its modules) finds
them. An import-linter contract keeps ``engine.core`` from importing ``engine.games``."""

from __future__ import annotations

from engine.core.game import Game

_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    if game.id in _GAMES:
        raise ValueError(f"game {game.id!r} registered twice")
    _GAMES[game.id] = game
    return game


def unregister(game_id: str) -> None:
    """Forget a game (tests that register a game of their own take it away again)."""
    _GAMES.pop(game_id, None)


def get_game(game_id: str) -> Game | None:
    return _GAMES.get(game_id)


def all_games() -> dict[str, Game]:
    return dict(_GAMES)
