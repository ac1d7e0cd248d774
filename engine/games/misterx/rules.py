"""Mister X: the rules (``MX-*`` in ``docs/rules/mister-x.md``).

Setup, and the checking/applying of every action. ``apply`` mutates the state in
place and returns the action as recorded, with chance outcomes (setup racks and
start cards, refills) filled in from the seed when the log leaves them out.

Order of seeded setup draws: one start card per board pawn in the board's pawn
order (from the sorted start cards), then Mister X's rack, then each detective
seat's rack in seat order.

Speed: a search replays millions of actions, so the checks every legal action
passes are written out in the function that applies it (table look-ups, no
helper per field); each check still names its rule, and its sentence is built
only when the rule is broken.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import IllegalAction
from engine.core.fields import get_dict, get_int, get_list, get_str
from engine.core.frozen import FrozenAction, FrozenList
from engine.core.messages import Text, msg
from engine.core.rng import Rng
from engine.games.misterx.board import MISSION_COLOURS, Board, resolve_board
from engine.games.misterx.sentences import pawn_colour
from engine.games.misterx.state import (
    CHECK_WINDOW,
    DEFAULT_BOARD,
    HIDDEN_SLOTS,
    ICON_OF,
    INVESTIGATE_BACK,
    MRX,
    MRX_RACK,
    PH_DET_END,
    PH_MRX,
    PH_MRX_REFILL,
    PH_OVER,
    PH_PAWNS,
    SIREN_TRANSPORT,
    SORTED_TICKETS,
    SPECIAL_FROM_ROUND,
    TEAM,
    TRANSPORT_OF,
    Rack,
    State,
    add_all,
    contains,
    default_shares,
    det_seat_ids,
    draw_from,
    rack_list,
    rack_of,
    rack_size,
    remove_all,
    remove_one,
    sub_multisets,
)

_INT = int
_STR = str


# --- reading fields ------------------------------------------------------------------
def _ticket(board: Board, value: Any, rule: str, what: Text) -> str:
    if value.__class__ is not _STR or value not in board.tickets:
        if isinstance(value, str) and value in board.tickets:  # a str subclass: fine
            return value
        raise IllegalAction(rule, msg("mx.refuse.ticket_board_tickets_written_transport", what=what, value=repr(value)))
    return value


def _tickets(board: Board, obj: dict[str, Any], name: str, rule: str, what: Text) -> list[str]:
    return [_ticket(board, t, rule, what) for t in get_list(obj, name, rule, what)]


# --- setup ---------------------------------------------------------------------------
def check_pawn_shares(board: Board, det_seats: list[str], pawns_opt: Any) -> dict[str, list[str]]:
    """``options.pawns`` checked (MX-6.10), or the default shares when absent."""
    if pawns_opt is None:
        return default_shares(board.pawns, det_seats)
    if not isinstance(pawns_opt, dict):
        raise IllegalAction("MX-6.10", msg("mx.refuse.options_pawns_map_each_detective"))
    if sorted(pawns_opt) != sorted(det_seats):
        raise IllegalAction("MX-6.10", msg("mx.refuse.options_pawns_name_exactly_detective", det_seats=', '.join(det_seats)))
    given: list[str] = []
    for seat in det_seats:
        share = pawns_opt[seat]
        if not (isinstance(share, list) and bool(share) and all(isinstance(p, str) for p in share)):
            raise IllegalAction("MX-6.10", msg("mx.refuse.options_pawns_non_empty_list", seat=repr(seat)))
        given.extend(share)
    if sorted(given) != sorted(board.pawns):
        raise IllegalAction("MX-6.10", msg("mx.refuse.options_pawns_give_each_board", pawns=', '.join(board.pawns)))
    sizes = [len(pawns_opt[s]) for s in det_seats]
    if max(sizes) - min(sizes) > 1:
        raise IllegalAction("MX-6.10", msg("mx.refuse.pawns_shared_out_as_evenly"))
    return {s: list(pawns_opt[s]) for s in det_seats}


def new_state(options: dict[str, Any], seats: list[str], setup: dict[str, Any], rng: Rng | None) -> State:
    board = resolve_board(options.get("board", DEFAULT_BOARD))
    det_seats = [s for s in det_seat_ids(5) if s in seats]
    pawns_of = check_pawn_shares(board, det_seats, options.get("pawns"))
    st = State.__new__(State)
    st.board = board
    st.det_seats = det_seats
    st.pawns_of = pawns_of
    st.owner = {p: s for s, ps in pawns_of.items() for p in ps}
    st.limit = {MRX: MRX_RACK, **{s: 4 + len(ps) for s, ps in pawns_of.items()}}

    # MX-2.3: the mission colour and Mister X's start (choices, never chance)
    st.mission = get_str(setup, "mission", "MX-2.3", msg("core.what.setup"), choices=MISSION_COLOURS)
    mission = board.missions[st.mission]
    st.destinations = mission.destinations
    start = get_int(setup, "start", "MX-2.3", msg("core.what.setup"))
    if start not in mission.starts:
        raise IllegalAction("MX-2.3", msg("mx.refuse.mister_x_start_one_start", mission=msg(f"mx.mission.{st.mission}"), starts=str(list(mission.starts)), start=str(start)))
    st.path = [start]
    st.slots = [None]

    # MX-2.2: one start card per pawn
    given_pawns = setup.get("pawns")
    if rng is not None:
        cards = sorted(board.start_cards)
        pawn_pos = {p: c for p, c in zip(board.pawns, rng.draw(cards, len(board.pawns)), strict=True)}
        if given_pawns is not None and given_pawns != pawn_pos:
            raise IllegalAction("MX-2.2", msg("mx.refuse.setup_s_pawn_cities_differ", given_pawns=str(given_pawns), pawn_pos=str(pawn_pos)))
    else:
        if given_pawns is None:
            raise IllegalAction("MX-2.2", msg("mx.refuse.without_seed_setup_record_each"))
        pawn_pos = dict(get_dict(setup, "pawns", "MX-2.2", msg("core.what.setup")))
        if sorted(pawn_pos) != sorted(board.pawns):
            raise IllegalAction("MX-2.2", msg("mx.refuse.setup_pawns_give_start_city", pawns=', '.join(board.pawns)))
        for pawn, city in pawn_pos.items():
            if not (isinstance(city, int) and city in board.start_cards):
                raise IllegalAction("MX-2.2", msg("mx.refuse.pawn_start_start_card_city", pawn=pawn, city=repr(city)))
        if len(set(pawn_pos.values())) != len(pawn_pos):
            raise IllegalAction("MX-2.2", msg("mx.refuse.two_pawns_cannot_start_same"))
    st.pawn_pos = {p: pawn_pos[p] for p in board.pawns}
    st.occupied = {c: p for p, c in st.pawn_pos.items()}

    # MX-2.1: racks
    bag = {t: n for t, n in board.tickets.items() if n}
    given_racks = setup.get("racks")
    order = [MRX, *det_seats]
    racks: dict[str, Rack] = {}
    if rng is not None:
        for seat in order:
            racks[seat] = rack_of(draw_from(bag, st.limit[seat], rng))
        if given_racks is not None:
            if not isinstance(given_racks, dict):
                raise IllegalAction("MX-2.1", msg("mx.refuse.setup_racks_object"))
            for seat in order:
                mine = given_racks.get(seat)
                if not (isinstance(mine, list) and rack_of(mine) == racks[seat]):
                    raise IllegalAction("MX-2.1", msg("mx.refuse.setup_racks_differs_from_seed", seat=repr(seat), racks=rack_list(racks[seat])))
    else:
        if given_racks is None:
            raise IllegalAction("MX-2.1", msg("mx.refuse.without_seed_setup_record_every"))
        given = get_dict(setup, "racks", "MX-2.1", msg("core.what.setup"))
        if sorted(given) != sorted(order):
            raise IllegalAction("MX-2.1", msg("mx.refuse.setup_racks_have_exactly_seats", order=', '.join(order)))
        for seat in order:
            tickets = _tickets(board, given, seat, "MX-2.1", f"setup.racks[{seat!r}]")
            if len(tickets) != st.limit[seat]:
                raise IllegalAction("MX-2.1", msg("mx.refuse.draws_tickets_start", seat=seat, count=st.limit[seat], n_tickets=len(tickets)))
            rack = rack_of(tickets)
            if not contains(bag, rack):
                raise IllegalAction("MX-2.1", msg("mx.refuse.racks_hold_more_tickets_than", seat=seat))
            remove_all(bag, rack)
            racks[seat] = rack
    st.racks = racks
    st.bag = bag
    st.out = {}
    st.round = 1
    st.phase = PH_MRX
    st.moved = ()
    st.discarded = ()
    st.refill_next = 0
    st.special_done = False
    st.revealed = {}
    st.reveals = []
    st.winner = None
    st.reason = None
    st.rng = rng
    st.events = []
    st.events_own = True
    st.possible_cache = None
    return st


def setup_record(st: State) -> dict[str, Any]:
    """The complete setup of a fresh state (every chance outcome written out)."""
    return {
        "mission": st.mission,
        "start": st.path[0],
        "pawns": dict(st.pawn_pos),
        "racks": {s: rack_list(st.racks[s]) for s in st.seats()},
    }


# --- Mister X ------------------------------------------------------------------------
def _end(st: State, winner: str, reason: str) -> None:
    st.winner = winner
    st.reason = reason
    st.phase = PH_OVER


def _check_mrx_step(st: State, frm: int, transport: str | None, to: Any, rule: str,
                    occupied_rule: str = "MX-6.2") -> int:
    """One step of Mister X: along ``transport`` (any when None) to a city without a
    detective (MX-6.2; MX-3.3 names the first step of a double)."""
    board = st.board
    if to.__class__ is not _INT or to not in board.cities:
        raise IllegalAction(rule, msg("mx.refuse.city_board", to=repr(to)))
    if transport is None:
        if to not in board.neighbours[frm]:
            raise IllegalAction(rule, msg("mx.refuse.city_neighbour_city", to=to, frm=frm))
    elif to not in board.by_transport[frm].get(transport, ()):
        raise IllegalAction(rule, msg("mx.refuse.there_no_connection_from_city", transport=msg(f"mx.transport.{transport}"), frm=frm, to=to))
    if to in st.occupied:
        raise IllegalAction(occupied_rule,
                            msg("mx.refuse.mister_x_cannot_move_onto", to=to, occupant=pawn_colour(st.occupied.get(to))))
    return to


def _mrx_step(st: State, ticket: str, face_up: bool, to: int) -> None:
    """Record one Mister X move on the next slot (MX-3.1, MX-3.11) and end the game on
    a destination (MX-3.6)."""
    slot = len(st.path)
    st.path.append(to)
    st.slots.append((ticket, face_up))
    if slot > HIDDEN_SLOTS:  # open play: the ticket goes back into the bag
        bag = st.bag
        bag[ticket] = bag.get(ticket, 0) + 1
    (st.events if st.events_own else st.own_events()).append(
        ("mx", slot, TRANSPORT_OF[ticket] if face_up else None, frozenset(st.occupied),
         to if slot > HIDDEN_SLOTS else None))
    if to in st.destinations:
        _end(st, MRX, "destination")


def _need_tickets(rack: Rack, want: Rack, rule: str, who: Text) -> None:
    for t, n in want.items():
        if rack.get(t, 0) < n:
            missing = sorted(t for t, n in want.items() if rack.get(t, 0) < n)
            raise IllegalAction(rule, msg("mx.refuse.does_hold_as_many_as", who=who, missing=', '.join(missing)))


def mrx_move(st: State, a: dict[str, Any]) -> None:
    """MX-3.2: one ticket, one step along its transport."""
    ticket, to = a.get("ticket"), a.get("to")
    rack = st.racks[MRX]
    # Every legal move passes this one test (a ticket held, its transport to a free city);
    # anything else goes through the checks one by one, for the rule to cite.
    if not (ticket.__class__ is _STR and ticket in rack and to.__class__ is _INT
            and to in st.board.by_transport[st.path[-1]].get(TRANSPORT_OF[ticket], ())
            and to not in st.occupied):
        ticket = _ticket(st.board, ticket, "MX-3.2", msg("mx.what.mrx_move"))
        if ticket not in rack:
            _need_tickets(rack, {ticket: 1}, "MX-3.2", msg("mx.seat.mrx"))
        to = _check_mrx_step(st, st.path[-1], TRANSPORT_OF[ticket], to, "MX-3.2")
    remove_one(rack, ticket)
    _mrx_step(st, ticket, True, to)


def _pay(st: State, a: dict[str, Any], icon: str, rule: str) -> list[str]:
    pay = _tickets(st.board, a, "pay", rule, msg(f"mx.what.pay.{icon}"))
    if len(pay) != 3:
        raise IllegalAction(rule, msg("mx.refuse.costs_exactly_tickets", type=msg(f"mx.kind.{icon}"), n_pay=len(pay)))
    for t in pay:
        if ICON_OF[t] != icon:
            raise IllegalAction(rule, msg("mx.refuse.paid_with_tickets", type=msg(f"mx.kind.{icon}"), icon=icon, t=t))
    return pay


def mrx_double(st: State, a: dict[str, Any]) -> None:
    """MX-3.3 / MX-6.1: 3 ``double`` tickets out of the game, then two moves."""
    pay = _pay(st, a, "double", "MX-3.3")
    moves = get_list(a, "moves", "MX-3.3")
    if len(moves) not in (1, 2):
        raise IllegalAction("MX-3.3", msg("mx.refuse.double_move_lists_two_moves"))
    for m in moves:
        if not isinstance(m, dict):
            raise IllegalAction("MX-3.3", msg("mx.refuse.each_move_double_object_with"))
    tickets = [_ticket(st.board, m.get("ticket"), "MX-3.3", msg("mx.what.double_step")) for m in moves]
    rack = st.racks[MRX]
    _need_tickets(rack, rack_of(pay + tickets), "MX-3.3", msg("mx.seat.mrx"))
    first = _check_mrx_step(st, st.path[-1], TRANSPORT_OF[tickets[0]], moves[0].get("to"), "MX-3.3",
                            occupied_rule="MX-3.3")
    if first in st.destinations:
        if len(moves) != 1:
            raise IllegalAction("MX-6.1", msg("mx.refuse.first_step_reaches_destination_ends"))
    else:
        if len(moves) != 2:
            raise IllegalAction("MX-3.3", msg("mx.refuse.double_move_makes_two_moves"))
        _check_mrx_step(st, first, TRANSPORT_OF[tickets[1]], moves[1].get("to"), "MX-3.3")
    out = st.out
    for t in pay:
        remove_one(rack, t)
        out[t] = out.get(t, 0) + 1
    for ticket, m in zip(tickets, moves, strict=True):
        remove_one(rack, ticket)
        _mrx_step(st, ticket, True, m["to"])
        if st.winner is not None:
            return


def mrx_secret(st: State, a: dict[str, Any]) -> None:
    """MX-3.4 / MX-6.4: 3 ``secret`` tickets out of the game, a 4th face down, any line."""
    pay = _pay(st, a, "secret", "MX-3.4")
    ticket = _ticket(st.board, a.get("ticket"), "MX-3.4", msg("mx.what.face_down"))
    rack = st.racks[MRX]
    _need_tickets(rack, rack_of([*pay, ticket]), "MX-6.4", msg("mx.seat.mrx"))
    to = _check_mrx_step(st, st.path[-1], None, a.get("to"), "MX-3.4")
    out = st.out
    for t in pay:
        remove_one(rack, t)
        out[t] = out.get(t, 0) + 1
    remove_one(rack, ticket)
    _mrx_step(st, ticket, False, to)


def mrx_can_move(st: State) -> bool:
    """Does Mister X have a move or a secret move (MX-6.3)?"""
    board, pos, rack = st.board, st.path[-1], st.racks[MRX]
    per = board.by_transport[pos]
    occupied = st.occupied
    for t in {TRANSPORT_OF[ticket] for ticket in rack}:
        if any(c not in occupied for c in per.get(t, ())):
            return True
    secrets = sum(n for ticket, n in rack.items() if ICON_OF[ticket] == "secret")
    return (secrets >= 3 and rack_size(rack) >= 4
            and any(c not in occupied for c in board.neighbours[pos]))


def mrx_pass(st: State, a: dict[str, Any]) -> None:
    """MX-3.5 / MX-6.3: only without any move; the whole rack goes into the bag."""
    if mrx_can_move(st):
        raise IllegalAction("MX-6.3", msg("mx.refuse.mister_x_may_pass_only"))
    add_all(st.bag, st.racks[MRX])
    st.racks[MRX] = {}


# --- detectives ----------------------------------------------------------------------
def pawn_can_move(st: State, pawn: str) -> bool:
    """MX-6.6: does the pawn's own seat hold a ticket that moves it to a free city?
    Mister X's city counts as free (MX-6.5)."""
    per = st.board.by_transport[st.pawn_pos[pawn]]
    occupied = st.occupied
    for t in {TRANSPORT_OF[ticket] for ticket in st.racks[st.owner[pawn]]}:
        if any(c not in occupied for c in per.get(t, ())):
            return True
    return False


