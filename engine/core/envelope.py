"""The ``lantern-log/1`` envelope: what every log must be before any game looks at it.

Envelope errors cite ``LOG-*`` ids (the log format has no numbered rules):

=============  ===========================================================
``LOG-JSON``   the document is not JSON, or not a JSON object
``LOG-FORMAT`` ``format`` is not ``lantern-log/1``
``LOG-GAME``   ``game`` names no game the engine knows
``LOG-OPTIONS`` ``options`` is not an object, or names an invalid option
``LOG-SEATS``  ``seats`` is not a list of ``{"seat", "player"}``, or one player holds
               seats the game does not let one player hold together
``LOG-SEED``   ``seed`` is neither null nor an integer in [0, 2**64)
``LOG-SETUP``  ``setup`` is not an object
``LOG-ACTIONS`` ``actions`` is not a list (index null), or one action is not an object
               with string ``seat`` and ``type`` (the index of that action)
``LOG-LENGTH`` ``actions`` holds more than :data:`MAX_ACTIONS` actions (index null): no
               game played at a club comes near it, and every log Lantern accepts must
               stay cheap to replay, view and step through
``LOG-RESULT`` ``result`` is neither null nor an object
``LOG-END``    ``end`` is neither null nor ``{"reason": "time" | "claim", "seat": SEAT}``
               with a seat of the log (engine.core.ending)
``LOG-META``   ``meta`` is present and not an object (the site also refuses a
               ``meta.played_at`` that is not an ISO 8601 date and time, or is one
               outside years 1..9999 once its offset is applied)
=============  ===========================================================
"""

from __future__ import annotations

import json
from typing import Any

from engine.core.ending import check_end
from engine.core.errors import IllegalAction
from engine.core.game import Game
from engine.core.messages import msg
from engine.core.registry import all_games, get_game

FORMAT = "lantern-log/1"

#: The most actions one log may hold (LOG-LENGTH). A Mister X game lasts at most its
#: rounds (random bots: up to ~1,200 actions with six players), a Cloak & Dagger game a
#: few hundred turns at a table (greedy bots: about 100); Cloak & Dagger has no end rule,
#: so without a bound a legal log could run forever.
MAX_ACTIONS = 2000


def parse_json(text: str | bytes) -> dict[str, Any]:
    """Parse a log document, IllegalAction(LOG-JSON) when it is not a JSON object."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:  # where, in numbers: the parser's own words are English
        raise IllegalAction(
            "LOG-JSON", msg("core.refuse.document_valid_json_at", line=exc.lineno, column=exc.colno)
        ) from None
    except UnicodeDecodeError:
        raise IllegalAction("LOG-JSON", msg("core.refuse.document_valid_json_utf8")) from None
    except RecursionError:
        raise IllegalAction("LOG-JSON", msg("core.refuse.document_valid_json_deep")) from None
    except ValueError as exc:
        raise IllegalAction(
            "LOG-JSON", msg("core.refuse.document_valid_json", exc=str(exc))
        ) from None
    if not isinstance(document, dict):
        raise IllegalAction("LOG-JSON", msg("core.refuse.document_json_object"))
    return document


#: How deeply a JSON value read outside a log may nest (a choice prefix, a setup option):
#: far more than any real one, far less than what makes Python's recursion run out.
MAX_VALUE_DEPTH = 32


def parse_json_value(text: str | bytes, max_depth: int = MAX_VALUE_DEPTH) -> Any:
    """Parse a small JSON value; ValueError when it is not JSON or nests deeper than
    ``max_depth`` (a value thousands deep is a clear refusal, never a RecursionError)."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise ValueError("the JSON is nested too deeply") from None
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > max_depth:
                raise ValueError(f"the JSON is nested more than {max_depth} deep")
            stack.extend(
                (child, depth + 1) for child in (item.values() if isinstance(item, dict) else item)
            )
    return value


