"""Mister X: the state of one game, its constants, and ticket multisets.

Tickets are strings ``transport/icon`` (``"car/double"``); racks, the bag and the
tickets out of the game are multisets kept as ``{ticket: count}`` dicts (a ticket
with no copy left is not a key). Seeded draws are exactly
``rng.draw(rack_list(pile), n)`` (see :func:`draw_from`), so another implementation
can reproduce them.
"""

from __future__ import annotations

from typing import Any

from engine.core.rng import Rng
from engine.games.misterx.board import ICONS, TRANSPORTS, Board

DEFAULT_BOARD = "europe/1"
MRX = "mrx"
TEAM = "detectives"
MRX_RACK = 8  # MX-2.1
HIDDEN_SLOTS = 24  # MX-3.11
CHECK_WINDOW = 5  # MX-3.10
SPECIAL_FROM_ROUND = 5  # MX-3.7
#: investigate: tickets paid -> how many moves back (MX-3.8)
INVESTIGATE_BACK = {3: 4, 4: 3, 5: 2}
#: siren: tickets paid -> transport of the extra step (MX-3.9)
SIREN_TRANSPORT = {3: "car", 4: "train", 5: "plane"}

# phases of a round
PH_MRX = "mrx-move"  # MX-3.1 step 1
PH_MRX_REFILL = "mrx-refill"  # MX-3.1 steps 3-4
PH_PAWNS = "pawns"  # MX-3.7 step 1
PH_DET_END = "detectives-end"  # MX-3.7 steps 2-3
PH_OVER = "over"

Rack = dict[str, int]

#: every ticket name a board can have -> its transport / its icon (read per action:
#: a table look-up instead of splitting the string)
TRANSPORT_OF = {f"{t}/{i}": t for t in TRANSPORTS for i in ICONS}
ICON_OF = {f"{t}/{i}": i for t in TRANSPORTS for i in ICONS}
SORTED_TICKETS = tuple(sorted(TRANSPORT_OF))


def icon_of(ticket: str) -> str:
    return ticket.partition("/")[2]


def det_seat_ids(count: int) -> list[str]:
    return [f"det{i}" for i in range(1, count + 1)]


def default_shares(pawns: tuple[str, ...], det_seats: list[str]) -> dict[str, list[str]]:
    """The documented default of ``options.pawns``: the board's pawns in order, dealt in
    consecutive runs, the first seats taking one more when they do not divide evenly."""
    k = len(det_seats)
    base, extra = divmod(len(pawns), k)
    shares, i = {}, 0
    for n, seat in enumerate(det_seats):
        size = base + (1 if n < extra else 0)
        shares[seat] = list(pawns[i : i + size])
        i += size
    return shares


# --- multisets -----------------------------------------------------------------------
def rack_of(tickets: list[str]) -> Rack:
    rack: Rack = {}
    for t in tickets:
        rack[t] = rack.get(t, 0) + 1
    return rack


def rack_size(rack: Rack) -> int:
    return sum(rack.values())


def rack_list(rack: Rack) -> list[str]:
    """The sorted list of a multiset."""
    return [t for t in sorted(rack) for _ in range(rack[t])]


def contains(rack: Rack, want: Rack) -> bool:
    get = rack.get
    for t, n in want.items():  # noqa: SIM110 - a loop, not all() over a generator: every refill asks
        if get(t, 0) < n:
            return False
    return True


def add_all(rack: Rack, tickets: Rack) -> None:
    for t, n in tickets.items():
        rack[t] = rack.get(t, 0) + n


def remove_all(rack: Rack, tickets: Rack) -> None:
    for t, n in tickets.items():
        left = rack[t] - n
        if left:
            rack[t] = left
        else:
            del rack[t]


def remove_one(rack: Rack, ticket: str) -> None:
    left = rack[ticket] - 1
    if left:
        rack[ticket] = left
    else:
        del rack[ticket]


def draw_from(pile: Rack, count: int, rng: Rng) -> list[str]:
    """Remove ``count`` tickets from ``pile`` at random: the same draws as
    ``rng.draw(rack_list(pile), count)``, without expanding the pile."""
    # every ticket name in sorted order (names not in the pile count 0: the same walk as
    # over sorted(pile), without sorting it)
    return rng.draw_counted(pile, count, SORTED_TICKETS if len(pile) > 4 else sorted(pile))


def sub_multisets(rack: Rack, size: int | None = None, max_size: int | None = None) -> list[Rack]:
    """Every sub-multiset of ``rack`` (of exactly ``size`` tickets, or at most
    ``max_size``), in the order of the sorted tickets."""
    cap = size if size is not None else max_size
    found: list[tuple[Rack, int]] = [({}, 0)]
    for ticket in sorted(rack):
        count = rack[ticket]
        grown = []
        for base, n_base in found:
            grown.append((base, n_base))
            for n in range(1, count + 1):
                if cap is not None and n_base + n > cap:
                    break
                grown.append(({**base, ticket: n}, n_base + n))
        found = grown
    return [r for r, n in found if size is None or n == size]