def _own_pawn(st: State, seat: str, a: dict[str, Any]) -> str:
    pawn = a.get("pawn")
    if pawn.__class__ is not _STR or st.owner.get(pawn) != seat or pawn in st.moved:
        pawn = get_str(a, "pawn", "MX-3.7")
        if pawn not in st.owner:
            raise IllegalAction("MX-3.7", msg("mx.refuse.there_no_pawn_pawns", pawn=repr(pawn), pawns=', '.join(st.board.pawns)))
        if st.owner[pawn] != seat:
            raise IllegalAction("MX-6.10", msg("mx.refuse.pawn_played_by", pawn=pawn, owner=str(st.owner[pawn]), seat=seat))
        if pawn in st.moved:
            raise IllegalAction("MX-3.7", msg("mx.refuse.pawn_has_already_moved_round", pawn=pawn))
    return pawn


def _pawn_to(st: State, pawn: str, to: int) -> None:
    """Move a pawn; entering Mister X's city catches him (MX-6.5, MX-4.1)."""
    occupied = st.occupied
    del occupied[st.pawn_pos[pawn]]
    st.pawn_pos[pawn] = to
    occupied[to] = pawn
    if to == st.path[-1]:
        _end(st, TEAM, "caught")
    else:
        st.own_events().append(("not", len(st.path) - 1, (to,)))


