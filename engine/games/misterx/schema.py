"""JSON Schemas of the Mister X parts of a ``lantern-log/1`` document (shape only)."""

from __future__ import annotations

from typing import Any

from engine.core.messages import DEFAULT_LOCALE, msg, render

TICKET = {"type": "string", "pattern": "^(car|train|plane)/(double|secret|investigate|siren)$"}
TICKETS = {"type": "array", "items": TICKET}
CITY = {"type": "integer", "minimum": 1}
SEAT = {"type": "string", "pattern": "^(mrx|det[1-5])$"}
DET_SEAT = {"type": "string", "pattern": "^det[1-5]$"}
PAY = {"type": "object", "propertyNames": DET_SEAT, "additionalProperties": TICKETS}
STEP = {
    "type": "object",
    "required": ["ticket", "to"],
    "properties": {"ticket": TICKET, "to": CITY},
}

BOARD = {
    "type": "object",
    "required": [
        "id",
        "version",
        "name",
        "cities",
        "connections",
        "missions",
        "start_cards",
        "tickets",
        "pawns",
    ],
    "properties": {
        "id": {"type": "string"},
        "version": {"type": "integer", "minimum": 1},
        "name": {"type": "string"},
        "cities": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["id", "name", "x", "y"],
                "properties": {
                    "id": CITY,
                    "name": {"type": "string"},
                    "country": {"type": "string"},
                    "lat": {"type": "number"},
                    "lon": {"type": "number"},
                    "x": {"type": "number"},
                    "y": {"type": "number"},
                    "names": {
                        "type": "object",
                        "additionalProperties": {"type": "string", "minLength": 1},
                    },
                },
            },
        },
        "connections": {
            "type": "array",
            "items": {
                "type": "array",
                "prefixItems": [CITY, CITY, {"enum": ["car", "train", "plane"]}],
                "minItems": 3,
                "maxItems": 3,
            },
        },
        "missions": {
            "type": "object",
            "required": ["green", "yellow", "orange"],
            "additionalProperties": {
                "type": "object",
                "required": ["starts", "destinations"],
                "properties": {
                    "starts": {"type": "array", "items": CITY},
                    "destinations": {"type": "array", "items": CITY},
                },
            },
        },
        "start_cards": {"type": "array", "items": CITY, "minItems": 15, "maxItems": 15},
        "tickets": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["transport", "icon", "count"],
                "properties": {
                    "transport": {"enum": ["car", "train", "plane"]},
                    "icon": {"enum": ["double", "secret", "investigate", "siren"]},
                    "count": {"type": "integer", "minimum": 0},
                },
            },
        },
        "pawns": {"type": "array", "items": {"type": "string"}, "minItems": 5, "maxItems": 5},
    },
}


def _action(seat: Any, kind: str, required: list[str], **props: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["seat", "type", *required],
        "properties": {"seat": seat, "type": {"const": kind}, **props},
    }


def json_schema() -> dict[str, Any]:
    mrx = {"const": "mrx"}
    return {
        "options": {
            "type": "object",
            "properties": {
                "board": {"oneOf": [{"type": "string", "pattern": "^[^/]+/[0-9]+$"}, BOARD]},
                "pawns": {
                    "type": "object",
                    "propertyNames": DET_SEAT,
                    "additionalProperties": {"type": "array", "items": {"type": "string"}},
                },
            },
        },
        "setup": {
            "type": "object",
            "required": ["mission", "start"],
            "properties": {
                "mission": {"enum": ["green", "yellow", "orange"]},
                "start": CITY,
                "pawns": {"type": "object", "additionalProperties": CITY},
                "racks": {"type": "object", "propertyNames": SEAT, "additionalProperties": TICKETS},
            },
        },
        "actions": [
            _action(mrx, "move", ["ticket", "to"], ticket=TICKET, to=CITY),
            _action(
                mrx,
                "double",
                ["pay", "moves"],
                pay=TICKETS,
                moves={"type": "array", "items": STEP, "minItems": 1, "maxItems": 2},
            ),
            _action(mrx, "secret", ["pay", "ticket", "to"], pay=TICKETS, ticket=TICKET, to=CITY),
            _action(mrx, "pass", []),
            _action(
                DET_SEAT,
                "move",
                ["pawn", "ticket", "to"],
                pawn={"type": "string"},
                ticket=TICKET,
                to=CITY,
            ),
            _action(DET_SEAT, "stay", ["pawn"], pawn={"type": "string"}),
            _action({"const": "detectives"}, "investigate", ["pay"], pay=PAY),
            _action(
                {"const": "detectives"},
                "siren",
                ["pay", "pawn", "to"],
                pay=PAY,
                pawn={"type": "string"},
                to=CITY,
            ),
            _action(SEAT, "discard", ["tickets"], tickets=TICKETS),
            _action(SEAT, "refill", [], tickets=TICKETS),
        ],
        "result": {
            "type": "object",
            "required": ["winner", "reason", "moves"],
            "properties": {
                "winner": {"enum": ["mrx", "detectives"]},
                "reason": {"enum": ["destination", "caught"]},
                "moves": {"type": "integer", "minimum": 0},
            },
        },
    }


