"""Mister X: the rules (``MX-*`` in ``docs/rules/mister-x.md``).

Setup, and the checking/applying of every action (who may act and what they may do:
:mod:`.legal`). ``apply`` mutates the state in place and returns the action as
recorded, with chance outcomes (setup racks and start cards, refills) filled in from
the seed when the log leaves them out.

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
from engine.core.fields import get_dict, get_list, get_str
from engine.core.messages import msg
from engine.games.misterx.sentences import not_a_city, pawn_colour
from engine.games.misterx.state import (
    CHECK_WINDOW,
    HIDDEN_SLOTS,
    ICON_OF,
    INVESTIGATE_BACK,
    MRX,
    PH_DET_END,
    PH_MRX,
    PH_MRX_REFILL,
    PH_OVER,
    PH_PAWNS,
    SIREN_TRANSPORT,
    SPECIAL_FROM_ROUND,
    TEAM,
    TRANSPORT_OF,
    MisterXState,
    Rack,
    add_all,
    contains,
    draw_from,
    rack_list,
    rack_of,
    rack_size,
    remove_all,
    remove_one,
)
from engine.games.misterx.tickets import (
    STR_TYPE,
    need_tickets,
    read_payment,
    read_ticket,
    read_tickets,
)

_INT = int


# --- Mister X ------------------------------------------------------------------------
def _end(state: MisterXState, winner: str, reason: str) -> None:
    state.winner = winner
    state.reason = reason
    state.phase = PH_OVER


def _check_mrx_step(
    state: MisterXState,
    frm: int,
    transport: str | None,
    to: Any,
    rule: str,
    occupied_rule: str = "MX-6.2",
) -> int:
    """One step of Mister X: along ``transport`` (any when None) to a city without a
    detective (MX-6.2; MX-3.3 names the first step of a double)."""
    board = state.board
    if to.__class__ is not _INT or to not in board.cities:
        raise IllegalAction(rule, not_a_city(to))
    if transport is None:
        if to not in board.neighbours[frm]:
            raise IllegalAction(rule, msg("mx.refuse.city_neighbour_city", to=to, frm=frm))
    elif to not in board.by_transport[frm].get(transport, ()):
        raise IllegalAction(
            rule,
            msg(
                "mx.refuse.there_no_connection_from_city",
                transport=msg(f"mx.transport.{transport}"),
                frm=frm,
                to=to,
            ),
        )
    if to in state.occupied:
        raise IllegalAction(
            occupied_rule,
            msg(
                "mx.refuse.mister_x_cannot_move_onto",
                to=to,
                occupant=pawn_colour(state.occupied.get(to)),
            ),
        )
    return to


def _mrx_step(state: MisterXState, ticket: str, face_up: bool, to: int) -> None:
    """Record one Mister X move on the next slot (MX-3.1, MX-3.11) and end the game on
    a destination (MX-3.6)."""
    slot = len(state.path)
    state.path.append(to)
    state.slots.append((ticket, face_up))
    if slot > HIDDEN_SLOTS:  # open play: the ticket goes back into the bag
        bag = state.bag
        bag[ticket] = bag.get(ticket, 0) + 1
    (state.events if state.events_own else state.own_events()).append(
        (
            "mx",
            slot,
            TRANSPORT_OF[ticket] if face_up else None,
            frozenset(state.occupied),
            to if slot > HIDDEN_SLOTS else None,
        )
    )
    if to in state.destinations:
        _end(state, MRX, "destination")


def mrx_move(state: MisterXState, action: dict[str, Any]) -> None:
    """MX-3.2: one ticket, one step along its transport."""
    ticket, to = action.get("ticket"), action.get("to")
    rack = state.racks[MRX]
    # Every legal move passes this one test (a ticket held, its transport to a free city);
    # anything else goes through the checks one by one, for the rule to cite.
    if not (
        ticket.__class__ is STR_TYPE
        and ticket in rack
        and to.__class__ is _INT
        and to in state.board.by_transport[state.path[-1]].get(TRANSPORT_OF[ticket], ())
        and to not in state.occupied
    ):
        ticket = read_ticket(state.board, ticket, "MX-3.2", msg("mx.what.mrx_move"))
        if ticket not in rack:
            need_tickets(rack, {ticket: 1}, "MX-3.2", msg("mx.seat.mrx"))
        to = _check_mrx_step(state, state.path[-1], TRANSPORT_OF[ticket], to, "MX-3.2")
    remove_one(rack, ticket)
    _mrx_step(state, ticket, True, to)


def mrx_double(state: MisterXState, action: dict[str, Any]) -> None:
    """MX-3.3 / MX-6.1: 3 ``double`` tickets out of the game, then two moves."""
    pay = read_payment(state, action, "double", "MX-3.3")
    moves = get_list(action, "moves", "MX-3.3")
    if len(moves) not in (1, 2):
        raise IllegalAction("MX-3.3", msg("mx.refuse.double_move_lists_two_moves"))
    for m in moves:
        if not isinstance(m, dict):
            raise IllegalAction("MX-3.3", msg("mx.refuse.each_move_double_object_with"))
    tickets = [
        read_ticket(state.board, m.get("ticket"), "MX-3.3", msg("mx.what.double_step"))
        for m in moves
    ]
    rack = state.racks[MRX]
    need_tickets(rack, rack_of(pay + tickets), "MX-3.3", msg("mx.seat.mrx"))
    first = _check_mrx_step(
        state,
        state.path[-1],
        TRANSPORT_OF[tickets[0]],
        moves[0].get("to"),
        "MX-3.3",
        occupied_rule="MX-3.3",
    )
    if first in state.destinations:
        if len(moves) != 1:
            raise IllegalAction("MX-6.1", msg("mx.refuse.first_step_reaches_destination_ends"))
    else:
        if len(moves) != 2:
            raise IllegalAction("MX-3.3", msg("mx.refuse.double_move_makes_two_moves"))
        _check_mrx_step(state, first, TRANSPORT_OF[tickets[1]], moves[1].get("to"), "MX-3.3")
    out = state.out
    for t in pay:
        remove_one(rack, t)
        out[t] = out.get(t, 0) + 1
    for ticket, m in zip(tickets, moves, strict=True):
        remove_one(rack, ticket)
        _mrx_step(state, ticket, True, m["to"])
        if state.winner is not None:
            return


def mrx_secret(state: MisterXState, action: dict[str, Any]) -> None:
    """MX-3.4 / MX-6.4: 3 ``secret`` tickets out of the game, a 4th face down, any line."""
    pay = read_payment(state, action, "secret", "MX-3.4")
    ticket = read_ticket(state.board, action.get("ticket"), "MX-3.4", msg("mx.what.face_down"))
    rack = state.racks[MRX]
    need_tickets(rack, rack_of([*pay, ticket]), "MX-6.4", msg("mx.seat.mrx"))
    to = _check_mrx_step(state, state.path[-1], None, action.get("to"), "MX-3.4")
    out = state.out
    for t in pay:
        remove_one(rack, t)
        out[t] = out.get(t, 0) + 1
    remove_one(rack, ticket)
    _mrx_step(state, ticket, False, to)


def mrx_can_move(state: MisterXState) -> bool:
    """Does Mister X have a move or a secret move (MX-6.3)?"""
    board, pos, rack = state.board, state.path[-1], state.racks[MRX]
    per = board.by_transport[pos]
    occupied = state.occupied
    for t in {TRANSPORT_OF[ticket] for ticket in rack}:
        if any(c not in occupied for c in per.get(t, ())):
            return True
    secrets = sum(n for ticket, n in rack.items() if ICON_OF[ticket] == "secret")
    return (
        secrets >= 3
        and rack_size(rack) >= 4
        and any(c not in occupied for c in board.neighbours[pos])
    )


def mrx_pass(state: MisterXState, action: dict[str, Any]) -> None:
    """MX-3.5 / MX-6.3: only without any move; the whole rack goes into the bag."""
    if mrx_can_move(state):
        raise IllegalAction("MX-6.3", msg("mx.refuse.mister_x_may_pass_only"))
    add_all(state.bag, state.racks[MRX])
    state.racks[MRX] = {}


# --- detectives ----------------------------------------------------------------------
def pawn_can_move(state: MisterXState, pawn: str) -> bool:
    """MX-6.6: does the pawn's own seat hold a ticket that moves it to a free city?
    Mister X's city counts as free (MX-6.5)."""
    per = state.board.by_transport[state.pawn_pos[pawn]]
    occupied = state.occupied
    for t in {TRANSPORT_OF[ticket] for ticket in state.racks[state.owner[pawn]]}:
        if any(c not in occupied for c in per.get(t, ())):
            return True
    return False