def _check_pawn_step(st: State, pawn: str, transport: str, to: Any, rule: str) -> int:
    if to.__class__ is not _INT or to not in st.board.cities:
        raise IllegalAction(rule, msg("mx.refuse.city_board", to=repr(to)))
    frm = st.pawn_pos[pawn]
    if to not in st.board.by_transport[frm].get(transport, ()):
        raise IllegalAction(rule, msg("mx.refuse.there_no_connection_from_city", transport=msg(f"mx.transport.{transport}"), frm=frm, to=to))
    if to in st.occupied:
        raise IllegalAction(rule, msg("mx.refuse.pawn_cannot_enter_city_pawn", pawn=pawn, to=to, occupant=pawn_colour(st.occupied.get(to))))
    return to


def _after_pawn(st: State, pawn: str) -> None:
    moved = st.moved = (*st.moved, pawn)
    if len(moved) == len(st.pawn_pos) and st.winner is None:
        st.phase = PH_DET_END


def det_move(st: State, seat: str, a: dict[str, Any]) -> None:
    """MX-3.7 step 1: a pawn moves with a ticket from its seat's rack; ticket to the bag."""
    pawn, ticket, to = a.get("pawn"), a.get("ticket"), a.get("to")
    rack = st.racks[seat]
    # The checks below in one test (the pawn is the seat's and has not moved, the seat
    # holds the ticket, its transport leads to the free city): every legal move passes
    # here; anything else goes through them one by one for the rule to cite.
    if not (pawn.__class__ is _STR and st.owner.get(pawn) == seat and pawn not in st.moved
            and ticket.__class__ is _STR and ticket in rack and to.__class__ is _INT
            and to in st.board.by_transport[st.pawn_pos[pawn]].get(TRANSPORT_OF[ticket], ())
            and to not in st.occupied):
        pawn = _own_pawn(st, seat, a)
        ticket = _ticket(st.board, ticket, "MX-3.7", msg("mx.what.pawn_move", pawn=pawn))
        _need_tickets(rack, {ticket: 1}, "MX-3.7", seat)
        _check_pawn_step(st, pawn, TRANSPORT_OF[ticket], to, "MX-3.7")
        raise AssertionError("det_move: a check above must have failed")  # pragma: no cover
    left = rack[ticket] - 1
    if left:
        rack[ticket] = left
    else:
        del rack[ticket]
    bag = st.bag
    bag[ticket] = bag.get(ticket, 0) + 1  # MX-6.6: into the bag at once
    # _pawn_to and _after_pawn, written out (the action a replay meets most)
    occupied, pawn_pos = st.occupied, st.pawn_pos
    del occupied[pawn_pos[pawn]]
    pawn_pos[pawn] = to
    occupied[to] = pawn
    path = st.path
    if to == path[-1]:
        _end(st, TEAM, "caught")
    else:
        (st.events if st.events_own else st.own_events()).append(("not", len(path) - 1, (to,)))
    moved = st.moved = (*st.moved, pawn)
    if len(moved) == len(pawn_pos) and st.winner is None:
        st.phase = PH_DET_END


