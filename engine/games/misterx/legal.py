"""Mister X: who may act now and what (``to_act``, ``legal_actions``; ``MX-*`` in
``docs/rules/mister-x.md``), the chance a refill leaves open, and the tables the
actions are built from. Checking and applying an action: :mod:`.rules`.

A search lists the legal actions at every node, and building a dictionary per action
was most of the cost. So the actions a board allows a bounded number of (a pawn's or
Mister X's move from a city by a ticket, a stay, a refill, a pass) are built once, when
first listed, as read-only FrozenActions (engine.core.frozen: a dict that refuses every
change), and handed out again on every later call; a call only picks, in the order the
rules list them, those the state allows (the tickets held, the free cities). The tables
live on the board (:class:`Listing`), shared by every game on it. The actions there are
too many kinds of to keep (a discard per part of a rack, a double move per pay and two
steps, a siren per pay and pawn) are built for the call; the parts they
share (a pay, a step of a double move) are read only too.
"""

from __future__ import annotations

from typing import Any

from engine.core.frozen import FrozenAction, FrozenList
from engine.games.misterx.board import Board
from engine.games.misterx.state import (
    ICON_OF,
    INVESTIGATE_BACK,
    MRX,
    PH_DET_END,
    PH_MRX,
    PH_MRX_REFILL,
    PH_PAWNS,
    SIREN_TRANSPORT,
    SORTED_TICKETS,
    TEAM,
    TRANSPORT_OF,
    MisterXState,
    Rack,
    add_all,
    rack_list,
    rack_size,
    remove_one,
    sub_multisets,
)


def to_act(state: MisterXState) -> list[str]:
    phase = state.phase
    if phase == PH_PAWNS:
        moved = state.moved
        return [s for s, pawns in state.pawns_of.items() if any(p not in moved for p in pawns)]
    if phase in (PH_MRX, PH_MRX_REFILL):
        return [MRX]
    if phase == PH_DET_END:
        refiller = [state.det_seats[state.refill_next]]
        return [TEAM, *refiller] if special_possible(state) else refiller
    return []


def special_possible(state: MisterXState) -> bool:
    """Can the detectives take some special action now (MX-3.7 .. MX-3.9, MX-6.7)?"""
    if not state.special_open():
        return False
    for icon in ("investigate", "siren"):
        usable = sum(
            min(
                len(state.pawns_of[seat]),
                sum(n for t, n in state.racks[seat].items() if ICON_OF[t] == icon),
            )
            for seat in state.det_seats
        )
        for paid in range(3, min(usable, 5) + 1):
            if icon == "investigate":
                if state.last_slot - INVESTIGATE_BACK[paid] >= 0:
                    return True
            elif any(
                c not in state.occupied
                for city in state.pawn_pos.values()
                for c in state.board.by_transport[city].get(SIREN_TRANSPORT[paid], ())
            ):
                return True
    return False


#: one city's moves by one ticket: the (destination, action) pairs, and the actions alone
Moves = tuple[tuple[tuple[int, FrozenAction], ...], tuple[FrozenAction, ...]]
#: the cities some move from a city reaches (to test the occupied cities once), and the
#: moves per ticket name
MovesFrom = tuple[frozenset[int], dict[str, Moves]]

#: the pawns' table past this many entries (seats x pawns x cities; a guard: a board of
#: 200 cities played with the default shares fills about a thousand) starts again
_TABLE_LIMIT = 8192
#: a seat's discards (or the racks whose lists are kept) past this many start again (every
#: multiset of up to 9 of 12 ticket names would be 293,930)
_DISCARDS_LIMIT = 32768


def _moves_from(per: dict[str, tuple[int, ...]], make: Any) -> MovesFrom:
    """Every ticket's moves along ``per`` (transport -> cities), each action ``make(ticket,
    to)``."""
    by_ticket: dict[str, Moves] = {}
    reached: set[int] = set()
    for ticket in SORTED_TICKETS:
        cities = per.get(TRANSPORT_OF[ticket], ())
        if cities:
            pairs = tuple((to, make(ticket, to)) for to in cities)
            by_ticket[ticket] = (pairs, tuple(a for _to, a in pairs))
            reached.update(cities)
    return frozenset(reached), by_ticket