def _own_pawn(state: MisterXState, seat: str, action: dict[str, Any]) -> str:
    pawn = action.get("pawn")
    if pawn.__class__ is not STR_TYPE or state.owner.get(pawn) != seat or pawn in state.moved:
        pawn = get_str(action, "pawn", "MX-3.7")
        if pawn not in state.owner:
            raise IllegalAction(
                "MX-3.7",
                msg(
                    "mx.refuse.there_no_pawn_pawns",
                    pawn=repr(pawn),
                    pawns=", ".join(state.board.pawns),
                ),
            )
        if state.owner[pawn] != seat:
            raise IllegalAction(
                "MX-6.10",
                msg("mx.refuse.pawn_played_by", pawn=pawn, owner=str(state.owner[pawn]), seat=seat),
            )
        if pawn in state.moved:
            raise IllegalAction("MX-3.7", msg("mx.refuse.pawn_has_already_moved_round", pawn=pawn))
    return pawn


def _pawn_to(state: MisterXState, pawn: str, to: int) -> None:
    """Move a pawn; entering Mister X's city catches him (MX-6.5, MX-4.1)."""
    occupied = state.occupied
    del occupied[state.pawn_pos[pawn]]
    state.pawn_pos[pawn] = to
    occupied[to] = pawn
    if to == state.path[-1]:
        _end(state, TEAM, "caught")
    else:
        state.own_events().append(("not", len(state.path) - 1, (to,)))


