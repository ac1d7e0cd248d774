"""JSON Schemas of the Mister X parts of a ``lantern-log/1`` document (shape only)."""

from __future__ import annotations

from typing import Any

TICKET = {"type": "string", "pattern": "^(car|train|plane)/(double|secret|investigate|siren)$"}
TICKETS = {"type": "array", "items": TICKET}
CITY = {"type": "integer", "minimum": 1}
SEAT = {"type": "string", "pattern": "^(mrx|det[1-5])$"}
DET_SEAT = {"type": "string", "pattern": "^det[1-5]$"}
PAY = {"type": "object", "propertyNames": DET_SEAT, "additionalProperties": TICKETS}
STEP = {"type": "object", "required": ["ticket", "to"], "properties": {"ticket": TICKET, "to": CITY}}

BOARD = {
    "type": "object",
    "required": ["id", "version", "name", "cities", "connections", "missions", "start_cards",
                 "tickets", "pawns"],
    "properties": {
        "id": {"type": "string"},
        "version": {"type": "integer", "minimum": 1},
        "name": {"type": "string"},
        "cities": {"type": "array", "items": {
            "type": "object", "required": ["id", "name", "x", "y"],
            "properties": {"id": CITY, "name": {"type": "string"}, "country": {"type": "string"},
                           "lat": {"type": "number"}, "lon": {"type": "number"},
                           "x": {"type": "number"}, "y": {"type": "number"},
                           "names": {"type": "object", "additionalProperties": {"type": "string", "minLength": 1}}}}},
        "connections": {"type": "array", "items": {
            "type": "array", "prefixItems": [CITY, CITY, {"enum": ["car", "train", "plane"]}],
            "minItems": 3, "maxItems": 3}},
        "missions": {"type": "object", "required": ["green", "yellow", "orange"],
                     "additionalProperties": {
                         "type": "object", "required": ["starts", "destinations"],
                         "properties": {"starts": {"type": "array", "items": CITY},
                                        "destinations": {"type": "array", "items": CITY}}}},
        "start_cards": {"type": "array", "items": CITY, "minItems": 15, "maxItems": 15},
        "tickets": {"type": "array", "items": {
            "type": "object", "required": ["transport", "icon", "count"],
            "properties": {"transport": {"enum": ["car", "train", "plane"]},
                           "icon": {"enum": ["double", "secret", "investigate", "siren"]},
                           "count": {"type": "integer", "minimum": 0}}}},
        "pawns": {"type": "array", "items": {"type": "string"}, "minItems": 5, "maxItems": 5},
    },
}


def _action(seat: Any, kind: str, required: list[str], **props: Any) -> dict[str, Any]:
    return {"type": "object", "required": ["seat", "type", *required],
            "properties": {"seat": seat, "type": {"const": kind}, **props}}


def json_schema() -> dict[str, Any]:
    mrx = {"const": "mrx"}
    return {
        "options": {"type": "object", "properties": {
            "board": {"oneOf": [{"type": "string", "pattern": "^[^/]+/[0-9]+$"}, BOARD]},
            "pawns": {"type": "object", "propertyNames": DET_SEAT,
                      "additionalProperties": {"type": "array", "items": {"type": "string"}}},
        }},
        "setup": {"type": "object", "required": ["mission", "start"], "properties": {
            "mission": {"enum": ["green", "yellow", "orange"]},
            "start": CITY,
            "pawns": {"type": "object", "additionalProperties": CITY},
            "racks": {"type": "object", "propertyNames": SEAT, "additionalProperties": TICKETS},
        }},
        "actions": [
            _action(mrx, "move", ["ticket", "to"], ticket=TICKET, to=CITY),
            _action(mrx, "double", ["pay", "moves"], pay=TICKETS,
                    moves={"type": "array", "items": STEP, "minItems": 1, "maxItems": 2}),
            _action(mrx, "secret", ["pay", "ticket", "to"], pay=TICKETS, ticket=TICKET, to=CITY),
            _action(mrx, "pass", []),
            _action(DET_SEAT, "move", ["pawn", "ticket", "to"], pawn={"type": "string"},
                    ticket=TICKET, to=CITY),
            _action(DET_SEAT, "stay", ["pawn"], pawn={"type": "string"}),
            _action({"const": "detectives"}, "investigate", ["pay"], pay=PAY),
            _action({"const": "detectives"}, "siren", ["pay", "pawn", "to"], pay=PAY,
                    pawn={"type": "string"}, to=CITY),
            _action(SEAT, "discard", ["tickets"], tickets=TICKETS),
            _action(SEAT, "refill", [], tickets=TICKETS),
        ],
        "result": {"type": "object", "required": ["winner", "reason", "moves"], "properties": {
            "winner": {"enum": ["mrx", "detectives"]},
            "reason": {"enum": ["destination", "caught"]},
            "moves": {"type": "integer", "minimum": 0},
        }},
    }