def det_stay(st: State, seat: str, a: dict[str, Any]) -> None:
    """MX-3.7 / MX-6.6: a pawn stays only when its seat holds no ticket that moves it."""
    pawn = _own_pawn(st, seat, a)
    if pawn_can_move(st, pawn):
        raise IllegalAction("MX-3.7", msg("mx.refuse.pawn_move_holds_ticket_that", pawn=pawn, seat=seat))
    _after_pawn(st, pawn)


def _special_pay(st: State, a: dict[str, Any], icon: str, rule: str) -> tuple[dict[str, Rack], int]:
    if st.phase != PH_DET_END:
        raise IllegalAction("MX-3.7", msg("mx.refuse.detectives_special_action_comes_after"))
    if st.round < SPECIAL_FROM_ROUND:
        raise IllegalAction("MX-3.7", msg("mx.refuse.special_actions_allowed_from_round", special_from_round=SPECIAL_FROM_ROUND, round=str(st.round)))
    if st.special_done:
        raise IllegalAction("MX-6.7", msg("mx.refuse.most_one_special_action_per"))
    if not st.special_open():
        raise IllegalAction("MX-3.7", msg("mx.refuse.special_action_comes_before_detectives"))
    pay = get_dict(a, "pay", rule)
    per_seat: dict[str, Rack] = {}
    total = 0
    for seat, tickets in pay.items():
        if seat not in st.det_seats:
            raise IllegalAction("MX-6.10", msg("mx.refuse.detective_seat", seat=repr(seat)))
        if not isinstance(tickets, list):
            raise IllegalAction(rule, msg("mx.refuse.pay_list_tickets", seat=repr(seat)))
        tickets = [_ticket(st.board, t, rule, f"pay[{seat!r}]") for t in tickets]
        for t in tickets:
            if ICON_OF[t] != icon:
                raise IllegalAction(rule, msg("mx.refuse.special_action_paid_with_tickets2", icon=icon, t=t))
        limit = len(st.pawns_of[seat])
        if len(tickets) > limit:
            raise IllegalAction("MX-3.7", msg("mx.refuse.controls_pawn_s_may_give", seat=seat, count=limit, n_tickets=len(tickets)))
        rack = rack_of(tickets)
        _need_tickets(st.racks[seat], rack, rule, seat)
        per_seat[seat] = rack
        total += len(tickets)
    if total not in (3, 4, 5):
        raise IllegalAction("MX-6.7", msg("mx.refuse.special_action_paid_with_tickets", count=total))
    return per_seat, total


