"""Cloak & Dagger: who may act now and what (``to_act``, ``legal_actions``, and the
actions within one envelope, ``envelope_actions``; ``CD-*`` in
``docs/rules/cloak-and-dagger.md``), and the card a place could draw
(``chance_options``). Checking and applying an action: :mod:`.rules`.
"""

from __future__ import annotations

from typing import Any

from engine.core.game import Action
from engine.games.cloak.state import (
    DOUBLE_AGENTS,
    ENVELOPE_NUMBERS,
    ENVELOPES,
    HAZARDS,
    CloakState,
)

DEFAULT_OPTIONS: dict[str, Any] = {"document_copies": 1, "double_agents": False, "hazards": False}


def to_act(state: CloakState) -> list[str]:
    return [] if state.winner is not None else [state.seats[state.turn]]


def legal_actions(state: CloakState, seat: str) -> list[Action]:
    if state.winner is not None or state.seats[state.turn] != seat:
        return []
    i = state.turn
    if state.hands[i]:
        return [{"seat": seat, "type": "drop", "envelope": n} for n in ENVELOPE_NUMBERS]
    actions: list[Action] = []
    for n in ENVELOPE_NUMBERS:
        actions.extend(envelope_actions(state, seat, n))
    return actions


def envelope_actions(state: CloakState, seat: str, n: int) -> list[Action]:
    """Every legal action of ``seat`` (to act) with envelope ``n`` chosen: what a player
    can decide between once they have looked inside (chance left out)."""
    i = state.seats.index(seat)
    if state.hands[i]:
        return [{"seat": seat, "type": "drop", "envelope": n}]
    contents = state.envelopes[n]
    actions: list[Action] = [{"seat": seat, "type": "examine", "envelope": n}]
    if not contents and state.pile_size:
        actions.append({"seat": seat, "type": "place", "envelope": n})
    movable = state.spies[i] | DOUBLE_AGENTS if state.options["double_agents"] else state.spies[i]
    for spy in sorted(set(contents) & movable):
        rest = list(contents)
        rest.remove(spy)
        for second in [None, *sorted(set(rest))]:
            actions.append(
                {"seat": seat, "type": "take", "envelope": n, "spy": spy, "second": second}
            )
    if state.options["hazards"]:
        for card in sorted(set(contents) & HAZARDS):
            actions.append({"seat": seat, "type": "hazard", "envelope": n, "card": card})
    return actions


def chance_options(state: CloakState, action: Action) -> list[Action]:
    """A ``place`` into an empty envelope: one completed action per card it could draw
    (the top card when the pile's order is known; else every card not drawn yet)."""
    if action.get("type") != "place" or state.pile_size == 0:
        return [action]
    n = action.get("envelope")
    if type(n) is not int or not 1 <= n <= ENVELOPES or state.envelopes[n]:
        return [action]
    cards = sorted(set(state.pile_unknown)) if state.pile_unknown else state.pile[:1]
    return [{**action, "card": card} for card in cards]
