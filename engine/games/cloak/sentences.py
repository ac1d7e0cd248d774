"""Cloak & Dagger turns and results as plain sentences (messages of ``locale/*.json``).

Built from a turn as a seat observed it (:func:`knowledge.observation`, which is
:meth:`Game.action_view`) and the public table: another seat's examine is "Bob
examines an envelope", the actor's own turn names the envelope and what was inside.
Players are named from the log's seats; cards by kind and letter ("Anna's spy D").
"""

from __future__ import annotations

from typing import Any

from engine.core.game import Table
from engine.core.messages import Message, msg
from engine.games.cloak.state import DOCUMENTS, DOUBLE_AGENTS, HAZARDS, SEAT_IDS, SPY_PAIRS


def seat_name(seat: Any, table: Table) -> Message | str:
    """The player's name; ``Player 2`` when the log names nobody."""
    player = table.players.get(seat) if isinstance(seat, str) else None
    if player:
        return player
    number = str(seat)[1:] if str(seat).startswith("p") else str(seat)
    return msg("cd.seat", number=number)


def seat_label(seat: str, table: Table) -> Message | str:
    """``Player 2 (spies E/e)``."""
    if seat not in SEAT_IDS:
        return seat
    pair = SPY_PAIRS[SEAT_IDS.index(seat)]
    return msg("cd.seat.spies", number=seat[1:], pair=f"{pair[0]}/{pair[1]}")


def seat_short_label(seat: str, table: Table) -> Message | str:
    """``spies E/e``: the seat by its spies alone, where room is short."""
    if seat not in SEAT_IDS:
        return seat
    pair = SPY_PAIRS[SEAT_IDS.index(seat)]
    return msg("cd.seat.spies_short", pair=f"{pair[0]}/{pair[1]}")


def card_name(card: Any, table: Table, actor: Any = None) -> Message | str:
    """``document X``, ``Anna's spy D`` (``their own spy D`` for ``actor``'s own),
    ``double agent a``, ``hazard K``."""
    if card in DOCUMENTS:
        return msg("cd.card.document", card=card)
    for i, pair in enumerate(SPY_PAIRS):
        if isinstance(card, str) and card in pair:
            if SEAT_IDS[i] == actor:
                return msg("cd.card.own_spy", card=card)
            return msg("cd.card.spy", card=card, owner=seat_name(SEAT_IDS[i], table))
    if card in DOUBLE_AGENTS:
        return msg("cd.card.agent", card=card)
    if card in HAZARDS:
        return msg("cd.card.hazard", card=card)
    return str(card)


def _cards(cards: list[Any], table: Table, actor: Any) -> Message | list[Any]:
    return [card_name(c, table, actor) for c in cards] if cards else msg("cd.empty")


def _where(action: dict[str, Any]) -> Message:
    envelope = action.get("envelope")
    return (
        msg("cd.envelope", number=envelope)
        if isinstance(envelope, int)
        else msg("cd.envelope.unknown")
    )


def _turn(action: dict[str, Any], table: Table) -> Message:
    actor = action.get("seat")
    who = seat_name(actor, table)
    kind = action.get("type")
    where = _where(action)
    if kind == "examine":
        if "saw" in action:
            return msg(
                "cd.examine.saw", who=who, where=where, cards=_cards(action["saw"], table, actor)
            )
        return msg("cd.examine", who=who, where=where)
    if kind == "place":
        if action.get("card"):
            return msg(
                "cd.place.card", who=who, where=where, card=card_name(action["card"], table, actor)
            )
        return msg("cd.place", who=who, where=where)
    if kind == "take":
        spy = card_name(action.get("spy"), table, actor)
        if "second" in action:
            second = action["second"]
            if second is None:
                return msg("cd.take.alone", who=who, spy=spy, where=where)
            return msg(
                "cd.take.second",
                who=who,
                spy=spy,
                where=where,
                card=card_name(second, table, actor),
            )
        if action.get("cards") == 2:
            return msg("cd.take.unseen", who=who, spy=spy, where=where)
        return msg("cd.take.alone", who=who, spy=spy, where=where)
    if kind == "drop":
        if isinstance(action.get("cards"), int):
            return msg("cd.drop.count", who=who, where=where, count=action["cards"])
        return msg("cd.drop", who=who, where=where)
    if kind == "hazard":
        return msg(
            "cd.hazard", who=who, where=where, card=card_name(action.get("card"), table, actor)
        )
    if kind == "open":  # a seat's pick (Game.openings): never logged, said to its seat only
        return msg("cd.open", who=who, where=where)
    return msg("core.action", text=f"{action.get('seat')} {kind}")


def describe(action: dict[str, Any], table: Table) -> Message:
    turn = _turn(action, table)
    if isinstance(action.get("win"), list):
        return msg("cd.wins", turn=turn, cards=_cards(action["win"], table, action.get("seat")))
    return turn


#: the fields of a turn a person is asked for (``cd.field.*``)
FIELDS = ("envelope", "spy", "second", "card", "cards")
#: the turns, as a player names what to do (``cd.choice.type.*``)
TURNS = ("examine", "place", "take", "drop", "hazard", "open")


def field_label(path: str) -> Message | None:
    return msg(f"cd.field.{path}") if path in FIELDS else None


def choice_label(path: str, value: Any, seat: str | None, table: Table) -> Message | str | None:
    """An envelope by number, a card by kind and letter (``your own spy D``)."""
    if path == "type":
        return msg(f"cd.choice.type.{value}") if value in TURNS else None
    if path == "envelope" and isinstance(value, int):
        return msg("cd.envelope", number=value)
    if path in ("spy", "second", "card") and isinstance(value, str):
        return card_name(value, table, seat)
    return None


def phase_label(phase: str) -> Message:
    return msg(f"cd.phase.{phase}")


def describe_result(result: dict[str, Any], table: Table) -> Message:
    return msg("cd.result.documents", who=seat_name(result.get("winner"), table))


def legend(options: dict[str, Any]) -> list[dict[str, Any]]:
    marks = [
        "envelope.current",
        "envelope.won",
        "envelope.unknown",
        "events",
        "cards",
        "notation",
        "notation.take",
    ]
    return [{"mark": mark, "text": msg(f"cd.legend.{mark}")} for mark in marks]