class Listing:
    """The actions of one board that are built once, when first listed (see above)."""

    __slots__ = (
        "board",
        "pawn",
        "stay",
        "mrx",
        "steps",
        "pays",
        "refill",
        "pass_",
        "discards",
        "racks",
        "special",
        "doubles",
    )

    def __init__(self, board: Board):
        self.board = board
        #: (seat, pawn, city) -> that pawn's moves from the city
        self.pawn: dict[tuple[str, str, int], MovesFrom] = {}
        self.stay: dict[tuple[str, str], FrozenAction] = {}
        #: city -> Mister X's moves from it
        self.mrx: dict[int, MovesFrom] = {}
        #: (ticket, city) -> one step of a double move
        self.steps: dict[tuple[str, int], FrozenAction] = {}
        #: (first ticket, first city) -> the moves list of a double move that ends there,
        #: and per second ticket the (second city, moves list of both steps) pairs
        self.doubles: dict[
            tuple[str, int], tuple[FrozenList, dict[str, tuple[tuple[int, FrozenList], ...]]]
        ] = {}
        #: the tickets a double or secret move pays, as a read-only list
        self.pays: dict[tuple[str, ...], FrozenList] = {}
        self.refill: dict[str, FrozenAction] = {}
        self.pass_ = FrozenAction({"seat": MRX, "type": "pass"})
        #: seat -> the code of a multiset of tickets (:data:`_DISCARD_CHUNKS`) -> its discard
        self.discards: dict[str, dict[int, FrozenAction]] = {}
        #: (icon, each seat's tickets of that icon) -> every pay of a special action
        self.special: dict[Any, list[tuple[FrozenAction, int]]] = {}
        #: (seat, a rack's number) -> its discards, in order
        self.racks: dict[tuple[str, int], tuple[FrozenAction, ...]] = {}

    def pawn_moves(self, seat: str, pawn: str, city: int) -> MovesFrom:
        moves = _moves_from(
            self.board.by_transport[city],
            lambda ticket, to: FrozenAction(
                {"seat": seat, "type": "move", "pawn": pawn, "ticket": ticket, "to": to}
            ),
        )
        if len(self.pawn) >= _TABLE_LIMIT:
            self.pawn.clear()
        self.pawn[seat, pawn, city] = moves
        return moves

    def stay_of(self, seat: str, pawn: str) -> FrozenAction:
        action = self.stay.get((seat, pawn))
        if action is None:
            action = self.stay[seat, pawn] = FrozenAction(
                {"seat": seat, "type": "stay", "pawn": pawn}
            )
        return action

    def mrx_moves(self, city: int) -> MovesFrom:
        moves = self.mrx[city] = _moves_from(
            self.board.by_transport[city],
            lambda ticket, to: FrozenAction(
                {"seat": MRX, "type": "move", "ticket": ticket, "to": to}
            ),
        )
        return moves

    def step(self, ticket: str, to: int) -> FrozenAction:
        step = self.steps.get((ticket, to))
        if step is None:
            step = self.steps[ticket, to] = FrozenAction({"ticket": ticket, "to": to})
        return step

    def doubles_from(
        self, ticket: str, to: int
    ) -> tuple[FrozenList, dict[str, tuple[tuple[int, FrozenList], ...]]]:
        first = self.step(ticket, to)
        per = self.board.by_transport[to]
        seconds = {
            t2: tuple(
                (to2, FrozenList([first, self.step(t2, to2)])) for to2 in per[TRANSPORT_OF[t2]]
            )
            for t2 in SORTED_TICKETS
            if per.get(TRANSPORT_OF[t2])
        }
        found = self.doubles[ticket, to] = (FrozenList([first]), seconds)
        return found

    def pay(self, paid: list[str]) -> FrozenList:
        key = tuple(paid)
        pay = self.pays.get(key)
        if pay is None:
            pay = self.pays[key] = FrozenList(paid)
        return pay

    def refill_of(self, seat: str) -> FrozenAction:
        action = self.refill.get(seat)
        if action is None:
            action = self.refill[seat] = FrozenAction({"seat": seat, "type": "refill"})
        return action


def listing(board: Board) -> Listing:
    """The board's :class:`Listing` (made on first use, kept on the board)."""
    found = board.listing
    if found is None:
        found = Listing(board)
        object.__setattr__(board, "listing", found)  # (a frozen dataclass: a cache beside it)
    return found