def _spend(st: State, per_seat: dict[str, Rack]) -> None:
    for seat, rack in per_seat.items():
        remove_all(st.racks[seat], rack)
        add_all(st.out, rack)


def reveal(st: State, slot: int, by: str) -> None:
    city = st.path[slot]
    if slot not in st.revealed:
        st.revealed = {**st.revealed, slot: city}
        st.own_events().append(("reveal", slot, city))
    st.reveals = [*st.reveals, {"round": st.round, "slot": slot, "city": city, "by": by}]


def det_investigate(st: State, a: dict[str, Any]) -> None:
    """MX-3.8: 3/4/5 ``investigate`` tickets reveal the city of 4/3/2 moves ago."""
    per_seat, total = _special_pay(st, a, "investigate", "MX-3.8")
    slot = st.last_slot - INVESTIGATE_BACK[total]
    if slot < 0:
        raise IllegalAction("MX-6.7", msg("mx.refuse.tickets_aim_moves_back_before", total=total, investigate_back=str(INVESTIGATE_BACK[total]), last_slot=str(st.last_slot)))
    _spend(st, per_seat)
    st.special_done = True
    reveal(st, slot, "investigate")


def det_siren(st: State, a: dict[str, Any]) -> None:
    """MX-3.9: 3/4/5 ``siren`` tickets move one pawn a step by car/train/plane."""
    per_seat, total = _special_pay(st, a, "siren", "MX-3.9")
    pawn = get_str(a, "pawn", "MX-3.9")
    if pawn not in st.pawn_pos:
        raise IllegalAction("MX-3.9", msg("mx.refuse.there_no_pawn", pawn=repr(pawn)))
    to = _check_pawn_step(st, pawn, SIREN_TRANSPORT[total], a.get("to"), "MX-3.9")
    _spend(st, per_seat)
    st.special_done = True
    _pawn_to(st, pawn, to)


# --- discard and refill --------------------------------------------------------------
def _refill_turn(st: State, seat: str, kind: str) -> None:
    """Is it ``seat``'s time to discard/refill (MX-3.1, MX-3.7, MX-6.9, MX-6.10)?"""
    if seat == MRX:
        if st.phase != PH_MRX_REFILL:
            raise IllegalAction("MX-3.1", msg("mx.refuse.mister_x_may_only_after", kind=msg(f"mx.verb.{kind}")))
        return
    if st.phase != PH_DET_END:
        raise IllegalAction("MX-3.7", msg("mx.refuse.detectives_after_all_five_pawns", kind=msg(f"mx.verb.{kind}")) if st.phase == PH_PAWNS else msg("mx.refuse.detectives_time", kind=msg(f"mx.verb.{kind}")))
    expected = st.det_seats[st.refill_next]
    if seat != expected:
        raise IllegalAction("MX-6.10", msg("mx.refuse.discards_refills_before", expected=expected, seat=seat))


def discard(st: State, seat: str, a: dict[str, Any]) -> None:
    """MX-3.1 step 3 / MX-3.7 step 3 / MX-6.9: tickets back into the bag, once, before the refill."""
    _refill_turn(st, seat, "discard")
    if seat in st.discarded:
        raise IllegalAction("MX-6.9", msg("mx.refuse.has_already_discarded_round", seat=seat))
    tickets = rack_of(_tickets(st.board, a, "tickets", "MX-6.9", msg("mx.what.discard", seat=seat)))
    _need_tickets(st.racks[seat], tickets, "MX-6.9", seat)
    remove_all(st.racks[seat], tickets)
    add_all(st.bag, tickets)
    st.discarded = (*st.discarded, seat)


