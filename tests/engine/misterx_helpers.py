"""A small hand-made board and a table recorder for the Mister X rule tests.

The 5x5 grid board ``tiny`` (ids row by row)::

     1 - 2 - 3 - 4 - 5        car: every horizontal and vertical neighbour
     |   |   |   |   |        train: 1-13, 5-13, 13-21, 13-25, 7-9, 17-19
     6 - 7 - 8 - 9 -10        plane: 1-25, 5-21, 3-23
     |   |   |   |   |
    11 -12 -13 -14 -15        missions: green 1, 2 -> 25; yellow 5 -> 21;
     |   |   |   |   |                  orange 3 -> 23
    16 -17 -18 -19 -20        start cards: 4, 6..19
     |   |   |   |   |
    21 -22 -23 -24 -25

:class:`Table` records a game the way a club does at a table (no seed): every
action goes through the engine at once, and :meth:`Table.log` is the log so far,
which the tests replay as a whole too.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine import IllegalAction, get_game, replay
from engine.games.misterx.state import rack_list, rack_size

GAME = get_game("mister-x")

TICKETS = [
    {"transport": "car", "icon": "double", "count": 13},
    {"transport": "car", "icon": "secret", "count": 13},
    {"transport": "car", "icon": "investigate", "count": 14},
    {"transport": "car", "icon": "siren", "count": 14},
    {"transport": "train", "icon": "double", "count": 10},
    {"transport": "train", "icon": "secret", "count": 10},
    {"transport": "train", "icon": "investigate", "count": 11},
    {"transport": "train", "icon": "siren", "count": 11},
    {"transport": "plane", "icon": "double", "count": 6},
    {"transport": "plane", "icon": "secret", "count": 6},
    {"transport": "plane", "icon": "investigate", "count": 6},
    {"transport": "plane", "icon": "siren", "count": 6},
]


def tiny_board() -> dict[str, Any]:
    cities = [
        {
            "id": r * 5 + c + 1,
            "name": f"C{r * 5 + c + 1}",
            "country": "XX",
            "lat": 50.0 - r,
            "lon": 5.0 + c,
            "x": 100 * c,
            "y": 100 * r,
        }
        for r in range(5)
        for c in range(5)
    ]
    conns = []
    for r in range(5):
        for c in range(5):
            i = r * 5 + c + 1
            if c < 4:
                conns.append([i, i + 1, "car"])
            if r < 4:
                conns.append([i, i + 5, "car"])
    conns += [
        [1, 13, "train"],
        [5, 13, "train"],
        [13, 21, "train"],
        [13, 25, "train"],
        [7, 9, "train"],
        [17, 19, "train"],
        [1, 25, "plane"],
        [5, 21, "plane"],
        [3, 23, "plane"],
    ]
    return {
        "id": "tiny",
        "version": 1,
        "name": "Tiny test grid",
        "cities": cities,
        "connections": conns,
        "missions": {
            "green": {"starts": [1, 2], "destinations": [25]},
            "yellow": {"starts": [5], "destinations": [21]},
            "orange": {"starts": [3], "destinations": [23]},
        },
        "start_cards": [4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19],
        "tickets": copy.deepcopy(TICKETS),
        "pawns": ["red", "blue", "green", "yellow", "black"],
    }


PAWNS = {"det1": ["red", "blue", "green"], "det2": ["yellow", "black"]}


def racks(
    mrx: list[str] | None = None, det1: list[str] | None = None, det2: list[str] | None = None
) -> dict[str, list[str]]:
    """Racks of the right sizes (8, 7, 6), padded with plane/siren... fillers."""
    return {
        "mrx": mrx if mrx is not None else ["car/double"] * 8,
        "det1": det1 if det1 is not None else ["car/investigate"] * 7,
        "det2": det2 if det2 is not None else ["car/siren"] * 6,
    }


class Table:
    """A game of Mister X on the tiny board, recorded by hand (seed null)."""

    def __init__(
        self,
        *,
        mission: str = "green",
        start: int = 2,
        pawns: dict[str, int] | None = None,
        racks_: dict[str, list[str]] | None = None,
        seats: int = 2,
        options: dict[str, Any] | None = None,
    ):
        self.options = options or {"board": tiny_board(), "pawns": PAWNS if seats == 2 else None}
        if self.options.get("pawns") is None:
            self.options.pop("pawns", None)
        self.seat_ids = ["mrx", *[f"det{i}" for i in range(1, seats + 1)]]
        self.setup = {
            "mission": mission,
            "start": start,
            "pawns": pawns or {"red": 12, "blue": 14, "green": 18, "yellow": 8, "black": 19},
            "racks": racks_ or racks(),
        }
        self.actions: list[dict[str, Any]] = []
        opts = GAME.normalize_options(self.options)
        self.state = GAME.initial_state(opts, self.seat_ids, self.setup, None)

    # -- recording --------------------------------------------------------------------
    def log(self, extra: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        return {
            "format": "lantern-log/1",
            "game": "mister-x",
            "options": self.options,
            "seats": [{"seat": s, "player": f"p-{s}"} for s in self.seat_ids],
            "seed": None,
            "setup": self.setup,
            "actions": self.actions + (extra or []),
            "result": None,
        }

    def do(self, seat: str, type: str, **fields: Any) -> dict[str, Any]:
        action = {"seat": seat, "type": type, **fields}
        recorded = GAME.apply(self.state, action)
        self.actions.append(recorded)
        return recorded

    def illegal(self, rule: str, seat: str, type: str, **fields: Any) -> IllegalAction:
        """The action is rejected citing ``rule``, by apply and by a replay of the log."""
        action = {"seat": seat, "type": type, **fields}
        with pytest.raises(IllegalAction) as err:
            GAME.apply(GAME.clone(self.state), action)
        assert err.value.rule == rule, err.value.message
        with pytest.raises(IllegalAction) as err2:
            replay(self.log([action]))
        assert (err2.value.index, err2.value.rule) == (len(self.actions), rule)
        return err.value

    def refill(self, seat: str, tickets: list[str] | None = None) -> dict[str, Any]:
        """Refill ``seat`` with ``tickets``, or the first tickets of the sorted bag."""
        st = self.state
        if tickets is None:
            need = st.limit[seat] - rack_size(st.racks[seat])
            pool = rack_list(st.bag)
            if len(pool) < need:
                pool += rack_list(st.out)
            tickets = pool[:need]
        return self.do(seat, "refill", tickets=tickets)

    def pawns_move(self, moves: dict[str, tuple[str, int] | None]) -> None:
        """Each pawn: (ticket, city) or None to stay; seats looked up from the state."""
        for pawn, move in moves.items():
            seat = self.state.owner[pawn]
            if move is None:
                self.do(seat, "stay", pawn=pawn)
            else:
                self.do(seat, "move", pawn=pawn, ticket=move[0], to=move[1])

    def end_round(self) -> None:
        for seat in self.state.det_seats:
            self.refill(seat)

    def replayed(self) -> Any:
        return replay(self.log())
