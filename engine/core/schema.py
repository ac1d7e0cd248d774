"""The JSON Schema of ``lantern-log/1``: the envelope, and each game's parts.

The schema describes shape only; legality is the engine's (a schema cannot say
"this sensor is in the active row"). The API serves it at ``/api/schema/log.json``.
"""

from __future__ import annotations

from typing import Any

from engine.core.ending import END_SCHEMA, RESULT_SCHEMA
from engine.core.envelope import FORMAT
from engine.core.registry import all_games

SCHEMA_ID = "https://lantern.invalid/schema/lantern-log-1.json"


def log_schema() -> dict[str, Any]:
    games = all_games()
    per_game = []
    for game_id, game in sorted(games.items()):
        parts = game.json_schema()
        per_game.append(
            {
                "if": {"properties": {"game": {"const": game_id}}},
                "then": {
                    "properties": {
                        "options": parts["options"],
                        "setup": parts["setup"],
                        "actions": {"type": "array", "items": {"oneOf": parts["actions"]}},
                        "result": {"oneOf": [{"type": "null"}, parts["result"], RESULT_SCHEMA]},
                    },
                },
            }
        )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Lantern match log (lantern-log/1)",
        "type": "object",
        "required": ["format", "game", "seats", "actions"],
        "properties": {
            "format": {"const": FORMAT},
            "game": {"enum": sorted(games)},
            "options": {"type": "object"},
            "seats": {
                "type": "array",
                "minItems": 1,
                "items": {
                    "type": "object",
                    "required": ["seat", "player"],
                    "properties": {
                        "seat": {"type": "string", "minLength": 1},
                        "player": {"type": "string", "minLength": 1},
                    },
                },
            },
            "seed": {
                "oneOf": [{"type": "null"}, {"type": "integer", "minimum": 0, "maximum": 2**64 - 1}]
            },
            "setup": {"type": "object"},
            "actions": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["seat", "type"],
                    "properties": {"seat": {"type": "string"}, "type": {"type": "string"}},
                },
            },
            "result": {"oneOf": [{"type": "null"}, {"type": "object"}]},
            "end": END_SCHEMA,
            "meta": {"type": "object"},
        },
        "allOf": per_game,
    }