def refill(st: State, seat: str, a: dict[str, Any]) -> list[str]:
    """MX-6.8 / MX-3.12: draw up to the rack limit; a dry bag takes back the tickets out of
    the game. Returns the tickets drawn, sorted."""
    if seat == MRX:
        if st.phase != PH_MRX_REFILL:
            _refill_turn(st, seat, "refill")
    elif st.phase != PH_DET_END or st.det_seats[st.refill_next] != seat:
        _refill_turn(st, seat, "refill")
    rack = st.racks[seat]
    bag = st.bag
    in_bag = sum(bag.values())
    need = st.limit[seat] - sum(rack.values())
    if need > in_bag:
        need = min(need, in_bag + sum(st.out.values()))
    given = a.get("tickets")
    if given is not None:
        tickets = st.board.tickets
        usual = given.__class__ is list
        if usual:
            for t in given:
                if t.__class__ is not _STR or t not in tickets:
                    usual = False
                    break
        if not usual:
            given = _tickets(st.board, a, "tickets", "MX-6.8", msg("mx.what.refill", seat=seat))
        if len(given) != need:
            raise IllegalAction("MX-6.8",
                                msg("mx.refuse.refills_ticket_s_reach_rack", seat=seat, count=need, n_given=len(given)))
        given = sorted(given)
    rng = st.rng
    if rng is not None:
        if in_bag >= need:
            drawn = sorted(draw_from(bag, need, rng)) if need else []
        else:
            drawn = rack_list(bag)
            st.bag = st.out
            st.out = {}
            drawn = sorted(drawn + draw_from(st.bag, need - in_bag, rng))
        if given is not None and given != drawn:
            raise IllegalAction("MX-6.8", msg("mx.refuse.s_refill_differs_from_seed", seat=seat, given=str(given), drawn=str(drawn)))
    else:
        if given is None:
            raise IllegalAction("MX-6.8", msg("mx.refuse.without_seed_every_refill_list"))
        drawn = given
        wanted = rack_of(drawn)
        if in_bag >= need:
            if not contains(bag, wanted):
                raise IllegalAction("MX-6.8", msg("mx.refuse.s_refill_bag", seat=seat, drawn=str(drawn)))
            remove_all(bag, wanted)
        else:
            # MX-3.12: the whole bag, then the rest from the tickets that left the game
            if not contains(wanted, bag):
                raise IllegalAction("MX-6.8", msg("mx.refuse.bag_holds_only_ticket_s", count=in_bag))
            remove_all(wanted, bag)
            if not contains(st.out, wanted):
                raise IllegalAction("MX-6.8", msg("mx.refuse.s_refill_bag_among_tickets", seat=seat, drawn=str(drawn)))
            st.bag = st.out
            st.out = {}
            remove_all(st.bag, wanted)
    for t in drawn:
        rack[t] = rack.get(t, 0) + 1
    if seat in st.discarded:
        st.discarded = tuple(s for s in st.discarded if s != seat)
    if seat == MRX:
        st.phase = PH_PAWNS
    else:
        st.refill_next += 1
        if st.refill_next == len(st.det_seats):
            position_check(st)
    return drawn


def position_check(st: State) -> None:
    """MX-3.10: reveal any of the 5 latest checklist cities a pawn stands on; next round."""
    path = st.path
    last = len(path) - 1
    first = max(0, last - CHECK_WINDOW + 1)
    if first <= HIDDEN_SLOTS:  # (slots after the 24th are public already)
        pawn_cities = frozenset(st.occupied)
        revealed = st.revealed  # (reveal below adds only the slot it reveals)
        events = st.events if st.events_own else st.own_events()
        for slot in range(first, min(last, HIDDEN_SLOTS) + 1):
            if slot in revealed:
                continue
            if path[slot] in pawn_cities:
                reveal(st, slot, "check")
            else:
                events.append(("not", slot, pawn_cities))
    st.round += 1
    st.phase = PH_MRX
    st.moved = ()
    st.discarded = ()
    st.refill_next = 0
    st.special_done = False


# --- dispatch ------------------------------------------------------------------------
_MRX_MOVES = {"move": mrx_move, "double": mrx_double, "secret": mrx_secret, "pass": mrx_pass}


def apply(st: State, a: dict[str, Any]) -> dict[str, Any]:
    """Check ``a`` against the rules, apply it to ``st`` in place, return it as recorded."""
    if a.__class__ is not dict and not isinstance(a, dict):
        raise IllegalAction("MX-3.1", msg("mx.refuse.action_object"))
    seat, kind = a["seat"], a["type"]
    if st.winner is not None:
        raise IllegalAction("MX-3.6", msg("mx.refuse.game_already_over_nothing_may"))
    if seat in st.pawns_of:
        if kind in ("move", "stay"):
            if st.phase != PH_PAWNS:
                raise IllegalAction("MX-3.7", msg("mx.refuse.pawns_move_after_mister_x"))
            if kind == "move":
                det_move(st, seat, a)
            else:
                det_stay(st, seat, a)
            return a
    elif seat == MRX:
        move = _MRX_MOVES.get(kind)
        if move is not None:
            if st.phase != PH_MRX:
                raise IllegalAction("MX-3.1", msg("mx.refuse.mister_x_moves_once_start") if st.phase != PH_OVER else msg("mx.refuse.game_over"))
            move(st, a)
            if st.winner is None:
                st.phase = PH_MRX_REFILL
            return a
    elif seat == TEAM:
        if kind == "investigate":
            det_investigate(st, a)
            return a
        if kind == "siren":
            det_siren(st, a)
            return a
        raise IllegalAction("MX-3.7", msg("mx.refuse.detectives_team_takes_only_investigate", kind=repr(kind)))
    else:
        raise IllegalAction("MX-6.10", msg("mx.refuse.unknown_seat_seats", seat=repr(seat), seats=', '.join(st.seats()), team=str(TEAM)))
    if kind == "refill":
        drawn = refill(st, seat, a)
        if a.get("tickets") is None:
            return {**a, "tickets": drawn}
        return a
    if kind == "discard":
        discard(st, seat, a)
        return a
    rule = "MX-3.1" if seat == MRX else "MX-3.7"
    raise IllegalAction(rule, msg("mx.refuse.has_no_action", seat=seat, kind=repr(kind)))


def result(st: State) -> dict[str, Any] | None:
    if st.winner is None:
        return None
    return {"winner": st.winner, "reason": st.reason, "moves": st.last_slot}


def to_act(st: State) -> list[str]:
    phase = st.phase
    if phase == PH_PAWNS:
        moved = st.moved
        return [s for s, pawns in st.pawns_of.items() if any(p not in moved for p in pawns)]
    if phase in (PH_MRX, PH_MRX_REFILL):
        return [MRX]
    if phase == PH_DET_END:
        refiller = [st.det_seats[st.refill_next]]
        return [TEAM, *refiller] if special_possible(st) else refiller
    return []