def _sub_lists(rack: Rack, cap: int = 99) -> list[list[str]]:
    """Every sub-multiset of ``rack`` of at most ``cap`` tickets as a sorted list, in the
    order of :func:`~engine.games.misterx.state.sub_multisets` (built straight as lists:
    a discard lists up to a few hundred)."""
    found: list[list[str]] = [[]]
    for ticket in sorted(rack):
        count = rack[ticket]
        if cap >= 99:
            chunks = [[ticket] * n for n in range(count + 1)]
            found = [base + chunk for base in found for chunk in chunks]
        else:
            found = [
                base + [ticket] * n
                for base in found
                for n in range(min(count, cap - len(base)) + 1)
            ]
    return found


#: A multiset of tickets as one number: its count of the i-th ticket name (in sorted
#: order) times 16**i (a rack holds at most 9 tickets: 4 and one per pawn, MX-2.1).
#: ``_DISCARD_CHUNKS[ticket][n]``: what 0..n copies of ``ticket`` add to it.
_DISCARD_BASE = 16
_DISCARD_CHUNKS = {
    ticket: tuple(tuple(c * _DISCARD_BASE**i for c in range(n + 1)) for n in range(_DISCARD_BASE))
    for i, ticket in enumerate(SORTED_TICKETS)
}


def _discard_tickets(code: int) -> list[str]:
    """The sorted tickets of a multiset's number (see :data:`_DISCARD_CHUNKS`)."""
    tickets: list[str] = []
    for ticket in SORTED_TICKETS:
        code, count = divmod(code, _DISCARD_BASE)
        tickets += [ticket] * count
    return tickets


def _discards(table: Listing, seat: str, rack: Rack) -> list[dict[str, Any]]:
    """Every discard of ``seat``: every part of its rack, in the order of
    :func:`_sub_lists` (the last ticket name varying fastest). A seat's discard of given
    tickets is built once (per board) and handed out again: the parts of a rack are
    counted as numbers (:data:`_DISCARD_CHUNKS`), each looked up; and the list of a rack
    seen before is kept whole (its number is its last part's)."""
    chunks_of = _DISCARD_CHUNKS
    whole = 0
    for ticket, count in rack.items():
        whole += chunks_of[ticket][count][-1]
    seen = table.racks.get((seat, whole))
    if seen is not None:
        return list(seen)
    codes = [0]
    for ticket in sorted(rack):
        chunks = chunks_of[ticket][rack[ticket]]
        codes = [base + chunk for base in codes for chunk in chunks]
    known = table.discards.get(seat)
    if known is None or len(known) >= _DISCARDS_LIMIT:
        known = table.discards[seat] = {}
    actions: list[Any] = list(map(known.get, codes))
    if None in actions:
        for i, code in enumerate(codes):
            if actions[i] is None:
                actions[i] = known[code] = FrozenAction(
                    {"seat": seat, "type": "discard", "tickets": FrozenList(_discard_tickets(code))}
                )
    if len(table.racks) >= _DISCARDS_LIMIT:
        table.racks.clear()
    table.racks[seat, whole] = tuple(actions)
    return actions


def mrx_steps(state: MisterXState, frm: int, rack: Rack) -> list[tuple[str, int]]:
    """(ticket, city) for every single move from ``frm`` with a ticket of ``rack``."""
    per = state.board.by_transport[frm]
    occupied = state.occupied
    return [
        (ticket, to)
        for ticket in sorted(rack)
        for to in per.get(TRANSPORT_OF[ticket], ())
        if to not in occupied
    ]


def _pick(
    actions: list[dict[str, Any]], moves: MovesFrom, tickets: list[str], occupied: dict[int, str]
) -> None:
    """Add to ``actions`` the moves by ``tickets`` (in that order) to free cities."""
    reached, by_ticket = moves
    if reached.isdisjoint(occupied):  # (the usual case: no pawn in reach, no test per move)
        for ticket in tickets:
            found = by_ticket.get(ticket)
            if found is not None:
                actions += found[1]
    else:
        for ticket in tickets:
            found = by_ticket.get(ticket)
            if found is not None:
                actions += [a for to, a in found[0] if to not in occupied]


