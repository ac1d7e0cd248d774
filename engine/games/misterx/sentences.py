"""Mister X actions and results as plain sentences (messages of ``locale/*.json``).

Built from an action as a viewer saw it (:func:`views.action_view`) and the public
table: a detective reads "Mister X takes the train (move 3), destination hidden"
where the all-seeing view names the city. Cities by their board names, detectives
by pawn colour and player ("Detective red (Dmitri)").
"""

from __future__ import annotations

from typing import Any

from engine.core.game import Table
from engine.core.messages import Message, localized_name, msg
from engine.games.misterx.board import Board, resolve_board
from engine.games.misterx.state import DEFAULT_BOARD, MRX, SIREN_TRANSPORT, TEAM, default_shares

TRANSPORTS = ("car", "train", "plane")
ICONS = ("double", "secret", "investigate", "siren")


def _board(table: Table) -> Board:
    return resolve_board(table.options.get("board", DEFAULT_BOARD))


def _city(board: Board, city: Any) -> Message | str:
    """A city by its board name, in the reader's language where the board has it."""
    found = board.cities.get(city) if isinstance(city, int) else None
    if found is None:
        return str(city)
    return localized_name(found.name, found.names) if found.names else found.name


def city_name(board: Board, city: Any) -> Message | str:
    """A city of ``board`` by its name in the reader's language (its id when unknown)."""
    return _city(board, city)


def _named(role: Message | str, player: str | None) -> Message | str:
    return msg("core.named", role=role, player=player) if player else role


def seat_name(seat: Any, table: Table) -> Message | str:
    """``Mister X (Bob)``, ``the detectives``, ``Dmitri`` (a detective seat is its player)."""
    if seat == MRX:
        return _named(msg("mx.seat.mrx"), table.players.get(MRX))
    if seat == TEAM:
        return msg("mx.seat.detectives")
    player = table.players.get(seat)
    if player:
        return player
    number = str(seat)[3:] if str(seat).startswith("det") else str(seat)
    return msg("mx.seat.det", number=number)


def _shares(table: Table) -> dict[str, list[str]]:
    """Which pawns each detective seat moves: the options', else the documented default."""
    shares = table.options.get("pawns")
    if isinstance(shares, dict):
        return shares
    det_seats = sorted(
        (s for s in table.players if str(s).startswith("det")), key=lambda s: int(s[3:])
    )
    return default_shares(_board(table).pawns, det_seats) if det_seats else {}


def _pawn_owner(pawn: Any, table: Table) -> str | None:
    shares = _shares(table)
    return next((seat for seat, pawns in shares.items() if pawn in pawns), None)


def seat_label(seat: str, table: Table) -> Message | str:
    """``Mister X``, ``The detectives`` (the team, as a perspective or a rated side), or a
    detective seat by the pawns it moves: ``Detectives red and blue``."""
    if seat == MRX:
        return msg("mx.seat.mrx")
    if seat == TEAM:
        return msg("mx.seat.detectives")
    pawns = list(_shares(table).get(seat, []))
    return (
        msg("mx.seat.pawns", count=len(pawns), pawns=[pawn_colour(p) for p in pawns])
        if pawns
        else seat
    )


def seat_short_label(seat: str, table: Table) -> Message | str:
    """``Mister X``; a detective seat by its pawns' colours alone: ``red, blue``."""
    pawns = list(_shares(table).get(seat, []))
    if seat in (MRX, TEAM) or not pawns:
        return seat_label(seat, table)
    return msg("mx.seat.pawns_short", pawns=[pawn_colour(p) for p in pawns])


def not_a_city(to: Any) -> Message:
    """Why a move's destination is refused: none is written, or it is no city of the board."""
    if to is None:
        return msg("mx.refuse.no_destination")
    return msg("mx.refuse.city_board", to=repr(to))


#: The pawn colours the catalogs name (``mx.pawn_colour.*``); a board's other pawn names
#: are said as written.
PAWN_COLOURS = ("red", "blue", "green", "yellow", "black")


def pawn_colour(pawn: Any) -> Message | str:
    """``red`` as a word of the reader's language (a board's own pawn name as is)."""
    return msg(f"mx.pawn_colour.{pawn}") if pawn in PAWN_COLOURS else str(pawn)


def pawn_name(pawn: Any, seat: Any, table: Table) -> Message | str:
    """``Detective red (Dmitri)``: a pawn by colour, with the player who moves it."""
    owner = seat if isinstance(seat, str) and seat.startswith("det") else _pawn_owner(pawn, table)
    return _named(
        msg("mx.pawn", colour=pawn_colour(pawn)), table.players.get(owner) if owner else None
    )