def _check_pawn_step(state: MisterXState, pawn: str, transport: str, to: Any, rule: str) -> int:
    if to.__class__ is not _INT or to not in state.board.cities:
        raise IllegalAction(rule, not_a_city(to))
    frm = state.pawn_pos[pawn]
    if to not in state.board.by_transport[frm].get(transport, ()):
        raise IllegalAction(
            rule,
            msg(
                "mx.refuse.there_no_connection_from_city",
                transport=msg(f"mx.transport.{transport}"),
                frm=frm,
                to=to,
            ),
        )
    if to in state.occupied:
        raise IllegalAction(
            rule,
            msg(
                "mx.refuse.pawn_cannot_enter_city_pawn",
                pawn=pawn,
                to=to,
                occupant=pawn_colour(state.occupied.get(to)),
            ),
        )
    return to


def _after_pawn(state: MisterXState, pawn: str) -> None:
    moved = state.moved = (*state.moved, pawn)
    if len(moved) == len(state.pawn_pos) and state.winner is None:
        state.phase = PH_DET_END


def det_move(state: MisterXState, seat: str, action: dict[str, Any]) -> None:
    """MX-3.7 step 1: a pawn moves with a ticket from its seat's rack; ticket to the bag."""
    pawn, ticket, to = action.get("pawn"), action.get("ticket"), action.get("to")
    rack = state.racks[seat]
    # The checks below in one test (the pawn is the seat's and has not moved, the seat
    # holds the ticket, its transport leads to the free city): every legal move passes
    # here; anything else goes through them one by one for the rule to cite.
    if not (
        pawn.__class__ is STR_TYPE
        and state.owner.get(pawn) == seat
        and pawn not in state.moved
        and ticket.__class__ is STR_TYPE
        and ticket in rack
        and to.__class__ is _INT
        and to in state.board.by_transport[state.pawn_pos[pawn]].get(TRANSPORT_OF[ticket], ())
        and to not in state.occupied
    ):
        pawn = _own_pawn(state, seat, action)
        ticket = read_ticket(state.board, ticket, "MX-3.7", msg("mx.what.pawn_move", pawn=pawn))
        need_tickets(rack, {ticket: 1}, "MX-3.7", seat)
        _check_pawn_step(state, pawn, TRANSPORT_OF[ticket], to, "MX-3.7")
        raise AssertionError("det_move: a check above must have failed")  # pragma: no cover
    left = rack[ticket] - 1
    if left:
        rack[ticket] = left
    else:
        del rack[ticket]
    bag = state.bag
    bag[ticket] = bag.get(ticket, 0) + 1  # MX-6.6: into the bag at once
    # _pawn_to and _after_pawn, written out (the action a replay meets most)
    occupied, pawn_pos = state.occupied, state.pawn_pos
    del occupied[pawn_pos[pawn]]
    pawn_pos[pawn] = to
    occupied[to] = pawn
    path = state.path
    if to == path[-1]:
        _end(state, TEAM, "caught")
    else:
        (state.events if state.events_own else state.own_events()).append(
            ("not", len(path) - 1, (to,))
        )
    moved = state.moved = (*state.moved, pawn)
    if len(moved) == len(pawn_pos) and state.winner is None:
        state.phase = PH_DET_END