def _mrx_legal(state: MisterXState) -> list[dict[str, Any]]:
    board = state.board
    table = board.listing or listing(board)
    rack = state.racks[MRX]
    position = state.path[-1]
    occupied = state.occupied
    tickets = sorted(rack)
    actions: list[dict[str, Any]] = []
    _pick(actions, table.mrx.get(position) or table.mrx_moves(position), tickets, occupied)
    doubles: Rack = {}
    secrets: Rack = {}
    for t in tickets:  # his double and secret tickets
        icon = ICON_OF[t]
        if icon == "double":
            doubles[t] = rack[t]
        elif icon == "secret":
            secrets[t] = rack[t]
    if sum(doubles.values()) >= 3:
        known = table.doubles
        for paid in _sub_lists(doubles, 3):
            if len(paid) != 3:
                continue
            pay = table.pay(paid)
            left = dict(rack)
            for t in paid:
                remove_one(left, t)
            for t1, to1 in mrx_steps(state, position, left):
                ending, seconds = known.get((t1, to1)) or table.doubles_from(t1, to1)
                if to1 in state.destinations:
                    actions.append({"seat": MRX, "type": "double", "pay": pay, "moves": ending})
                    continue
                after = dict(left)
                remove_one(after, t1)
                for t2 in sorted(after):  # (each action a new dict; its pay and moves shared)
                    found = seconds.get(t2)
                    if found is not None:
                        actions += [
                            {"seat": MRX, "type": "double", "pay": pay, "moves": moves}
                            for to2, moves in found
                            if to2 not in occupied
                        ]
    if sum(secrets.values()) >= 3:
        free = [c for c in board.neighbours[position] if c not in occupied]
        for paid in _sub_lists(secrets, 3):
            if len(paid) != 3:
                continue
            pay = table.pay(paid)
            left = dict(rack)
            for t in paid:
                remove_one(left, t)
            actions += [
                {"seat": MRX, "type": "secret", "pay": pay, "ticket": t, "to": to}
                for t in sorted(left)
                for to in free
            ]
    if not actions:
        actions.append(table.pass_)
    return actions


def _refill_legal(state: MisterXState, seat: str) -> list[dict[str, Any]]:
    table = state.board.listing or listing(state.board)
    if seat in state.discarded:
        return [table.refill_of(seat)]
    actions = _discards(table, seat, state.racks[seat])
    actions.append(table.refill_of(seat))
    return actions


def pawn_moves(state: MisterXState, pawn: str, rack: Rack) -> list[tuple[str, int]]:
    per = state.board.by_transport[state.pawn_pos[pawn]]
    occupied = state.occupied
    return [
        (ticket, to)
        for ticket in sorted(rack)
        for to in per.get(TRANSPORT_OF[ticket], ())
        if to not in occupied
    ]


def _special_pays(table: Listing, state: MisterXState, icon: str) -> list[tuple[FrozenAction, int]]:
    """Every pay of 3 to 5 ``icon`` tickets the detective seats can make together, each
    seat giving at most one per pawn it controls, with its total (kept per board for the
    tickets of that icon each seat holds)."""
    held_by = tuple(
        (
            seat,
            frozenset([(t, n) for t, n in state.racks[seat].items() if ICON_OF[t] == icon]),
            len(state.pawns_of[seat]),
        )
        for seat in state.det_seats
    )
    key = (icon, held_by)
    found = table.special.get(key)
    if found is not None:
        return found
    found = []
    if sum(min(cap, sum(n for _t, n in held)) for _seat, held, cap in held_by) >= 3:
        pays: list[tuple[dict[str, FrozenList], int]] = [({}, 0)]
        for seat, held, cap in held_by:
            choices = [FrozenList(c) for c in _sub_lists(dict(held), cap)]
            pays = [
                ({**pay, seat: c} if c else pay, total + len(c))
                for pay, total in pays
                for c in choices
                if total + len(c) <= 5
            ]
        found = [(FrozenAction(pay), total) for pay, total in pays if total >= 3]
    if len(table.special) >= _TABLE_LIMIT:
        table.special.clear()
    table.special[key] = found
    return found