def _transport(ticket: Any) -> Message | str:
    transport = str(ticket).partition("/")[0]
    return msg(f"mx.by.{transport}") if transport in TRANSPORTS else str(ticket)


def ticket_name(ticket: Any) -> Message | str:
    """``train (double)``: a ticket by transport and icon."""
    transport, _, icon = str(ticket).partition("/")
    if transport in TRANSPORTS and icon in ICONS:
        return msg(
            "mx.ticket", transport=msg(f"mx.transport.{transport}"), icon=msg(f"mx.icon.{icon}")
        )
    return str(ticket)


def tickets(tickets: Any) -> Message | list[Any]:
    """Tickets grouped: ``2 × car (double) and train (secret)``; ``nothing`` when none."""
    return _tickets(tickets)


def card_words(options: dict[str, Any]) -> dict[str, Message | str]:
    """Every ticket by its log id, as :func:`ticket_name` says it."""
    return {
        f"{transport}/{icon}": ticket_name(f"{transport}/{icon}")
        for transport in TRANSPORTS
        for icon in ICONS
    }


#: the fields of an action a person is asked for (``mx.field.*``)
FIELDS = ("pawn", "to", "ticket", "pay", "moves", "tickets", "count", "reveal", "slot", "city")
#: the action types, as a player names what to do (``mx.choice.type.*``)
ACTION_TYPES = (
    "move",
    "stay",
    "double",
    "secret",
    "pass",
    "investigate",
    "siren",
    "discard",
    "refill",
)


def field_label(path: str) -> Message | None:
    """``pawn``: "pawn"; ``tickets/2``: "ticket 3"; ``moves/0/to``: "move 1: destination"."""
    head, *rest = path.split("/")
    if head not in FIELDS:
        return None
    word = msg(f"mx.field.{head}")
    if not rest:
        return word
    if head in ("tickets", "pay") and rest[0].isdigit() and len(rest) == 1:
        return msg("mx.field.nth", field=msg("mx.field.ticket"), n=int(rest[0]) + 1)
    if head == "pay" and len(rest) == 1:  # the team's payment, detective seat by seat
        return msg("core.choice.field", field=word, value=_det_seat(rest[0]))
    if head == "moves" and rest[0].isdigit():
        step = msg("mx.field.nth", field=msg("mx.field.step"), n=int(rest[0]) + 1)
        if len(rest) == 1:
            return step
        inner = field_label("/".join(rest[1:]))
        return msg("core.choice.field", field=step, value=inner) if inner is not None else None
    return None


def _det_seat(seat: str) -> Message | str:
    return msg("mx.seat.det", number=seat[3:]) if seat.startswith("det") else seat


def _city_choice(board: Board, city: int) -> Message | str:
    """A city to pick: by its name, with its number where the board has two of that name
    (Brest in France and in Belarus)."""
    found = board.cities.get(city)
    if found is None:
        return str(city)
    twins = sum(1 for c in board.cities.values() if c.name == found.name)
    name = _city(board, city)
    return msg("mx.city.numbered", city=name, id=city) if twins > 1 else name


def choice_label(path: str, value: Any, seat: str | None, table: Table) -> Message | str | None:
    """A value of an action's field in words: a pawn by colour, a city by name, a ticket
    by transport and icon, Mister X's double move as its two steps."""
    head = path.split("/")[0]
    last = path.rsplit("/", 1)[-1]
    if path == "type":
        return msg(f"mx.choice.type.{value}") if value in ACTION_TYPES else None
    if head == "pawn" and isinstance(value, str):
        return pawn_colour(value)
    if last in ("to", "city") and isinstance(value, int):
        return _city_choice(_board(table), value)
    if isinstance(value, str) and (last == "ticket" or head in ("tickets", "pay")):
        return ticket_name(value)
    if head in ("tickets", "pay") and isinstance(value, list):
        return msg("core.text", text=_tickets(value)) if value else msg("core.choice.none")
    if head == "pay" and isinstance(value, dict):
        return msg(
            "core.text",
            text=[
                msg(
                    "core.choice.field",
                    field=seat_name(payer, table),
                    value=msg("core.text", text=_tickets(paid)),
                )
                for payer, paid in value.items()
            ],
        )
    if head == "moves" and isinstance(value, list) and all(isinstance(m, dict) for m in value):
        board = _board(table)
        return msg("core.text", text=[_step(board, m) for m in value])
    return None


def _tickets(tickets: Any) -> Message | list[Any]:
    """Tickets grouped: ``2 × car (double) and train (secret)``; ``nothing`` when none."""
    if not tickets:
        return msg("core.nothing")
    counts: dict[str, int] = {}
    for ticket in tickets:
        counts[ticket] = counts.get(ticket, 0) + 1
    return [
        ticket_name(t) if n == 1 else msg("mx.tickets.many", count=n, ticket=ticket_name(t))
        for t, n in sorted(counts.items())
    ]