def special_possible(st: State) -> bool:
    """Can the detectives take some special action now (MX-3.7 .. MX-3.9, MX-6.7)?"""
    if not st.special_open():
        return False
    for icon in ("investigate", "siren"):
        usable = sum(min(len(st.pawns_of[seat]),
                         sum(n for t, n in st.racks[seat].items() if ICON_OF[t] == icon))
                     for seat in st.det_seats)
        for paid in range(3, min(usable, 5) + 1):
            if icon == "investigate":
                if st.last_slot - INVESTIGATE_BACK[paid] >= 0:
                    return True
            elif any(c not in st.occupied
                     for city in st.pawn_pos.values()
                     for c in st.board.by_transport[city].get(SIREN_TRANSPORT[paid], ())):
                return True
    return False


# --- enumerating legal actions -------------------------------------------------------
# A search lists the legal actions at every node, and building a dictionary per action
# was most of the cost. So the actions a board allows a bounded number of (a pawn's or
# Mister X's move from a city by a ticket, a stay, a refill, a pass) are built once, when
# first listed, as read-only FrozenActions (engine.core.frozen: a dict that refuses every
# change), and handed out again on every later call; a call only picks, in the order the
# rules list them, those the state allows (the tickets held, the free cities). The tables
# live on the board (:class:`Listing`), shared by every game on it. The actions there are
# too many kinds of to keep (a discard per part of a rack, a double move per pay and two
# steps, a siren per pay and pawn) are built for the call, as before; the parts they
# share (a pay, a step of a double move) are read only too.

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
    """Every ticket's moves along ``per`` (transport -> cities), each action ``make(ticket, to)``."""
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

    __slots__ = ("board", "pawn", "stay", "mrx", "steps", "pays", "refill", "pass_", "discards", "racks", "special",
                 "doubles")

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
        self.doubles: dict[tuple[str, int], tuple[FrozenList, dict[str, tuple[tuple[int, FrozenList], ...]]]] = {}
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
        moves = _moves_from(self.board.by_transport[city], lambda ticket, to: FrozenAction(
            {"seat": seat, "type": "move", "pawn": pawn, "ticket": ticket, "to": to}))
        if len(self.pawn) >= _TABLE_LIMIT:
            self.pawn.clear()
        self.pawn[seat, pawn, city] = moves
        return moves

    def stay_of(self, seat: str, pawn: str) -> FrozenAction:
        action = self.stay.get((seat, pawn))
        if action is None:
            action = self.stay[seat, pawn] = FrozenAction({"seat": seat, "type": "stay", "pawn": pawn})
        return action

    def mrx_moves(self, city: int) -> MovesFrom:
        moves = self.mrx[city] = _moves_from(self.board.by_transport[city], lambda ticket, to: FrozenAction(
            {"seat": MRX, "type": "move", "ticket": ticket, "to": to}))
        return moves

    def step(self, ticket: str, to: int) -> FrozenAction:
        step = self.steps.get((ticket, to))
        if step is None:
            step = self.steps[ticket, to] = FrozenAction({"ticket": ticket, "to": to})
        return step

    def doubles_from(self, ticket: str, to: int) -> tuple[FrozenList, dict[str, tuple[tuple[int, FrozenList], ...]]]:
        first = self.step(ticket, to)
        per = self.board.by_transport[to]
        seconds = {t2: tuple((to2, FrozenList([first, self.step(t2, to2)])) for to2 in per[TRANSPORT_OF[t2]])
                   for t2 in SORTED_TICKETS if per.get(TRANSPORT_OF[t2])}
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
            found = [base + [ticket] * n for base in found for n in range(min(count, cap - len(base)) + 1)]
    return found


#: A multiset of tickets as one number: its count of the i-th ticket name (in sorted
#: order) times 16**i (a rack holds at most 9 tickets: 4 and one per pawn, MX-2.1).
#: ``_DISCARD_CHUNKS[ticket][n]``: what 0..n copies of ``ticket`` add to it.
_DISCARD_BASE = 16
_DISCARD_CHUNKS = {ticket: tuple(tuple(c * _DISCARD_BASE ** i for c in range(n + 1))
                                 for n in range(_DISCARD_BASE))
                   for i, ticket in enumerate(SORTED_TICKETS)}


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
                    {"seat": seat, "type": "discard", "tickets": FrozenList(_discard_tickets(code))})
    if len(table.racks) >= _DISCARDS_LIMIT:
        table.racks.clear()
    table.racks[seat, whole] = tuple(actions)
    return actions


def mrx_steps(st: State, frm: int, rack: Rack) -> list[tuple[str, int]]:
    """(ticket, city) for every single move from ``frm`` with a ticket of ``rack``."""
    per = st.board.by_transport[frm]
    occupied = st.occupied
    return [(ticket, to) for ticket in sorted(rack)
            for to in per.get(TRANSPORT_OF[ticket], ()) if to not in occupied]


def _pick(actions: list[dict[str, Any]], moves: MovesFrom, tickets: list[str],
          occupied: dict[int, str]) -> None:
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


def _mrx_legal(st: State) -> list[dict[str, Any]]:
    board = st.board
    table = board.listing or listing(board)
    rack = st.racks[MRX]
    position = st.path[-1]
    occupied = st.occupied
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
            for t1, to1 in mrx_steps(st, position, left):
                ending, seconds = known.get((t1, to1)) or table.doubles_from(t1, to1)
                if to1 in st.destinations:
                    actions.append({"seat": MRX, "type": "double", "pay": pay, "moves": ending})
                    continue
                after = dict(left)
                remove_one(after, t1)
                for t2 in sorted(after):  # (each action a new dict; its pay and moves shared)
                    found = seconds.get(t2)
                    if found is not None:
                        actions += [{"seat": MRX, "type": "double", "pay": pay, "moves": moves}
                                    for to2, moves in found if to2 not in occupied]
    if sum(secrets.values()) >= 3:
        free = [c for c in board.neighbours[position] if c not in occupied]
        for paid in _sub_lists(secrets, 3):
            if len(paid) != 3:
                continue
            pay = table.pay(paid)
            left = dict(rack)
            for t in paid:
                remove_one(left, t)
            actions += [{"seat": MRX, "type": "secret", "pay": pay, "ticket": t, "to": to}
                        for t in sorted(left) for to in free]
    if not actions:
        actions.append(table.pass_)
    return actions