def _special_legal(state: MisterXState) -> list[dict[str, Any]]:
    actions: list[dict[str, Any]] = []
    board, occupied = state.board, state.occupied
    table = board.listing or listing(board)
    last_slot = len(state.path) - 1
    for pay, total in _special_pays(table, state, "investigate"):
        if last_slot - INVESTIGATE_BACK[total] >= 0:
            actions.append({"seat": TEAM, "type": "investigate", "pay": pay})
    sirens: dict[str, list[tuple[str, int]]] = {}
    for pay, total in _special_pays(table, state, "siren"):
        transport = SIREN_TRANSPORT[total]
        spots = sirens.get(transport)
        if spots is None:  # where a siren by this transport can take a pawn (once per call)
            spots = sirens[transport] = [
                (pawn, to)
                for pawn, city in state.pawn_pos.items()
                for to in board.by_transport[city].get(transport, ())
                if to not in occupied
            ]
        actions += [
            {"seat": TEAM, "type": "siren", "pay": pay, "pawn": pawn, "to": to}
            for pawn, to in spots
        ]
    return actions


def refill_draw(state: MisterXState, action: dict[str, Any]) -> tuple[Rack, Rack, int] | None:
    """What a ``refill`` of the seat whose refill it is draws (MX-6.8): (tickets that come
    out whatever happens, the pile drawn from, how many from it). A bag with too few
    tickets gives all of them, then the rest from the tickets out of the game (MX-3.12).
    None for anything else."""
    seat = action.get("seat")
    if action.get("type") != "refill" or state.over or not isinstance(seat, str):
        return None
    if seat == MRX:
        turn = state.phase == PH_MRX_REFILL
    else:
        turn = state.phase == PH_DET_END and state.det_seats[state.refill_next] == seat
    if not turn:
        return None
    in_bag, in_out = rack_size(state.bag), rack_size(state.out)
    need = min(state.limit[seat] - rack_size(state.racks[seat]), in_bag + in_out)
    if in_bag >= need:
        return {}, dict(state.bag), need
    return dict(state.bag), dict(state.out), need - in_bag


def chance_options(state: MisterXState, action: dict[str, Any]) -> list[dict[str, Any]]:
    """A ``refill`` of the seat whose refill it is: one completed action per multiset of
    tickets the draw could give (:func:`refill_draw`). Anything else: no chance."""
    draw = refill_draw(state, action)
    if draw is None:
        return [action]
    taken, pile, count = draw
    draws = []
    for rest in sub_multisets(pile, size=count):
        drawn = dict(taken)
        add_all(drawn, rest)
        draws.append(drawn)
    return [{**action, "tickets": rack_list(drawn)} for drawn in draws]


def legal_actions(state: MisterXState, seat: str) -> list[dict[str, Any]]:
    """Every action ``seat`` may take now; refills without their (chance) tickets."""
    if state.winner is not None:
        return []
    phase = state.phase
    if seat == MRX:
        if phase == PH_MRX:
            return _mrx_legal(state)
        if phase == PH_MRX_REFILL:
            return _refill_legal(state, MRX)
        return []
    if seat == TEAM:
        return _special_legal(state) if state.special_open() else []
    if seat not in state.pawns_of:
        return []
    if phase == PH_PAWNS:
        return _pawn_legal(state, seat)
    if phase == PH_DET_END and state.det_seats[state.refill_next] == seat:
        return _refill_legal(state, seat)
    return []


def _pawn_legal(state: MisterXState, seat: str) -> list[dict[str, Any]]:
    """The moves of the seat's pawns that have not moved (a pawn without one stays)."""
    board = state.board
    table = board.listing or listing(board)
    moves_of = table.pawn
    actions: list[dict[str, Any]] = []
    tickets = sorted(state.racks[seat])
    occupied, moved, pawn_pos = state.occupied, state.moved, state.pawn_pos
    for pawn in state.pawns_of[seat]:
        if pawn in moved:
            continue
        city = pawn_pos[pawn]
        count = len(actions)
        # (_pick, written out: a search lists a pawn's moves more than anything else)
        reached, by_ticket = moves_of.get((seat, pawn, city)) or table.pawn_moves(seat, pawn, city)
        if reached.isdisjoint(occupied):
            for ticket in tickets:
                found = by_ticket.get(ticket)
                if found is not None:
                    actions += found[1]
        else:
            for ticket in tickets:
                found = by_ticket.get(ticket)
                if found is not None:
                    actions += [a for to, a in found[0] if to not in occupied]
        if len(actions) == count:
            actions.append(table.stay_of(seat, pawn))
    return actions
