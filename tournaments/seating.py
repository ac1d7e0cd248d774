"""The seats of each game as an event pairs them (pure; from log-format.md).

Seat ids are part of the stable ``lantern-log/1`` format, so they are written
down here rather than asked of the engine, which need not have a game loaded
to pair an event of it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


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


def _same(seat: str) -> str:
    return seat


def _mrx_side(seat: str) -> str:
    return "mrx" if seat == "mrx" else "detectives"


LAYOUTS: dict[str, SeatLayout] = {
    "cryptid-urban-legends": SeatLayout(
        "cryptid-urban-legends", "Cryptid: Urban Legends", 2, 2,
        lambda n: ["cryptid", "scientist"], _same, _same),
    "mister-x": SeatLayout(
        "mister-x", "Mister X", 2, 6,
        lambda n: ["mrx"] + [f"det{i}" for i in range(1, n)], _mrx_side, _mrx_side),
    "cloak-and-dagger": SeatLayout(
        "cloak-and-dagger", "Cloak & Dagger", 2, 6,
        lambda n: [f"p{i}" for i in range(1, n + 1)], _same, _same),
}
