"""What each seat sees (MX-5).

Viewers: ``None`` (all-seeing: the true path, every rack, the bag), ``mrx``
(everything but the bag and the detectives' racks), ``det1``..``detK`` (public
information plus their own rack) and ``detectives`` (public information plus
every detective rack).

Public: pawn positions, the ticket board (transports of face-up tickets, slots of
face-down ones), revealed positions, Mister X's position in open play (slots
25..), the mission colour, discards, tickets paid for special actions, rack
sizes. A view reads the hidden parts of the state only where its viewer may
know them; ``tests/engine/test_misterx_views.py`` checks this by changing the
hidden parts and asserting the view does not change.
"""

from __future__ import annotations

import functools
from typing import Any

from engine.core.game import Table
from engine.core.messages import DEFAULT_LOCALE, Message, catalog, locales, msg, render
from engine.games.misterx import sentences
from engine.games.misterx.board import MISSION_COLOURS, Board
from engine.games.misterx.knowledge import possible_positions
from engine.games.misterx.rules import result
from engine.games.misterx.state import HIDDEN_SLOTS, MRX, TEAM, MisterXState, rack_list, rack_size


def sees_rack(viewer: str | None, seat: str | None) -> bool:
    if viewer is None or viewer == seat:
        return True
    return viewer == TEAM and seat != MRX


def _knows_path(viewer: str | None) -> bool:
    return viewer is None or viewer == MRX


def _checklist(state: MisterXState, viewer: str | None) -> list[dict[str, Any]]:
    """One entry per filled slot 1..: the ticket board plus what is known of the city."""
    full = _knows_path(viewer)
    rows = []
    for slot in range(1, len(state.path)):
        ticket, face_up = state.slot(slot)
        row: dict[str, Any] = {
            "slot": slot,
            "on_board": slot <= HIDDEN_SLOTS,
            "face_up": face_up,
            "transport": ticket.partition("/")[0] if face_up else None,
        }
        if full:
            row["ticket"] = ticket
        if full or state.is_public_slot(slot):
            row["city"] = state.path[slot]
        rows.append(row)
    return rows


def view(state: MisterXState, viewer: str | None) -> dict[str, Any]:
    full = _knows_path(viewer)
    last = state.last_slot
    known = {
        slot: state.path[slot]
        for slot in range(len(state.path))
        if full or state.is_public_slot(slot)
    }
    mrx: dict[str, Any] = {
        "rack_size": rack_size(state.racks[MRX]),
        "position": state.path[-1] if (full or state.is_public_slot(last)) else None,
        "known": {str(slot): city for slot, city in known.items()},
        # Deduced from public information only (possible.py), so every viewer may have
        # it: the detectives' overlay, and for the all-seeing view the comparison.
        "possible": sorted(possible_positions(state)),
    }
    if full:
        mrx["rack"] = rack_list(state.racks[MRX])
        mrx["path"] = list(state.path)
    racks: dict[str, Any] = {}
    for seat in state.det_seats:
        entry: dict[str, Any] = {
            "size": rack_size(state.racks[seat]),
            "pawns": list(state.pawns_of[seat]),
        }
        if sees_rack(viewer, seat):
            entry["tickets"] = rack_list(state.racks[seat])
        racks[seat] = entry
    out: dict[str, Any] = {
        "round": state.round,
        "phase": state.phase,
        "board": state.board.key,
        "mission": state.mission,
        "destinations": sorted(state.destinations),
        "slots_filled": last,
        "open_play": last > HIDDEN_SLOTS,
        "pawns": dict(state.pawn_pos),
        "moved": sorted(state.moved),
        "checklist": _checklist(state, viewer),
        "reveals": [dict(r) for r in state.reveals],
        "mrx": mrx,
        "racks": racks,
        "bag_size": rack_size(state.bag),
        "out_of_game": rack_list(state.out),
        "result": result(state),
    }
    if viewer is None:
        out["bag"] = rack_list(state.bag)
    return out


def board_names(board: Board) -> dict[str, str]:
    """A shipped board's name in every language the engine speaks (``mx.board.<id>-<version>``:
    ``Europe (Lantern): Lantern's own board, not the printed one``); none for a board the
    catalogs do not name."""
    message_id = f"mx.board.{board.id}-{board.version}"
    if message_id not in catalog(DEFAULT_LOCALE):
        return {}
    return {locale: render(msg(message_id), locale) for locale in locales()}


@functools.cache
def board_view(board: Board) -> dict[str, Any]:
    """The board as a replay draws it: cities at their drawing coordinates, connections
    by transport, each mission's start and destination cities, the pawns. Boards never
    change, so this is computed once per board (callers must not modify it)."""
    return {
        "key": board.key,
        "name": board.name,
        # The board's name in each language, so a page names it in its reader's: a
        # shipped board's from the catalogs; a board a log brings keeps its own.
        "names": board_names(board),
        # ``names``: the city in other languages (``{"ja": …, "ru": …}``), so a page draws
        # the map in its reader's language; ``name`` is the city's (English) name.
        "cities": [
            {
                "id": c.id,
                "name": c.name,
                "names": dict(c.names),
                "country": c.country,
                "x": c.x,
                "y": c.y,
            }
            for c in sorted(board.cities.values(), key=lambda c: c.id)
        ],
        "connections": [list(edge) for edge in board.connections],
        "missions": {
            colour: {"starts": list(m.starts), "destinations": sorted(m.destinations)}
            for colour, m in board.missions.items()
        },
        "pawns": list(board.pawns),
    }