def det_stay(state: MisterXState, seat: str, action: dict[str, Any]) -> None:
    """MX-3.7 / MX-6.6: a pawn stays only when its seat holds no ticket that moves it."""
    pawn = _own_pawn(state, seat, action)
    if pawn_can_move(state, pawn):
        raise IllegalAction(
            "MX-3.7", msg("mx.refuse.pawn_move_holds_ticket_that", pawn=pawn, seat=seat)
        )
    _after_pawn(state, pawn)


def _special_pay(
    state: MisterXState, action: dict[str, Any], icon: str, rule: str
) -> tuple[dict[str, Rack], int]:
    if state.phase != PH_DET_END:
        raise IllegalAction("MX-3.7", msg("mx.refuse.detectives_special_action_comes_after"))
    if state.round < SPECIAL_FROM_ROUND:
        raise IllegalAction(
            "MX-3.7",
            msg(
                "mx.refuse.special_actions_allowed_from_round",
                special_from_round=SPECIAL_FROM_ROUND,
                round=str(state.round),
            ),
        )
    if state.special_done:
        raise IllegalAction("MX-6.7", msg("mx.refuse.most_one_special_action_per"))
    if not state.special_open():
        raise IllegalAction("MX-3.7", msg("mx.refuse.special_action_comes_before_detectives"))
    pay = get_dict(action, "pay", rule)
    per_seat: dict[str, Rack] = {}
    total = 0
    for seat, tickets in pay.items():
        if seat not in state.det_seats:
            raise IllegalAction("MX-6.10", msg("mx.refuse.detective_seat", seat=repr(seat)))
        if not isinstance(tickets, list):
            raise IllegalAction(rule, msg("mx.refuse.pay_list_tickets", seat=repr(seat)))
        tickets = [read_ticket(state.board, t, rule, f"pay[{seat!r}]") for t in tickets]
        for t in tickets:
            if ICON_OF[t] != icon:
                raise IllegalAction(
                    rule, msg("mx.refuse.special_action_paid_with_tickets2", icon=icon, t=t)
                )
        limit = len(state.pawns_of[seat])
        if len(tickets) > limit:
            raise IllegalAction(
                "MX-3.7",
                msg(
                    "mx.refuse.controls_pawn_s_may_give",
                    seat=seat,
                    count=limit,
                    n_tickets=len(tickets),
                ),
            )
        rack = rack_of(tickets)
        need_tickets(state.racks[seat], rack, rule, seat)
        per_seat[seat] = rack
        total += len(tickets)
    if total not in (3, 4, 5):
        raise IllegalAction(
            "MX-6.7", msg("mx.refuse.special_action_paid_with_tickets", count=total)
        )
    return per_seat, total


def _spend(state: MisterXState, per_seat: dict[str, Rack]) -> None:
    for seat, rack in per_seat.items():
        remove_all(state.racks[seat], rack)
        add_all(state.out, rack)


def reveal(state: MisterXState, slot: int, by: str) -> None:
    city = state.path[slot]
    if slot not in state.revealed:
        state.revealed = {**state.revealed, slot: city}
        state.own_events().append(("reveal", slot, city))
    state.reveals = [*state.reveals, {"round": state.round, "slot": slot, "city": city, "by": by}]


def det_investigate(state: MisterXState, action: dict[str, Any]) -> None:
    """MX-3.8: 3/4/5 ``investigate`` tickets reveal the city of 4/3/2 moves ago."""
    per_seat, total = _special_pay(state, action, "investigate", "MX-3.8")
    slot = state.last_slot - INVESTIGATE_BACK[total]
    if slot < 0:
        raise IllegalAction(
            "MX-6.7",
            msg(
                "mx.refuse.tickets_aim_moves_back_before",
                total=total,
                investigate_back=str(INVESTIGATE_BACK[total]),
                last_slot=str(state.last_slot),
            ),
        )
    _spend(state, per_seat)
    state.special_done = True
    reveal(state, slot, "investigate")


def det_siren(state: MisterXState, action: dict[str, Any]) -> None:
    """MX-3.9: 3/4/5 ``siren`` tickets move one pawn a step by car/train/plane."""
    per_seat, total = _special_pay(state, action, "siren", "MX-3.9")
    pawn = get_str(action, "pawn", "MX-3.9")
    if pawn not in state.pawn_pos:
        raise IllegalAction("MX-3.9", msg("mx.refuse.there_no_pawn", pawn=repr(pawn)))
    to = _check_pawn_step(state, pawn, SIREN_TRANSPORT[total], action.get("to"), "MX-3.9")
    _spend(state, per_seat)
    state.special_done = True
    _pawn_to(state, pawn, to)


