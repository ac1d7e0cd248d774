"""Games by id."""

from __future__ import annotations

from engine.core.game import Game

_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    if game.id in _GAMES:
        raise ValueError(f"game {game.id!r} registered twice")
    _GAMES[game.id] = game
    return game


def _load_builtin() -> None:
    # Imported for their side effect: each game module registers itself.
    import engine.games  # noqa: F401


def get_game(game_id: str) -> Game | None:
    _load_builtin()
    return _GAMES.get(game_id)


def all_games() -> dict[str, Game]:
    _load_builtin()
    return dict(_GAMES)
