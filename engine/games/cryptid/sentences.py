"""Cryptid actions and results as plain sentences (messages of ``locale/*.json``).

Built from an action as a viewer saw it (:func:`views.action_view`) and the public
table, so a sentence says what that viewer knew: the other seat's draw is "draws 2
cards", never which. Spaces and blocks are counted from 1 on the left as people
count them (the log and the notation count spaces from 0).
"""

from __future__ import annotations

from typing import Any

from engine.core.game import Table
from engine.core.messages import Message, msg
from engine.games.cryptid.state import CARDS, COLORS


def seat_name(seat: Any, table: Table) -> Message | str:
    """``Cryptid (Anna)``; the role alone when the log names no player."""
    role = msg(f"cul.seat.{seat}") if seat in ("cryptid", "scientist") else str(seat)
    player = table.players.get(seat) if isinstance(seat, str) else None
    return msg("core.named", role=role, player=player) if player else role


def seat_label(seat: str, table: Table) -> Message | str:
    """``Cryptid`` or ``Scientist``."""
    return msg(f"cul.seat.{seat}") if seat in ("cryptid", "scientist") else seat


def _colour(colour: Any) -> Message | str:
    return msg(f"cul.colour.{colour}") if colour in COLORS else str(colour)


def _sensors(group: Any) -> Message | list[Message]:
    """``2 red and white``: a group of sensors, or ``nothing`` for an empty side."""
    if not isinstance(group, dict):
        return msg("cul.sensors.unknown")
    # one id per colour, so a language can agree the colour word with the count
    parts = [msg(f"cul.sensors.{c}", count=group[c]) for c in COLORS if group.get(c)]
    return parts or msg("core.nothing")


def _space(index: Any) -> Any:
    return index + 1 if isinstance(index, int) else "?"


def _direction(direction: Any) -> Message | str:
    return msg(f"cul.dir.{direction}") if direction in ("left", "right") else str(direction)


def _effect(effect: Any, action: dict[str, Any]) -> Message:
    if effect == "split":
        return msg(
            "cul.effect.split",
            space=_space(action.get("space")),
            left=_sensors(action.get("left")),
            right=_sensors(action.get("right")),
        )
    if effect == "shuffle":
        return msg(
            "cul.effect.shuffle",
            colour=_colour(action.get("color")),
            space=_space(action.get("space")),
            dir=_direction(action.get("dir")),
        )
    if effect == "align":
        return msg(
            "cul.effect.align",
            colour=_colour(action.get("color")),
            dir=_direction(action.get("dir")),
        )
    return msg("cul.effect.unknown", effect=str(effect))


def describe(action: dict[str, Any], table: Table) -> Message:
    who = seat_name(action.get("seat"), table)
    kind = action.get("type")
    if kind == "play":
        return msg("cul.play", who=who, effect=_effect(action.get("card"), action))
    if kind == "wild":
        return msg("cul.wild", who=who, effect=_effect(action.get("as"), action))
    if kind == "draw":
        cards = action.get("cards")
        if isinstance(cards, list):
            return msg("cul.draw.cards", who=who, cards=[msg(f"cul.card.{card}") for card in cards])
        return msg("cul.draw.count", who=who, count=action.get("count") or 0)
    if kind == "declare":
        if "count" in action:
            return msg("cul.declare.count", who=who, count=action["count"])
        return msg(
            "cul.declare.colours", who=who, colours=[_colour(c) for c in action.get("colors") or []]
        )
    if kind == "blockade":
        side = action.get("side")
        return msg(
            "cul.blockade",
            who=who,
            side=msg(f"cul.side.{side}") if side in ("left", "right") else str(side),
        )
    if kind == "relocate":
        to = action.get("to")
        if not isinstance(to, dict):
            to = {}
        placed = [
            msg("cul.relocate.space", sensors=_sensors(group), space=_space(int(space)))
            for space, group in sorted(to.items(), key=lambda item: int(item[0]))
        ]
        return msg("cul.relocate", who=who, placed=placed or msg("core.nothing"))
    if kind == "expand":
        return msg(
            "cul.expand",
            who=who,
            left=str(action.get("left", "?")),
            right=str(action.get("right", "?")),
        )
    return msg("core.action", text=f"{action.get('seat')} {kind}")