# --- discard and refill --------------------------------------------------------------
def _refill_turn(state: MisterXState, seat: str, kind: str) -> None:
    """Is it ``seat``'s time to discard/refill (MX-3.1, MX-3.7, MX-6.9, MX-6.10)?"""
    if seat == MRX:
        if state.phase != PH_MRX_REFILL:
            raise IllegalAction(
                "MX-3.1", msg("mx.refuse.mister_x_may_only_after", kind=msg(f"mx.verb.{kind}"))
            )
        return
    if state.phase != PH_DET_END:
        raise IllegalAction(
            "MX-3.7",
            msg("mx.refuse.detectives_after_all_five_pawns", kind=msg(f"mx.verb.{kind}"))
            if state.phase == PH_PAWNS
            else msg("mx.refuse.detectives_time", kind=msg(f"mx.verb.{kind}")),
        )
    expected = state.det_seats[state.refill_next]
    if seat != expected:
        raise IllegalAction(
            "MX-6.10", msg("mx.refuse.discards_refills_before", expected=expected, seat=seat)
        )


def discard(state: MisterXState, seat: str, action: dict[str, Any]) -> None:
    """MX-3.1 step 3 / MX-3.7 step 3 / MX-6.9: tickets back into the bag, once, before the
    refill."""
    _refill_turn(state, seat, "discard")
    if seat in state.discarded:
        raise IllegalAction("MX-6.9", msg("mx.refuse.has_already_discarded_round", seat=seat))
    tickets = rack_of(
        read_tickets(state.board, action, "tickets", "MX-6.9", msg("mx.what.discard", seat=seat))
    )
    need_tickets(state.racks[seat], tickets, "MX-6.9", seat)
    remove_all(state.racks[seat], tickets)
    add_all(state.bag, tickets)
    state.discarded = (*state.discarded, seat)


def refill(state: MisterXState, seat: str, action: dict[str, Any]) -> list[str]:
    """MX-6.8 / MX-3.12: draw up to the rack limit; a dry bag takes back the tickets out of
    the game. Returns the tickets drawn, sorted."""
    if seat == MRX:
        if state.phase != PH_MRX_REFILL:
            _refill_turn(state, seat, "refill")
    elif state.phase != PH_DET_END or state.det_seats[state.refill_next] != seat:
        _refill_turn(state, seat, "refill")
    rack = state.racks[seat]
    bag = state.bag
    in_bag = sum(bag.values())
    need = state.limit[seat] - sum(rack.values())
    if need > in_bag:
        need = min(need, in_bag + sum(state.out.values()))
    given = action.get("tickets")
    if given is not None:
        tickets = state.board.tickets
        usual = given.__class__ is list
        if usual:
            for t in given:
                if t.__class__ is not STR_TYPE or t not in tickets:
                    usual = False
                    break
        if not usual:
            given = read_tickets(
                state.board, action, "tickets", "MX-6.8", msg("mx.what.refill", seat=seat)
            )
        if len(given) != need:
            raise IllegalAction(
                "MX-6.8",
                msg(
                    "mx.refuse.refills_ticket_s_reach_rack",
                    seat=seat,
                    count=need,
                    n_given=len(given),
                ),
            )
        given = sorted(given)
    rng = state.rng
    if rng is not None:
        if in_bag >= need:
            drawn = sorted(draw_from(bag, need, rng)) if need else []
        else:
            drawn = rack_list(bag)
            state.bag = state.out
            state.out = {}
            drawn = sorted(drawn + draw_from(state.bag, need - in_bag, rng))
        if given is not None and given != drawn:
            raise IllegalAction(
                "MX-6.8",
                msg(
                    "mx.refuse.s_refill_differs_from_seed",
                    seat=seat,
                    given=str(given),
                    drawn=str(drawn),
                ),
            )
    else:
        if given is None:
            raise IllegalAction("MX-6.8", msg("mx.refuse.without_seed_every_refill_list"))
        drawn = given
        wanted = rack_of(drawn)
        if in_bag >= need:
            if not contains(bag, wanted):
                raise IllegalAction(
                    "MX-6.8", msg("mx.refuse.s_refill_bag", seat=seat, drawn=str(drawn))
                )
            remove_all(bag, wanted)
        else:
            # MX-3.12: the whole bag, then the rest from the tickets that left the game
            if not contains(wanted, bag):
                raise IllegalAction(
                    "MX-6.8", msg("mx.refuse.bag_holds_only_ticket_s", count=in_bag)
                )
            remove_all(wanted, bag)
            if not contains(state.out, wanted):
                raise IllegalAction(
                    "MX-6.8",
                    msg("mx.refuse.s_refill_bag_among_tickets", seat=seat, drawn=str(drawn)),
                )
            state.bag = state.out
            state.out = {}
            remove_all(state.bag, wanted)
    for t in drawn:
        rack[t] = rack.get(t, 0) + 1
    if seat in state.discarded:
        state.discarded = tuple(s for s in state.discarded if s != seat)
    if seat == MRX:
        state.phase = PH_PAWNS
    else:
        state.refill_next += 1
        if state.refill_next == len(state.det_seats):
            position_check(state)
    return drawn