# --- state ---------------------------------------------------------------------------
class MisterXState:
    """Everything about one game of Mister X, hidden parts included.

    The first group of fields is fixed for the game (shared by clones); ``moved``,
    ``discarded``, ``revealed`` and ``reveals`` are replaced, never changed in
    place, so clones share them too; ``events`` is shared until either adds to it.
    """

    __slots__ = (
        "board",
        "det_seats",
        "pawns_of",
        "owner",
        "limit",
        "mission",
        "destinations",
        "path",
        "slots",
        "pawn_pos",
        "occupied",
        "racks",
        "bag",
        "out",
        "round",
        "phase",
        "moved",
        "discarded",
        "refill_next",
        "special_done",
        "revealed",
        "reveals",
        "winner",
        "reason",
        "rng",
        "events",
        "events_own",
        "possible_cache",
    )

    board: Board
    det_seats: list[str]
    pawns_of: dict[str, list[str]]
    owner: dict[str, str]
    limit: dict[str, int]
    mission: str
    destinations: frozenset[int]
    #: Mister X's checklist: ``path[slot]`` is his city after that move; ``path[0]`` the start
    path: list[int]
    #: ``slots[slot]`` = (ticket, face_up) for slots 1.., ``slots[0]`` is None (MX-3.1)
    slots: list[tuple[str, bool] | None]
    pawn_pos: dict[str, int]
    #: city -> pawn standing there
    occupied: dict[int, str]
    racks: dict[str, Rack]
    bag: Rack
    #: tickets out of the game (special actions), back into the bag when it runs dry
    out: Rack
    round: int
    phase: str
    #: pawns moved this round
    moved: tuple[str, ...]
    #: seats that discarded this round
    discarded: tuple[str, ...]
    refill_next: int
    special_done: bool
    revealed: dict[int, int]
    reveals: list[dict[str, Any]]
    winner: str | None
    reason: str | None
    rng: Rng | None
    #: the public record the detectives' deduction reads (see possible.py):
    #: ("mx", slot, transport|None, blocked cities, public city|None),
    #: ("not", slot, cities), ("reveal", slot, city); cities are a frozenset or a tuple
    events: list[tuple[Any, ...]]
    #: False while ``events`` is shared with a clone (or the state cloned): the rules copy
    #: it before they add to it (:meth:`own_events`), so a clone copies no history
    events_own: bool
    possible_cache: Any

    def clone(self) -> MisterXState:
        new = _new_state(MisterXState)
        new.board = self.board
        new.det_seats = self.det_seats
        new.pawns_of = self.pawns_of
        new.owner = self.owner
        new.limit = self.limit
        new.mission = self.mission
        new.destinations = self.destinations
        new.path = self.path.copy()
        new.slots = self.slots.copy()
        new.pawn_pos = self.pawn_pos.copy()
        new.occupied = self.occupied.copy()
        racks = new.racks = self.racks.copy()
        for seat, rack in racks.items():  # (a loop: cheaper than a comprehension's frame)
            racks[seat] = rack.copy()
        new.bag = self.bag.copy()
        new.out = self.out.copy()
        new.round = self.round
        new.phase = self.phase
        new.moved = self.moved
        new.discarded = self.discarded
        new.refill_next = self.refill_next
        new.special_done = self.special_done
        new.revealed = self.revealed
        new.reveals = self.reveals
        new.winner = self.winner
        new.reason = self.reason
        rng = None
        if self.rng is not None:
            rng = _new_rng(Rng)
            rng._state = self.rng._state
        new.rng = rng
        new.events = self.events
        new.events_own = self.events_own = False
        new.possible_cache = None
        return new

    def own_events(self) -> list[tuple[Any, ...]]:
        """``events``, to add to: first copied if a clone shares it."""
        if not self.events_own:
            self.events = self.events.copy()
            self.events_own = True
        return self.events

    # -- derived --------------------------------------------------------------------
    @property
    def position(self) -> int:
        return self.path[-1]

    @property
    def last_slot(self) -> int:
        return len(self.path) - 1

    @property
    def over(self) -> bool:
        return self.winner is not None

    def seats(self) -> list[str]:
        return [MRX, *self.det_seats]

    def special_open(self) -> bool:
        """May the detectives still take their special action this round (MX-3.7, MX-6.7)?"""
        return (
            self.phase == PH_DET_END
            and self.round >= SPECIAL_FROM_ROUND
            and not self.special_done
            and self.refill_next == 0
            and self.det_seats[0] not in self.discarded
        )

    def slot(self, slot: int) -> tuple[str, bool]:
        """(ticket, face_up) of a filled slot of the checklist (1..``last_slot``)."""
        entry = self.slots[slot]
        assert entry is not None, f"slot {slot} is not filled yet"
        return entry

    def is_public_slot(self, slot: int) -> bool:
        """Is Mister X's city at ``slot`` known to everyone (MX-3.11, MX-3.10, MX-3.8)?"""
        return slot > HIDDEN_SLOTS or slot in self.revealed


_new_state = object.__new__
_new_rng = object.__new__