#: the fields of an action a person is asked for (``cul.field.*``)
FIELDS = (
    "card",
    "as",
    "space",
    "color",
    "colors",
    "dir",
    "side",
    "count",
    "left",
    "right",
    "to",
    "cards",
)
#: the actions, as a player names what to do (``cul.choice.type.*``)
ACTION_TYPES = ("play", "wild", "draw", "declare", "blockade", "relocate", "expand")


def field_label(path: str) -> Message | None:
    """``left/red``: "left: red"; ``to/3``: "space 4" (spaces counted from 1, as people do)."""
    head, *rest = path.split("/")
    if head not in FIELDS:
        return None
    if head == "to" and rest and rest[0].isdigit():
        space = msg("cul.field.space_n", space=_space(int(rest[0])))
        return (
            space
            if len(rest) == 1
            else msg("core.choice.field", field=space, value=_colour(rest[1]))
        )
    word = msg(f"cul.field.{head}")
    if len(rest) == 1 and head in ("left", "right"):
        return msg("core.choice.field", field=word, value=_colour(rest[0]))
    return word if not rest else None


def choice_label(path: str, value: Any, seat: str | None, table: Table) -> Message | str | None:
    """A card by its name, a space counted from 1, a colour, a side or direction."""
    head = path.split("/")[0]
    if path == "type":
        return msg(f"cul.choice.type.{value}") if value in ACTION_TYPES else None
    if path in ("card", "as") and value in CARDS:
        return msg(f"cul.card.{value}")
    if path == "cards" and isinstance(value, list) and all(v in CARDS for v in value):
        return (
            msg("core.text", text=[msg(f"cul.card.{v}") for v in value])
            if value
            else msg("core.choice.none")
        )
    if path == "space" and isinstance(value, int):
        return str(_space(value))
    if path == "color":
        return _colour(value)
    if path == "colors" and isinstance(value, list):
        return msg("core.text", text=[_colour(c) for c in value])
    if path == "dir":
        return _direction(value)
    if path == "side" and value in ("left", "right"):
        return msg(f"cul.choice.side.{value}")
    if head in ("left", "right") and isinstance(value, str):  # a block the city expands by
        return msg("cul.choice.block", block=value)
    if head in ("left", "right", "to") and isinstance(value, dict):  # sensors on a side or space
        return msg("core.text", text=_sensors(value)) if value else msg("core.choice.none")
    return None


def phase_label(phase: str) -> Message:
    return msg(f"cul.phase.{phase}")


def describe_result(result: dict[str, Any], table: Table) -> Message:
    evidence = result.get("evidence") or {}
    return msg(
        f"cul.result.{result.get('reason')}",
        who=seat_name(result.get("winner"), table),
        cryptid=evidence.get("cryptid", 0),
        scientist=evidence.get("scientist", 0),
    )


def legend(options: dict[str, Any]) -> list[dict[str, Any]]:
    marks = [
        "sensor.red",
        "sensor.white",
        "sensor.black",
        "presence",
        "evidence",
        "mysterious",
        "active",
        "match",
        "last",
        "notation.seats",
        "notation.split",
        "notation.shuffle",
        "notation.align",
        "notation.declare",
    ]
    return [{"mark": mark, "text": msg(f"cul.legend.{mark}")} for mark in marks]


def card_words(options: dict[str, Any]) -> dict[str, Message]:
    """Every movement card by its log id, as the editions name it (Split, Разделение…)."""
    return {card: msg(f"cul.card.{card}") for card in CARDS}
