"""Games by id."""

from __future__ import annotations

from engine.core.game import Game

_GAMES: dict[str, Game] = {}
_loaded = False


def register(game: Game) -> Game:
    if game.id in _GAMES:
        raise ValueError(f"game {game.id!r} registered twice")
    _GAMES[game.id] = game
    return game


def unregister(game_id: str) -> None:
    """Forget a game (tests that register a game of their own take it away again)."""
    _GAMES.pop(game_id, None)


def _load_builtin() -> None:
    # Imported for their side effect: each game module registers itself. The flag spares
    # the import machinery on every look-up (a ladder recompute asks once per match).
    global _loaded
    if not _loaded:
        import engine.games  # noqa: F401

        _loaded = True


def get_game(game_id: str) -> Game | None:
    _load_builtin()
    return _GAMES.get(game_id)


def all_games() -> dict[str, Game]:
    _load_builtin()
    return dict(_GAMES)
