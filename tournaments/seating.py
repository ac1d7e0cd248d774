"""The seats of a game as an event pairs them, asked of the engine (pure).

The engine owns every fact about a game: how many play, its seat ids per player
count (``Game.seat_ids``, stable ``lantern-log/1`` ids) and the side each seat plays
on (``Game.side_of``). A :class:`SeatLayout` is those facts in the shape the pairing
and standings code takes them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from config.sentences import say
from engine import all_games, get_game


@dataclass(frozen=True)
class SeatLayout:
    game: str
    name: str
    min_players: int
    max_players: int
    seats: Callable[[int], list[str]]
    #: the role a seat counts as when rotating seats and balancing roles
    role_class: Callable[[str], str]
    #: the side a seat plays on: opponents are players on other sides
    side_of: Callable[[str], str]

    @property
    def two_seat(self) -> bool:
        return self.max_players == 2


def layout_of(game_id: str) -> SeatLayout | None:
    """The seating of ``game_id``, None for a game the engine does not have. A seat's
    role when balancing roles is its side (Mister X: any detective seat is a detective)."""
    game = get_game(game_id)
    if game is None:
        return None
    options = game.normalize_options({})
    return SeatLayout(
        game.id,
        say(game.title()),
        game.min_players,
        game.max_players,
        lambda n: game.seat_ids(options, n),
        game.side_of,
        game.side_of,
    )


def game_ids() -> list[str]:
    """Every game an event may be played in."""
    return sorted(all_games())
