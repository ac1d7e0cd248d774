"""Mister X: the opening (MX-2): the pawns' shares among the detectives' seats, the start
cities and the racks, as the log's setup records them or the seed deals them."""

from __future__ import annotations

from typing import Any

from engine.core.errors import IllegalAction
from engine.core.fields import get_dict, get_int, get_str
from engine.core.messages import msg
from engine.core.rng import Rng
from engine.games.misterx.board import MISSION_COLOURS, Board, resolve_board
from engine.games.misterx.state import (
    DEFAULT_BOARD,
    MRX,
    MRX_RACK,
    PH_MRX,
    MisterXState,
    Rack,
    contains,
    default_shares,
    det_seat_ids,
    draw_from,
    rack_list,
    rack_of,
    remove_all,
)
from engine.games.misterx.tickets import read_tickets


# --- setup ---------------------------------------------------------------------------
def check_pawn_shares(board: Board, det_seats: list[str], pawns_opt: Any) -> dict[str, list[str]]:
    """``options.pawns`` checked (MX-6.10), or the default shares when absent."""
    if pawns_opt is None:
        return default_shares(board.pawns, det_seats)
    if not isinstance(pawns_opt, dict):
        raise IllegalAction("MX-6.10", msg("mx.refuse.options_pawns_map_each_detective"))
    if sorted(pawns_opt) != sorted(det_seats):
        raise IllegalAction(
            "MX-6.10",
            msg("mx.refuse.options_pawns_name_exactly_detective", det_seats=", ".join(det_seats)),
        )
    given: list[str] = []
    for seat in det_seats:
        share = pawns_opt[seat]
        if not (isinstance(share, list) and bool(share) and all(isinstance(p, str) for p in share)):
            raise IllegalAction(
                "MX-6.10", msg("mx.refuse.options_pawns_non_empty_list", seat=repr(seat))
            )
        given.extend(share)
    if sorted(given) != sorted(board.pawns):
        raise IllegalAction(
            "MX-6.10", msg("mx.refuse.options_pawns_give_each_board", pawns=", ".join(board.pawns))
        )
    sizes = [len(pawns_opt[s]) for s in det_seats]
    if max(sizes) - min(sizes) > 1:
        raise IllegalAction("MX-6.10", msg("mx.refuse.pawns_shared_out_as_evenly"))
    return {s: list(pawns_opt[s]) for s in det_seats}