def check_envelope(log: Any) -> Game:
    """Check the envelope's shape; return the game it names."""
    if not isinstance(log, dict):
        raise IllegalAction("LOG-JSON", msg("core.refuse.document_json_object"))
    if log.get("format") != FORMAT:
        raise IllegalAction(
            "LOG-FORMAT",
            msg("core.refuse.format", format=repr(FORMAT), format2=repr(log.get("format"))),
            path="format",
        )
    game_id = log.get("game")
    game = get_game(game_id) if isinstance(game_id, str) else None
    if game is None:
        known = ", ".join(sorted(all_games()))
        raise IllegalAction(
            "LOG-GAME",
            msg("core.refuse.unknown_game_known", game_id=repr(game_id), known=known),
            path="game",
        )
    if not isinstance(log.get("options", {}), dict):
        raise IllegalAction("LOG-OPTIONS", msg("core.refuse.options_object"), path="options")
    seats = log.get("seats")
    if not isinstance(seats, list) or not seats:
        raise IllegalAction("LOG-SEATS", msg("core.refuse.seats_non_empty_list"), path="seats")
    seen: set[str] = set()
    for i, entry in enumerate(seats):
        if not isinstance(entry, dict):
            raise IllegalAction(
                "LOG-SEATS", msg("core.refuse.seat_entry_object", i=i + 1), path=f"seats[{i}]"
            )
        seat, player = entry.get("seat"), entry.get("player")
        if not isinstance(seat, str) or not seat:
            raise IllegalAction(
                "LOG-SEATS",
                msg("core.refuse.seat_entry_needs_seat_id", i=i + 1),
                path=f"seats[{i}].seat",
            )
        if not isinstance(player, str) or not player.strip():
            raise IllegalAction(
                "LOG-SEATS",
                msg("core.refuse.seat_needs_player_handle", seat=repr(seat)),
                path=f"seats[{i}].player",
            )
        if seat in seen:
            raise IllegalAction(
                "LOG-SEATS",
                msg("core.refuse.seat_listed_twice", seat=repr(seat)),
                path=f"seats[{i}].seat",
            )
        seen.add(seat)
    # log-format: "a player may hold several seats only where a game allows it".
    held: dict[str, list[str]] = {}
    for entry in seats:
        held.setdefault(entry["player"], []).append(entry["seat"])
    for player, player_seats in held.items():
        if len(player_seats) > 1 and not game.may_hold_together(player_seats):
            raise IllegalAction(
                "LOG-SEATS",
                msg(
                    "core.refuse.holds_one_player_may_hold",
                    player=player,
                    player_seats=", ".join(player_seats),
                    name=game.title(),
                ),
                path="seats",
            )
    seed = log.get("seed")
    if seed is not None and (
        not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64
    ):
        raise IllegalAction(
            "LOG-SEED", msg("core.refuse.seed_null_integer", seed=repr(seed)), path="seed"
        )
    if not isinstance(log.get("setup", {}), dict):
        raise IllegalAction("LOG-SETUP", msg("core.refuse.setup_object"), path="setup")
    actions = log.get("actions")
    if not isinstance(actions, list):
        raise IllegalAction("LOG-ACTIONS", msg("core.refuse.actions_list"), path="actions")
    if len(actions) > MAX_ACTIONS:
        raise IllegalAction(
            "LOG-LENGTH",
            msg(
                "core.refuse.log_holds_most_actions_no", max_actions=MAX_ACTIONS, count=len(actions)
            ),
            path="actions",
        )
    # Each action's own shape is checked as the replay reaches it (check_action_shape), so
    # that a malformed action is reported at its index with the valid prefix before it.
    result = log.get("result")
    if result is not None and not isinstance(result, dict):
        raise IllegalAction("LOG-RESULT", msg("core.refuse.result_null_object"), path="result")
    check_end(log.get("end"), seen)
    if "meta" in log and log["meta"] is not None and not isinstance(log["meta"], dict):
        raise IllegalAction("LOG-META", msg("core.refuse.meta_object"), path="meta")
    return game


def check_action_shape(action: Any) -> None:
    """IllegalAction(LOG-ACTIONS) unless ``action`` is an object with string seat and type."""
    if not isinstance(action, dict):
        raise IllegalAction("LOG-ACTIONS", msg("core.refuse.action_object"))
    if not isinstance(action.get("seat"), str) or not isinstance(action.get("type"), str):
        raise IllegalAction("LOG-ACTIONS", msg("core.refuse.action_needs_string_fields_seat"))


def canonical_json(document: Any) -> str:
    """The canonical text of a document: sorted keys, no spaces, UTF-8 as is.

    Two uploads of the same log with different whitespace or key order have the
    same canonical text, hence the same content hash.
    """
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