def position_check(state: MisterXState) -> None:
    """MX-3.10: reveal any of the 5 latest checklist cities a pawn stands on; next round."""
    path = state.path
    last = len(path) - 1
    first = max(0, last - CHECK_WINDOW + 1)
    if first <= HIDDEN_SLOTS:  # (slots after the 24th are public already)
        pawn_cities = frozenset(state.occupied)
        revealed = state.revealed  # (reveal below adds only the slot it reveals)
        events = state.events if state.events_own else state.own_events()
        for slot in range(first, min(last, HIDDEN_SLOTS) + 1):
            if slot in revealed:
                continue
            if path[slot] in pawn_cities:
                reveal(state, slot, "check")
            else:
                events.append(("not", slot, pawn_cities))
    state.round += 1
    state.phase = PH_MRX
    state.moved = ()
    state.discarded = ()
    state.refill_next = 0
    state.special_done = False


# --- dispatch ------------------------------------------------------------------------
_MRX_MOVES = {"move": mrx_move, "double": mrx_double, "secret": mrx_secret, "pass": mrx_pass}


def apply(state: MisterXState, action: dict[str, Any]) -> dict[str, Any]:
    """Check ``action`` against the rules, apply it to ``state`` in place, return it as recorded."""
    if action.__class__ is not dict and not isinstance(action, dict):
        raise IllegalAction("MX-3.1", msg("mx.refuse.action_object"))
    seat, kind = action["seat"], action["type"]
    if state.winner is not None:
        raise IllegalAction("MX-3.6", msg("mx.refuse.game_already_over_nothing_may"))
    if seat in state.pawns_of:
        if kind in ("move", "stay"):
            if state.phase != PH_PAWNS:
                raise IllegalAction("MX-3.7", msg("mx.refuse.pawns_move_after_mister_x"))
            if kind == "move":
                det_move(state, seat, action)
            else:
                det_stay(state, seat, action)
            return action
    elif seat == MRX:
        move = _MRX_MOVES.get(kind)
        if move is not None:
            if state.phase != PH_MRX:
                raise IllegalAction(
                    "MX-3.1",
                    msg("mx.refuse.mister_x_moves_once_start")
                    if state.phase != PH_OVER
                    else msg("mx.refuse.game_over"),
                )
            move(state, action)
            if state.winner is None:
                state.phase = PH_MRX_REFILL
            return action
    elif seat == TEAM:
        if kind == "investigate":
            det_investigate(state, action)
            return action
        if kind == "siren":
            det_siren(state, action)
            return action
        raise IllegalAction(
            "MX-3.7", msg("mx.refuse.detectives_team_takes_only_investigate", kind=repr(kind))
        )
    else:
        raise IllegalAction(
            "MX-6.10",
            msg(
                "mx.refuse.unknown_seat_seats",
                seat=repr(seat),
                seats=", ".join(state.seats()),
                team=str(TEAM),
            ),
        )
    if kind == "refill":
        drawn = refill(state, seat, action)
        if action.get("tickets") is None:
            return {**action, "tickets": drawn}
        return action
    if kind == "discard":
        discard(state, seat, action)
        return action
    rule = "MX-3.1" if seat == MRX else "MX-3.7"
    raise IllegalAction(rule, msg("mx.refuse.has_no_action", seat=seat, kind=repr(kind)))


def result(state: MisterXState) -> dict[str, Any] | None:
    if state.winner is None:
        return None
    return {"winner": state.winner, "reason": state.reason, "moves": state.last_slot}