_TRANSPORTS = ("car", "train", "plane")
_ICONS = ("double", "secret", "investigate", "siren")


def form_schema(
    options: dict[str, Any], seats: list[str], locale: str = DEFAULT_LOCALE
) -> dict[str, Any]:
    """The board from the shipped boards by name; the pawns shared out among the detective
    players (MX-6.10); the mission, Mister X's start city and the pawns' start cities by
    city name (MX-2.2, MX-2.3); the racks ticket by ticket (MX-2.1)."""
    from engine.games.misterx.board import resolve_board, shipped_board, shipped_board_names
    from engine.games.misterx.state import DEFAULT_BOARD, MRX, MRX_RACK, default_shares
    from engine.games.misterx.views import board_names

    def say(message_id: str, **params: Any) -> str:
        return render(msg(message_id, **params), locale)

    board = resolve_board(options.get("board", DEFAULT_BOARD))
    # Each city by its name in ``locale`` where the board has one (GeoNames').
    names = {number: city.names.get(locale, city.name) for number, city in board.cities.items()}
    detectives = [seat for seat in seats if seat != MRX]

    def city(number: int) -> str:
        return names.get(number, str(number))

    def colour(pawn: str) -> str:
        """A pawn by its colour, as a label writes it ("Green")."""
        said = (
            say(f"mx.pawn_colour.{pawn}")
            if pawn in ("red", "blue", "green", "yellow", "black")
            else pawn
        )
        return said[:1].upper() + said[1:]

    pawn_choices = [{"const": pawn, "title": colour(pawn)} for pawn in board.pawns]
    shares = options.get("pawns") or default_shares(board.pawns, detectives)
    option_props: dict[str, Any] = {
        "board": {
            "title": say("mx.form.board"),
            "oneOf": [
                # A shipped board by its name in ``locale`` (views.board_names: "Европа (Lantern) —
                # …").
                *(
                    {
                        "const": key,
                        "title": board_names(shipped_board(key)).get(
                            locale, shipped_board(key).name
                        ),
                    }
                    for key in shipped_board_names()
                ),
                BOARD,
            ],
        }
    }
    if len(detectives) > 1:
        option_props["pawns"] = {
            "type": "object",
            "title": say("mx.form.pawns"),
            "description": say("mx.form.pawns.help"),
            "properties": {
                seat: {
                    "type": "array",
                    "uniqueItems": True,
                    "items": {"oneOf": pawn_choices},
                    "title": say("mx.seat.det", number=n),
                    "default": shares.get(seat, []),
                }
                for n, seat in enumerate(detectives, start=1)
            },
        }
    starts = [
        {
            "const": c,
            "title": say(
                "mx.form.start_choice", city=city(c), mission=msg(f"mx.mission.{mission}")
            ),
        }
        for mission, m in sorted(board.missions.items())
        for c in m.starts
    ]
    start_cards = [{"const": c, "title": city(c)} for c in sorted(board.start_cards, key=city)]
    tickets = [
        {
            "const": f"{t}/{i}",
            "title": say("mx.ticket", transport=msg(f"mx.transport.{t}"), icon=msg(f"mx.icon.{i}")),
        }
        for t in _TRANSPORTS
        for i in _ICONS
        if board.tickets.get(f"{t}/{i}", 0)
    ]
    sizes = {MRX: MRX_RACK, **{seat: 4 + len(shares.get(seat, [])) for seat in detectives}}
    rack_titles = {
        MRX: say("mx.form.rack.mrx"),
        **{seat: say("mx.form.rack.det", number=n) for n, seat in enumerate(detectives, start=1)},
    }
    return {
        "options": {"type": "object", "properties": option_props},
        "setup": {
            "type": "object",
            "required": ["mission", "start"],
            "properties": {
                "mission": {
                    "title": say("mx.form.mission"),
                    "oneOf": [
                        {
                            "const": m,
                            "title": say(f"mx.form.mission.{m}")
                            if m in ("green", "yellow", "orange")
                            else m,
                        }
                        for m in sorted(board.missions)
                    ],
                },
                "start": {
                    "title": say("mx.form.start"),
                    "description": say("mx.form.start.help"),
                    "oneOf": starts,
                },
                "pawns": {
                    "type": "object",
                    "title": say("mx.form.pawn_starts"),
                    "properties": {
                        pawn: {
                            "title": say("mx.form.pawn_start", colour=colour(pawn)),
                            "oneOf": start_cards,
                        }
                        for pawn in board.pawns
                    },
                },
                "racks": {
                    "type": "object",
                    "title": say("mx.form.racks"),
                    "properties": {
                        seat: {
                            "type": "array",
                            "title": rack_titles[seat],
                            "minItems": sizes[seat],
                            "maxItems": sizes[seat],
                            "items": {"title": say("mx.form.ticket"), "oneOf": tickets},
                        }
                        for seat in [MRX, *detectives]
                    },
                },
            },
        },
    }
