"""JSON Schemas of Cryptid's parts of ``lantern-log/1`` (shape only; legality is the rules')."""

from __future__ import annotations

from typing import Any

from engine.core.messages import DEFAULT_LOCALE, msg, render
from engine.games.cryptid.state import BLOCK_ORDER, CARDS, COLORS, SEATS

_SEAT = {"enum": list(SEATS)}
_CARD = {"enum": list(CARDS)}
_COLOR = {"enum": list(COLORS)}
_DIR = {"enum": ["left", "right"]}
_BLOCK = {"enum": list(BLOCK_ORDER)}
_INDEX = {"type": "integer", "minimum": 0}
_GROUP = {
    "type": "object",
    "description": 'sensors as colour counts, e.g. {"red": 2, "black": 1}',
    "propertyNames": _COLOR,
    "additionalProperties": {"type": "integer", "minimum": 0},
}
_EFFECT_FIELDS: dict[str, tuple[dict[str, Any], list[str]]] = {
    "split": ({"space": _INDEX, "left": _GROUP, "right": _GROUP}, ["space", "left", "right"]),
    "shuffle": ({"space": _INDEX, "color": _COLOR, "dir": _DIR}, ["space", "color", "dir"]),
    "align": ({"color": _COLOR, "dir": _DIR}, ["color", "dir"]),
}


def _action(
    kind: str, properties: dict[str, Any], required: list[str], seat: Any = _SEAT, title: str = ""
) -> dict[str, Any]:
    return {
        "title": title or kind,
        "type": "object",
        "required": ["seat", "type", *required],
        "properties": {"seat": seat, "type": {"const": kind}, **properties},
    }


def json_schema() -> dict[str, Any]:
    deck = {
        "type": "object",
        "properties": {card: {"type": "integer", "minimum": 0, "maximum": 10} for card in CARDS},
        "additionalProperties": False,
        "description": "a deck's composition; 10 cards in all",
    }
    actions = []
    for effect, (props, required) in _EFFECT_FIELDS.items():
        actions.append(
            _action(
                "play",
                {"card": {"const": effect}, **props},
                ["card", *required],
                title=f"play {effect}",
            )
        )
    for effect, (props, required) in _EFFECT_FIELDS.items():
        actions.append(
            _action(
                "wild",
                {"as": {"const": effect}, **props},
                ["as", *required],
                title=f"wild as {effect}",
            )
        )
    actions += [
        _action(
            "draw",
            {
                "cards": {"type": "array", "items": _CARD, "minItems": 1, "maxItems": 2},
                "count": {"type": "integer", "description": "in a redacted view only"},
            },
            [],
        ),
        _action(
            "declare",
            {"count": {"type": "integer", "minimum": 0, "maximum": 10}},
            ["count"],
            seat={"const": "cryptid"},
            title="declare a count",
        ),
        _action(
            "declare",
            {
                "colors": {
                    "type": "array",
                    "items": _COLOR,
                    "minItems": 1,
                    "maxItems": 3,
                    "uniqueItems": True,
                }
            },
            ["colors"],
            seat={"const": "cryptid"},
            title="declare colours",
        ),
        _action("blockade", {"side": _DIR}, ["side"], seat={"const": "scientist"}),
        _action(
            "relocate",
            {
                "to": {
                    "type": "object",
                    "propertyNames": {"pattern": "^[0-9]+$"},
                    "additionalProperties": _GROUP,
                }
            },
            ["to"],
            seat={"const": "cryptid"},
        ),
        _action("expand", {"left": _BLOCK, "right": _BLOCK}, []),
    ]
    return {
        "options": {
            "type": "object",
            "properties": {
                "decks": {
                    "type": "object",
                    "properties": {seat: deck for seat in SEATS},
                    "additionalProperties": False,
                },
            },
            "additionalProperties": False,
        },
        "setup": {
            "type": "object",
            "required": ["sensors_2r2w1b"],
            "properties": {
                "sensors_2r2w1b": _DIR,
                "hands": {
                    "type": "object",
                    "properties": {
                        seat: {"type": "array", "items": _CARD, "minItems": 3, "maxItems": 3}
                        for seat in SEATS
                    },
                },
                "first_blocks": {"type": "array", "items": _BLOCK, "minItems": 3, "maxItems": 3},
            },
        },
        "actions": actions,
        "result": {
            "type": "object",
            "required": ["winner", "reason", "evidence"],
            "properties": {
                "winner": _SEAT,
                "reason": {"enum": ["escape", "capture", "timeout"]},
                "evidence": {
                    "type": "object",
                    "required": list(SEATS),
                    "properties": {seat: {"type": "integer", "minimum": 0} for seat in SEATS},
                },
            },
        },
    }


#: The cards a form offers, in this order.
_FORM_CARDS = ("align", "shuffle", "split")


def form_schema(
    options: dict[str, Any], seats: list[str], locale: str = DEFAULT_LOCALE
) -> dict[str, Any]:
    """The decks as counters, the sensor groups' sides as a choice (CUL-2.3), the hands and
    the first blocks card by card."""
    from engine.games.cryptid.state import MYSTERIOUS, NORMAL_BLOCKS

    def say(message_id: str, **params: Any) -> str:
        return render(msg(message_id, **params), locale)

    cards = [{"const": card, "title": say(f"cul.card.{card}")} for card in _FORM_CARDS]

    def deck(seat: str) -> dict[str, Any]:
        return {
            "type": "object",
            "title": say("cul.form.deck", seat=msg(f"cul.seat.{seat}")),
            "properties": {
                card["const"]: {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 10,
                    "title": say("cul.form.deck_cards", card=card["title"]),
                }
                for card in cards
            },
        }

    blocks = [
        {
            "const": b,
            "title": say(
                "cul.form.block.mysterious" if b in MYSTERIOUS else "cul.form.block.normal", block=b
            ),
        }
        for b in (*NORMAL_BLOCKS, *sorted(MYSTERIOUS, key=lambda b: int(b[1:])))
    ]
    return {
        "options": {
            "type": "object",
            "properties": {
                "decks": {"type": "object", "properties": {seat: deck(seat) for seat in SEATS}}
            },
        },
        "setup": {
            "type": "object",
            "required": ["sensors_2r2w1b"],
            "properties": {
                "sensors_2r2w1b": {
                    "title": say("cul.form.sensors"),
                    "description": say("cul.form.sensors.help"),
                    "oneOf": [
                        {"const": "left", "title": say("cul.form.sensors.left")},
                        {"const": "right", "title": say("cul.form.sensors.right")},
                    ],
                },
                "hands": {
                    "type": "object",
                    "properties": {
                        seat: {
                            "type": "array",
                            "title": say("cul.form.hand", seat=msg(f"cul.seat.{seat}")),
                            "minItems": 3,
                            "maxItems": 3,
                            "items": {"title": say("cul.form.card"), "oneOf": cards},
                        }
                        for seat in SEATS
                    },
                },
                "first_blocks": {
                    "type": "array",
                    "title": say("cul.form.first_blocks"),
                    "minItems": 3,
                    "maxItems": 3,
                    "description": say("cul.form.first_blocks.help"),
                    "items": {"title": say("cul.form.block"), "oneOf": blocks},
                },
            },
        },
    }
