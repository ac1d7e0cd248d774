"""JSON Schemas of Cryptid's parts of ``lantern-log/1`` (shape only; legality is the rules')."""

from __future__ import annotations

from typing import Any

from engine.games.cryptid.state import BLOCK_ORDER, CARDS, COLORS, SEATS

_SEAT = {"enum": list(SEATS)}
_CARD = {"enum": list(CARDS)}
_COLOR = {"enum": list(COLORS)}
_DIR = {"enum": ["left", "right"]}
_BLOCK = {"enum": list(BLOCK_ORDER)}
_INDEX = {"type": "integer", "minimum": 0}
_GROUP = {
    "type": "object",
    "description": "sensors as colour counts, e.g. {\"red\": 2, \"black\": 1}",
    "propertyNames": _COLOR,
    "additionalProperties": {"type": "integer", "minimum": 0},
}
_EFFECT_FIELDS: dict[str, tuple[dict[str, Any], list[str]]] = {
    "split": ({"space": _INDEX, "left": _GROUP, "right": _GROUP}, ["space", "left", "right"]),
    "shuffle": ({"space": _INDEX, "color": _COLOR, "dir": _DIR}, ["space", "color", "dir"]),
    "align": ({"color": _COLOR, "dir": _DIR}, ["color", "dir"]),
}


def _action(kind: str, properties: dict[str, Any], required: list[str], seat: Any = _SEAT,
            title: str = "") -> dict[str, Any]:
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
        actions.append(_action("play", {"card": {"const": effect}, **props}, ["card", *required],
                               title=f"play {effect}"))
    for effect, (props, required) in _EFFECT_FIELDS.items():
        actions.append(_action("wild", {"as": {"const": effect}, **props}, ["as", *required],
                               title=f"wild as {effect}"))
    actions += [
        _action("draw", {"cards": {"type": "array", "items": _CARD, "minItems": 1, "maxItems": 2},
                         "count": {"type": "integer", "description": "in a redacted view only"}}, []),
        _action("declare", {"count": {"type": "integer", "minimum": 0, "maximum": 10}}, ["count"],
                seat={"const": "cryptid"}, title="declare a count"),
        _action("declare", {"colors": {"type": "array", "items": _COLOR, "minItems": 1, "maxItems": 3,
                                       "uniqueItems": True}}, ["colors"],
                seat={"const": "cryptid"}, title="declare colours"),
        _action("blockade", {"side": _DIR}, ["side"], seat={"const": "scientist"}),
        _action("relocate", {"to": {"type": "object", "propertyNames": {"pattern": "^[0-9]+$"},
                                    "additionalProperties": _GROUP}}, ["to"], seat={"const": "cryptid"}),
        _action("expand", {"left": _BLOCK, "right": _BLOCK}, []),
    ]
    return {
        "options": {
            "type": "object",
            "properties": {
                "decks": {"type": "object", "properties": {seat: deck for seat in SEATS},
                          "additionalProperties": False},
            },
            "additionalProperties": False,
        },
        "setup": {
            "type": "object",
            "required": ["sensors_2r2w1b"],
            "properties": {
                "sensors_2r2w1b": _DIR,
                "hands": {"type": "object", "properties": {
                    seat: {"type": "array", "items": _CARD, "minItems": 3, "maxItems": 3} for seat in SEATS
                }},
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
                "evidence": {"type": "object", "required": list(SEATS),
                             "properties": {seat: {"type": "integer", "minimum": 0} for seat in SEATS}},
            },
        },
    }


#: What the players call the seats and cards in a form.
_SEAT_NAMES = {"cryptid": "Cryptid", "scientist": "Scientist"}
_CARD_CHOICES = [{"const": card, "title": card.capitalize()} for card in ("align", "shuffle", "split")]


def form_schema(options: dict[str, Any], seats: list[str]) -> dict[str, Any]:
    """The decks as counters, the sensor groups' sides as a choice (CUL-2.3), the hands and
    the first blocks card by card."""
    from engine.games.cryptid.state import MYSTERIOUS, NORMAL_BLOCKS

    def deck(seat: str) -> dict[str, Any]:
        return {"type": "object", "title": f"{_SEAT_NAMES[seat]}'s deck (10 cards)", "properties": {
            card["const"]: {"type": "integer", "minimum": 0, "maximum": 10, "title": f"{card['title']} cards"}
            for card in _CARD_CHOICES}}

    blocks = [{"const": b, "title": f"{b} (mysterious)" if b in MYSTERIOUS else f"{b} (normal)"}
              for b in (*NORMAL_BLOCKS, *sorted(MYSTERIOUS, key=lambda b: int(b[1:])))]
    return {
        "options": {"type": "object", "properties": {
            "decks": {"type": "object", "properties": {seat: deck(seat) for seat in SEATS}}}},
        "setup": {"type": "object", "required": ["sensors_2r2w1b"], "properties": {
            "sensors_2r2w1b": {
                "title": "Sensors beside the cryptid row's block",
                "description": "CUL-2.3: one side gets 2 red, 2 white and 1 black sensor, "
                               "the other 2 red, 1 white and 2 black.",
                "oneOf": [{"const": "left", "title": "2 red, 2 white, 1 black on the left"},
                          {"const": "right", "title": "2 red, 2 white, 1 black on the right"}]},
            "hands": {"type": "object", "properties": {
                seat: {"type": "array", "title": f"{_SEAT_NAMES[seat]}'s hand", "minItems": 3, "maxItems": 3,
                       "items": {"title": "card", "oneOf": _CARD_CHOICES}} for seat in SEATS}},
            "first_blocks": {"type": "array", "title": "Blocks on the table", "minItems": 3, "maxItems": 3,
                             "description": "CUL-2.3: the first in the cryptid row, the other two in "
                                            "the scientist row.",
                             "items": {"title": "block", "oneOf": blocks}},
        }},
    }