def _step(board: Board, step: dict[str, Any]) -> Message:
    """One of Mister X's moves: by what, where (or hidden), on which ticket-board slot."""
    if "slot" in step:
        return msg(
            "mx.step.slot" if "to" in step else "mx.step.hidden",
            by=_transport(step.get("ticket")),
            city=_city(board, step.get("to")),
            slot=step["slot"],
        )
    return msg("mx.step", by=_transport(step.get("ticket")), city=_city(board, step.get("to")))


def _paid(pay: Any) -> int:
    if isinstance(pay, dict):
        return sum(len(v) for v in pay.values() if isinstance(v, list))
    return len(pay) if isinstance(pay, list) else 0


def describe(action: dict[str, Any], table: Table) -> Message:
    board = _board(table)
    seat, kind = action.get("seat"), action.get("type")
    who = seat_name(seat, table)
    if seat == MRX and kind == "move":
        return msg("mx.move", who=who, step=_step(board, action))
    if kind == "double":
        steps = [_step(board, m) for m in action.get("moves") or [] if isinstance(m, dict)]
        return msg("mx.double", who=who, count=_paid(action.get("pay")), steps=steps)
    if kind == "secret":
        where = (
            msg("mx.secret.to", city=_city(board, action["to"]))
            if "to" in action
            else msg("mx.secret.hidden")
        )
        laid = ticket_name(action["ticket"]) if "ticket" in action else msg("mx.secret.face_down")
        slot = msg("mx.slot", slot=action["slot"]) if "slot" in action else ""
        return msg(
            "mx.secret", who=who, count=_paid(action.get("pay")), laid=laid, where=where, slot=slot
        )
    if kind == "pass":
        return msg("mx.pass", who=who)
    if kind == "move":
        return msg(
            "mx.pawn.move",
            who=pawn_name(action.get("pawn"), seat, table),
            by=_transport(action.get("ticket")),
            city=_city(board, action.get("to")),
        )
    if kind == "stay":
        return msg("mx.pawn.stay", who=pawn_name(action.get("pawn"), seat, table))
    if kind == "investigate":
        count = _paid(action.get("pay"))
        reveal = action.get("reveal")
        if isinstance(reveal, dict):
            return msg(
                "mx.investigate.reveal",
                who=who,
                count=count,
                slot=reveal.get("slot"),
                city=_city(board, reveal.get("city")),
            )
        return msg("mx.investigate", who=who, count=count)
    if kind == "siren":
        count = _paid(action.get("pay"))
        transport = SIREN_TRANSPORT.get(count)
        return msg(
            "mx.siren",
            who=who,
            count=count,
            pawn=pawn_name(action.get("pawn"), None, table),
            by=msg(f"mx.by.{transport}") if transport else "?",
            city=_city(board, action.get("to")),
        )
    if kind == "discard":
        return msg("mx.discard", who=who, tickets=_tickets(action.get("tickets")))
    if kind == "refill":
        if action.get("tickets"):
            return msg("mx.refill.tickets", who=who, tickets=_tickets(action["tickets"]))
        count = 0 if "tickets" in action else action.get("count") or 0
        return (
            msg("mx.refill.count", who=who, count=count)
            if count
            else msg("mx.refill.none", who=who)
        )
    return msg("core.action", text=f"{seat} {kind}")


def phase_label(phase: str) -> Message:
    return msg(f"mx.phase.{phase}")


def describe_result(result: dict[str, Any], table: Table) -> Message:
    winner = "mrx" if result.get("winner") == MRX else "detectives"
    return msg(
        f"mx.result.{winner}.{result.get('reason')}",
        mrx=seat_name(MRX, table),
        count=result.get("moves", 0),
    )


def legend(options: dict[str, Any]) -> list[dict[str, Any]]:
    board = options.get("board", DEFAULT_BOARD)
    # The shipped boards are Lantern's own (README: "europe/1 is Lantern's own board");
    # a club's transcription of the printed board is not, so it gets no such note.
    about = (
        [{"mark": "board", "text": msg("mx.legend.board.lantern")}]
        if board == DEFAULT_BOARD
        else []
    )
    marks = [
        "line.car",
        "line.train",
        "line.plane",
        "line.dashed",
        "halo.possible",
        "city.destination",
        "city.start",
        "pawn",
        "mrx",
        "path",
        "last",
        "notation",
    ]
    return about + [{"mark": mark, "text": msg(f"mx.legend.{mark}")} for mark in marks]