def _refill_legal(st: State, seat: str) -> list[dict[str, Any]]:
    table = st.board.listing or listing(st.board)
    if seat in st.discarded:
        return [table.refill_of(seat)]
    actions = _discards(table, seat, st.racks[seat])
    actions.append(table.refill_of(seat))
    return actions


def pawn_moves(st: State, pawn: str, rack: Rack) -> list[tuple[str, int]]:
    per = st.board.by_transport[st.pawn_pos[pawn]]
    occupied = st.occupied
    return [(ticket, to) for ticket in sorted(rack)
            for to in per.get(TRANSPORT_OF[ticket], ()) if to not in occupied]


def _special_pays(table: Listing, st: State, icon: str) -> list[tuple[FrozenAction, int]]:
    """Every pay of 3 to 5 ``icon`` tickets the detective seats can make together, each
    seat giving at most one per pawn it controls, with its total (kept per board for the
    tickets of that icon each seat holds)."""
    held_by = tuple((seat, frozenset([(t, n) for t, n in st.racks[seat].items() if ICON_OF[t] == icon]),
                     len(st.pawns_of[seat])) for seat in st.det_seats)
    key = (icon, held_by)
    found = table.special.get(key)
    if found is not None:
        return found
    found = []
    if sum(min(cap, sum(n for _t, n in held)) for _seat, held, cap in held_by) >= 3:
        pays: list[tuple[dict[str, FrozenList], int]] = [({}, 0)]
        for seat, held, cap in held_by:
            choices = [FrozenList(c) for c in _sub_lists(dict(held), cap)]
            pays = [({**pay, seat: c} if c else pay, total + len(c))
                    for pay, total in pays for c in choices if total + len(c) <= 5]
        found = [(FrozenAction(pay), total) for pay, total in pays if total >= 3]
    if len(table.special) >= _TABLE_LIMIT:
        table.special.clear()
    table.special[key] = found
    return found


def _special_legal(st: State) -> list[dict[str, Any]]:
    actions: list[dict[str, Any]] = []
    board, occupied = st.board, st.occupied
    table = board.listing or listing(board)
    last_slot = len(st.path) - 1
    for pay, total in _special_pays(table, st, "investigate"):
        if last_slot - INVESTIGATE_BACK[total] >= 0:
            actions.append({"seat": TEAM, "type": "investigate", "pay": pay})
    sirens: dict[str, list[tuple[str, int]]] = {}
    for pay, total in _special_pays(table, st, "siren"):
        transport = SIREN_TRANSPORT[total]
        spots = sirens.get(transport)
        if spots is None:  # where a siren by this transport can take a pawn (once per call)
            spots = sirens[transport] = [
                (pawn, to) for pawn, city in st.pawn_pos.items()
                for to in board.by_transport[city].get(transport, ()) if to not in occupied]
        actions += [{"seat": TEAM, "type": "siren", "pay": pay, "pawn": pawn, "to": to}
                    for pawn, to in spots]
    return actions


def refill_draw(st: State, action: dict[str, Any]) -> tuple[Rack, Rack, int] | None:
    """What a ``refill`` of the seat whose refill it is draws (MX-6.8): (tickets that come
    out whatever happens, the pile drawn from, how many from it). A bag with too few
    tickets gives all of them, then the rest from the tickets out of the game (MX-3.12).
    None for anything else."""
    seat = action.get("seat")
    if action.get("type") != "refill" or st.over or not isinstance(seat, str):
        return None
    if seat == MRX:
        turn = st.phase == PH_MRX_REFILL
    else:
        turn = st.phase == PH_DET_END and st.det_seats[st.refill_next] == seat
    if not turn:
        return None
    in_bag, in_out = rack_size(st.bag), rack_size(st.out)
    need = min(st.limit[seat] - rack_size(st.racks[seat]), in_bag + in_out)
    if in_bag >= need:
        return {}, dict(st.bag), need
    return dict(st.bag), dict(st.out), need - in_bag


def chance_options(st: State, action: dict[str, Any]) -> list[dict[str, Any]]:
    """A ``refill`` of the seat whose refill it is: one completed action per multiset of
    tickets the draw could give (:func:`refill_draw`). Anything else: no chance."""
    draw = refill_draw(st, action)
    if draw is None:
        return [action]
    taken, pile, count = draw
    draws = []
    for rest in sub_multisets(pile, size=count):
        drawn = dict(taken)
        add_all(drawn, rest)
        draws.append(drawn)
    return [{**action, "tickets": rack_list(drawn)} for drawn in draws]


def legal_actions(st: State, seat: str) -> list[dict[str, Any]]:
    """Every action ``seat`` may take now; refills without their (chance) tickets."""
    if st.winner is not None:
        return []
    phase = st.phase
    if seat == MRX:
        if phase == PH_MRX:
            return _mrx_legal(st)
        if phase == PH_MRX_REFILL:
            return _refill_legal(st, MRX)
        return []
    if seat == TEAM:
        return _special_legal(st) if st.special_open() else []
    if seat not in st.pawns_of:
        return []
    if phase == PH_PAWNS:
        return _pawn_legal(st, seat)
    if phase == PH_DET_END and st.det_seats[st.refill_next] == seat:
        return _refill_legal(st, seat)
    return []


def _pawn_legal(st: State, seat: str) -> list[dict[str, Any]]:
    """The moves of the seat's pawns that have not moved (a pawn without one stays)."""
    board = st.board
    table = board.listing or listing(board)
    moves_of = table.pawn
    actions: list[dict[str, Any]] = []
    tickets = sorted(st.racks[seat])
    occupied, moved, pawn_pos = st.occupied, st.moved, st.pawn_pos
    for pawn in st.pawns_of[seat]:
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