def new_state(
    options: dict[str, Any], seats: list[str], setup: dict[str, Any], rng: Rng | None
) -> MisterXState:
    board = resolve_board(options.get("board", DEFAULT_BOARD))
    det_seats = [s for s in det_seat_ids(5) if s in seats]
    pawns_of = check_pawn_shares(board, det_seats, options.get("pawns"))
    state = MisterXState.__new__(MisterXState)
    state.board = board
    state.det_seats = det_seats
    state.pawns_of = pawns_of
    state.owner = {p: s for s, ps in pawns_of.items() for p in ps}
    state.limit = {MRX: MRX_RACK, **{s: 4 + len(ps) for s, ps in pawns_of.items()}}

    # MX-2.3: the mission colour and Mister X's start (choices, never chance)
    state.mission = get_str(
        setup, "mission", "MX-2.3", msg("core.what.setup"), choices=MISSION_COLOURS
    )
    mission = board.missions[state.mission]
    state.destinations = mission.destinations
    start = get_int(setup, "start", "MX-2.3", msg("core.what.setup"))
    if start not in mission.starts:
        raise IllegalAction(
            "MX-2.3",
            msg(
                "mx.refuse.mister_x_start_one_start",
                mission=msg(f"mx.mission.{state.mission}"),
                starts=str(list(mission.starts)),
                start=str(start),
            ),
        )
    state.path = [start]
    state.slots = [None]

    # MX-2.2: one start card per pawn
    given_pawns = setup.get("pawns")
    if rng is not None:
        cards = sorted(board.start_cards)
        pawn_pos = {
            p: c for p, c in zip(board.pawns, rng.draw(cards, len(board.pawns)), strict=True)
        }
        if given_pawns is not None and given_pawns != pawn_pos:
            raise IllegalAction(
                "MX-2.2",
                msg(
                    "mx.refuse.setup_s_pawn_cities_differ",
                    given_pawns=str(given_pawns),
                    pawn_pos=str(pawn_pos),
                ),
            )
    else:
        if given_pawns is None:
            raise IllegalAction("MX-2.2", msg("mx.refuse.without_seed_setup_record_each"))
        pawn_pos = dict(get_dict(setup, "pawns", "MX-2.2", msg("core.what.setup")))
        if sorted(pawn_pos) != sorted(board.pawns):
            raise IllegalAction(
                "MX-2.2", msg("mx.refuse.setup_pawns_give_start_city", pawns=", ".join(board.pawns))
            )
        for pawn, city in pawn_pos.items():
            if not (isinstance(city, int) and city in board.start_cards):
                raise IllegalAction(
                    "MX-2.2",
                    msg("mx.refuse.pawn_start_start_card_city", pawn=pawn, city=repr(city)),
                )
        if len(set(pawn_pos.values())) != len(pawn_pos):
            raise IllegalAction("MX-2.2", msg("mx.refuse.two_pawns_cannot_start_same"))
    state.pawn_pos = {p: pawn_pos[p] for p in board.pawns}
    state.occupied = {c: p for p, c in state.pawn_pos.items()}

    # MX-2.1: racks
    bag = {t: n for t, n in board.tickets.items() if n}
    given_racks = setup.get("racks")
    order = [MRX, *det_seats]
    racks: dict[str, Rack] = {}
    if rng is not None:
        for seat in order:
            racks[seat] = rack_of(draw_from(bag, state.limit[seat], rng))
        if given_racks is not None:
            if not isinstance(given_racks, dict):
                raise IllegalAction("MX-2.1", msg("mx.refuse.setup_racks_object"))
            for seat in order:
                mine = given_racks.get(seat)
                if not (isinstance(mine, list) and rack_of(mine) == racks[seat]):
                    raise IllegalAction(
                        "MX-2.1",
                        msg(
                            "mx.refuse.setup_racks_differs_from_seed",
                            seat=repr(seat),
                            racks=rack_list(racks[seat]),
                        ),
                    )
    else:
        if given_racks is None:
            raise IllegalAction("MX-2.1", msg("mx.refuse.without_seed_setup_record_every"))
        given = get_dict(setup, "racks", "MX-2.1", msg("core.what.setup"))
        if sorted(given) != sorted(order):
            raise IllegalAction(
                "MX-2.1", msg("mx.refuse.setup_racks_have_exactly_seats", order=", ".join(order))
            )
        for seat in order:
            tickets = read_tickets(board, given, seat, "MX-2.1", f"setup.racks[{seat!r}]")
            if len(tickets) != state.limit[seat]:
                raise IllegalAction(
                    "MX-2.1",
                    msg(
                        "mx.refuse.draws_tickets_start",
                        seat=seat,
                        count=state.limit[seat],
                        n_tickets=len(tickets),
                    ),
                )
            rack = rack_of(tickets)
            if not contains(bag, rack):
                raise IllegalAction(
                    "MX-2.1", msg("mx.refuse.racks_hold_more_tickets_than", seat=seat)
                )
            remove_all(bag, rack)
            racks[seat] = rack
    state.racks = racks
    state.bag = bag
    state.out = {}
    state.round = 1
    state.phase = PH_MRX
    state.moved = ()
    state.discarded = ()
    state.refill_next = 0
    state.special_done = False
    state.revealed = {}
    state.reveals = []
    state.winner = None
    state.reason = None
    state.rng = rng
    state.events = []
    state.events_own = True
    state.possible_cache = None
    return state


def setup_record(state: MisterXState) -> dict[str, Any]:
    """The complete setup of a fresh state (every chance outcome written out)."""
    return {
        "mission": state.mission,
        "start": state.path[0],
        "pawns": dict(state.pawn_pos),
        "racks": {s: rack_list(state.racks[s]) for s in state.seats()},
    }