def action_view(
    st_after: MisterXState, action: dict[str, Any], viewer: str | None
) -> dict[str, Any]:
    """``action`` (as recorded) as ``viewer`` saw it, judged just after it was taken."""
    seat, kind = action.get("seat"), action.get("type")
    if kind == "refill":
        if sees_rack(viewer, seat):
            return action
        shown = {k: v for k, v in action.items() if k != "tickets"}
        shown["count"] = len(action.get("tickets") or [])
        return shown
    if kind == "investigate":
        last = st_after.reveals[-1] if st_after.reveals else None
        if last is not None and last["by"] == "investigate" and last["round"] == st_after.round:
            return {**action, "reveal": {"slot": last["slot"], "city": last["city"]}}
        return action
    if seat != MRX or _knows_path(viewer) or kind not in ("move", "double", "secret"):
        return action
    # Mister X's move seen by a detective: destinations only in open play (MX-3.11)
    steps = len(action["moves"]) if kind == "double" else 1
    first_slot = st_after.last_slot - steps + 1

    def city(slot: int, to: Any) -> dict[str, Any]:
        return {"to": to} if st_after.is_public_slot(slot) else {}

    if kind == "move":
        return {
            "seat": seat,
            "type": kind,
            "ticket": action["ticket"],
            "slot": first_slot,
            **city(first_slot, action["to"]),
        }
    if kind == "double":
        moves = [
            {"ticket": m["ticket"], "slot": first_slot + i, **city(first_slot + i, m["to"])}
            for i, m in enumerate(action["moves"])
        ]
        return {"seat": seat, "type": kind, "pay": list(action["pay"]), "moves": moves}
    return {
        "seat": seat,
        "type": kind,
        "pay": list(action["pay"]),
        "slot": first_slot,
        **city(first_slot, action["to"]),
    }


def render_text(state: MisterXState, locale: str = DEFAULT_LOCALE) -> str:
    """The all-seeing state as text in ``locale``: cities by their names in that language,
    tickets by transport and icon."""
    board = state.board

    def say(message: Message | str) -> str:
        return render(message, locale)

    def at(city: int) -> Message:
        return msg("mx.text.city", id=city, name=sentences.city_name(board, city))

    table = Table({}, {})
    lines = [
        say(
            msg(
                "mx.text.head",
                board=board.key,
                round=state.round,
                phase=sentences.phase_label(state.phase),
                mission=msg(f"mx.mission.{state.mission}")
                if state.mission in MISSION_COLOURS
                else str(state.mission),
                destinations=[at(d) for d in sorted(state.destinations)],
            )
        )
    ]
    lines.append(
        "  "
        + say(
            msg(
                "mx.text.mrx",
                city=at(state.position),
                slot=state.last_slot,
                path=" ".join(map(str, state.path)),
            )
        )
    )
    lines.append(
        "  "
        + say(
            msg(
                "mx.text.rack",
                seat=msg("mx.seat.mrx"),
                tickets=sentences.tickets(rack_list(state.racks[MRX])),
            )
        )
    )
    for seat in state.det_seats:
        pawns = [
            msg(
                "mx.text.pawn_moved" if p in state.moved else "mx.text.pawn",
                pawn=sentences.pawn_colour(p),
                city=at(state.pawn_pos[p]),
            )
            for p in state.pawns_of[seat]
        ]
        lines.append(
            "  "
            + say(
                msg(
                    "mx.text.detective",
                    seat=sentences.seat_name(seat, table),
                    pawns=pawns,
                    tickets=sentences.tickets(rack_list(state.racks[seat])),
                )
            )
        )
    board_row = []
    for slot in range(1, min(len(state.path), HIDDEN_SLOTS + 1)):
        ticket, face_up = state.slot(slot)
        transport = ticket.partition("/")[0]
        board_row.append(f"{slot}:{say(msg(f'mx.transport.{transport}')) if face_up else '##'}")
    lines.append("  " + say(msg("mx.text.ticket_board", slots=" ".join(board_row) or "-")))
    if state.reveals:
        lines.append(
            "  "
            + say(
                msg(
                    "mx.text.reveals",
                    reveals=[
                        msg(
                            "mx.text.reveal",
                            slot=r["slot"],
                            city=at(r["city"]),
                            round=r["round"],
                            by=sentences.seat_name(r["by"], table),
                        )
                        for r in state.reveals
                    ],
                )
            )
        )
    lines.append("  " + say(msg("mx.text.bag", bag=rack_size(state.bag), out=rack_size(state.out))))
    res = result(state)
    if res:
        lines.append("  " + say(sentences.describe_result(res, table)))
    return "\n".join(lines)
