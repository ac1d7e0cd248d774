"""JSON Schemas of Cloak & Dagger's parts of ``lantern-log/1`` (shape only; legality is the
rules')."""

from __future__ import annotations

from typing import Any

from engine.core.messages import DEFAULT_LOCALE, msg, render
from engine.games.cloak.state import (
    DOCUMENT_COPIES,
    DOUBLE_AGENTS,
    ENVELOPES,
    HAZARDS,
    LOYAL_SPIES,
    MAX_PLAYERS,
    SEAT_IDS,
)


def json_schema() -> dict[str, Any]:
    seat = {"enum": SEAT_IDS}
    envelope = {"type": "integer", "minimum": 1, "maximum": ENVELOPES}
    any_card = {"enum": sorted(LOYAL_SPIES | DOUBLE_AGENTS | HAZARDS | {"X", "Y", "Z"})}

    def action(kind: str, required: list[str], **fields: Any) -> dict[str, Any]:
        return {
            "type": "object",
            "required": ["seat", "type", *required],
            "properties": {"seat": seat, "type": {"const": kind}, **fields},
        }

    return {
        "options": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "document_copies": {"enum": list(DOCUMENT_COPIES)},
                "double_agents": {"type": "boolean"},
                "hazards": {"type": "boolean"},
            },
        },
        "setup": {
            "type": "object",
            "properties": {"pile": {"type": "array", "items": any_card, "maxItems": 24}},
        },
        "actions": [
            action("examine", ["envelope"], envelope=envelope),
            action("place", ["envelope"], envelope=envelope, card=any_card),
            action(
                "take",
                ["envelope", "spy"],
                envelope=envelope,
                spy={"enum": sorted(LOYAL_SPIES | DOUBLE_AGENTS)},
                second={"oneOf": [{"type": "null"}, any_card]},
            ),
            action("drop", ["envelope"], envelope=envelope),
            action(
                "hazard", ["envelope", "card"], envelope=envelope, card={"enum": sorted(HAZARDS)}
            ),
        ],
        "result": {
            "type": "object",
            "required": ["winner", "reason"],
            "properties": {
                "winner": {"enum": SEAT_IDS[:MAX_PLAYERS]},
                "reason": {"const": "documents"},
            },
        },
    }


def form_schema(
    options: dict[str, Any], seats: list[str], locale: str = DEFAULT_LOCALE
) -> dict[str, Any]:
    """The options as a person chooses them (CD-1.2, CD-6); the setup has nothing to ask:
    the envelopes' cards are entered as they come out."""

    def say(message_id: str) -> str:
        return render(msg(message_id), locale)

    return {
        "options": {
            "type": "object",
            "properties": {
                "document_copies": {
                    "title": say("cd.form.copies"),
                    "oneOf": [
                        {"const": 1, "title": say("cd.form.copies.one")},
                        {"const": 3, "title": say("cd.form.copies.three")},
                    ],
                },
                "double_agents": {"type": "boolean", "title": say("cd.form.double_agents")},
                "hazards": {"type": "boolean", "title": say("cd.form.hazards")},
            },
        },
        "setup": {"type": "object", "properties": {}},
    }
