"""Cloak & Dagger rules (``docs/rules/cloak-and-dagger.md``, ids ``CD-*``): options,
seats, setup, turns and the result, as functions of the state (:mod:`.state`); the
:class:`~engine.games.cloak.game.CloakAndDagger` game plugs them into the engine.

Chance: the pile is the deck (:func:`~engine.games.cloak.state.deck`) shuffled once
at setup with ``Rng(seed).shuffle``; a ``place`` draws its top card. A log may
also write the pile in ``setup`` (checked against the seed when there is one) or,
without a seed, leave it out: then every ``place`` names its card, checked
against the cards not drawn yet.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import IllegalAction
from engine.core.game import Action
from engine.core.rng import Rng
from engine.games.cloak.state import (
    DOCUMENT_COPIES,
    DOUBLE_AGENTS,
    ENVELOPE_NUMBERS,
    ENVELOPES,
    HAZARDS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SEAT_IDS,
    CloakState,
    Entry,
    deck,
)

DEFAULT_OPTIONS: dict[str, Any] = {"document_copies": 1, "double_agents": False, "hazards": False}
ACTION_TYPES = ("examine", "place", "take", "drop", "hazard")


def _envelope(action: Action) -> int:
    n = action.get("envelope")
    if type(n) is not int or not 1 <= n <= ENVELOPES:
        raise IllegalAction("CD-1.1", f"'envelope' must be a number from 1 to {ENVELOPES}, not {n!r}")
    return n


def normalize_options(options: dict[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(options) - set(DEFAULT_OPTIONS))
    if unknown:
        raise IllegalAction("LOG-OPTIONS", f"unknown Cloak & Dagger option(s) {unknown}")
    merged = {**DEFAULT_OPTIONS, **options}
    copies = merged["document_copies"]
    if type(copies) is not int or copies not in DOCUMENT_COPIES:
        raise IllegalAction("CD-1.2", f"document_copies must be 1 or 3, not {copies!r}")
    for flag in ("double_agents", "hazards"):
        if not isinstance(merged[flag], bool):
            raise IllegalAction("CD-6", f"{flag} must be true or false, not {merged[flag]!r}")
    return merged


def check_seats(seats: list[dict[str, Any]], options: dict[str, Any]) -> None:
    ids = [entry["seat"] for entry in seats]
    if not MIN_PLAYERS <= len(ids) <= MAX_PLAYERS:
        raise IllegalAction("CD-1.3", f"Cloak & Dagger needs 2 to 6 players, not {len(ids)}")
    if ids != SEAT_IDS[: len(ids)]:
        expected = ", ".join(SEAT_IDS[: len(ids)])
        raise IllegalAction("CD-1.3", f"the seats must be {expected} in turn order, not {', '.join(ids)}")


def new_state(
    options: dict[str, Any], seats: list[str], setup: dict[str, Any], rng: Rng | None
) -> CloakState:
    """The state after setup (CD-2): the pile from the seed, the log's setup, or left to
    each ``place`` to name."""
    cards = deck(options)
    recorded = setup.get("pile")
    if recorded is not None and (
        not isinstance(recorded, list)
        or not all(isinstance(card, str) for card in recorded)
        or sorted(recorded) != sorted(cards)
    ):
        raise IllegalAction(
            "CD-2.2",
            f"the pile must hold exactly the cards {''.join(sorted(cards))} with these options, "
            f"not {recorded!r}",
        )
    if rng is not None:
        pile = list(cards)
        rng.shuffle(pile)
        if recorded is not None and recorded != pile:
            raise IllegalAction("CD-2.2", f"the pile {recorded} disagrees with the seed's shuffle {pile}")
        return CloakState(options, seats, pile, None)
    if recorded is not None:
        return CloakState(options, seats, list(recorded), None)
    return CloakState(options, seats, [], sorted(cards))


def setup_record(state: CloakState) -> dict[str, Any]:
    return {} if state.setup_pile is None else {"pile": list(state.setup_pile)}


def to_act(state: CloakState) -> list[str]:
    return [] if state.winner is not None else [state.seats[state.turn]]


def result(state: CloakState) -> dict[str, Any] | None:
    if state.winner is None:
        return None
    return {"winner": state.seats[state.winner], "reason": "documents"}


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
            actions.append({"seat": seat, "type": "take", "envelope": n, "spy": spy, "second": second})
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


def apply(state: CloakState, action: Action) -> Action:
    if state.winner is not None:
        raise IllegalAction("CD-7.2", "the game is already over: nothing may follow a win")
    i = state.turn
    seat = state.seats[i]
    if action.get("seat") != seat:
        raise IllegalAction("CD-1.3", f"it is {seat}'s turn, not {action.get('seat')}'s")
    kind = action.get("type")
    if kind not in ACTION_TYPES:
        raise IllegalAction("CD-3.5", f"unknown action type {kind!r}: a turn is one of "
                            "examine, place, take, drop, hazard")
    n = _envelope(action)
    hand = state.hands[i]
    if hand and kind != "drop":
        raise IllegalAction("CD-3.5", f"{seat} holds {len(hand)} card(s) and must finish the "
                            f"transfer with a drop, not {kind}")
    contents = state.envelopes[n]
    saw = tuple(contents)
    cards = 0
    if kind == "drop":
        if not hand:
            raise IllegalAction("CD-7.1", f"{seat} holds no cards: there is no transfer to finish")
        cards = len(hand)
        contents.extend(hand)
        hand.clear()
        recorded = {"seat": seat, "type": "drop", "envelope": n}
    elif kind == "examine":
        recorded = {"seat": seat, "type": "examine", "envelope": n}
    elif kind == "place":
        recorded = {"seat": seat, "type": "place", "envelope": n,
                    "card": _draw(state, n, contents, action.get("card"))}
    elif kind == "take":
        recorded = _take(state, i, n, contents, hand, action)
        cards = len(hand)
    else:
        recorded = _hazard(state, i, n, contents, action)

    told = state.owed[i]
    if told:
        state.owed[i] = ()
    win = None
    if not hand and "X" in contents and "Y" in contents and "Z" in contents:
        own, enemies = state.spies[i], state.enemies[i]
        if any(card in own for card in contents) and not any(card in enemies for card in contents):
            state.winner = i
            win = tuple(contents)
    state.history.append(Entry(recorded, i, saw, cards, told, win))
    if win is None:
        state.turn = (i + 1) % len(state.seats)
    return recorded


def _draw(state: CloakState, n: int, contents: list[str], card: Any) -> str:
    if contents:
        raise IllegalAction("CD-3.2", f"envelope {n} is not empty: a card is placed only into "
                            "an empty envelope")
    if card is not None and not isinstance(card, str):
        raise IllegalAction("CD-3.2", f"'card' must be a card letter, not {card!r}")
    unknown = state.pile_unknown
    if unknown:
        if card is None:
            raise IllegalAction("CD-3.2", "without a seed or a recorded pile, a place must name "
                                "the card drawn")
        if card not in unknown:
            raise IllegalAction("CD-3.2", f"the pile holds no {card!r} any more")
        unknown.remove(card)
    else:
        if not state.pile:
            raise IllegalAction("CD-3.2", "the pile is empty: nothing can be placed")
        top = state.pile[0]
        if card is not None and card != top:
            raise IllegalAction("CD-3.2", f"the top card of the pile is {top!r}, not {card!r}")
        card = state.pile.pop(0)
    contents.append(card)
    return card


def _take(state: CloakState, i: int, n: int, contents: list[str], hand: list[str],
          action: Action) -> Action:
    seat = state.seats[i]
    spy = action.get("spy")
    second = action.get("second")
    if isinstance(second, list):
        raise IllegalAction("CD-3.3", f"never more than 2 cards: a transfer takes the spy and at "
                            f"most one more card, not {second!r}")
    if not isinstance(spy, str):
        raise IllegalAction("CD-3.3", f"'spy' must be the letter of the spy shown, not {spy!r}")
    if spy in DOUBLE_AGENTS and not state.options["double_agents"]:
        raise IllegalAction("CD-6.1", f"double agents are not in this game (options.double_agents "
                            f"is false): {spy!r} cannot start a transfer")
    if spy not in state.spies[i] and spy not in DOUBLE_AGENTS:
        raise IllegalAction("CD-3.3", f"{seat} can start a transfer only with their own spy "
                            f"({', '.join(sorted(state.spies[i]))}), not {spy!r}")
    if spy not in contents:
        raise IllegalAction("CD-3.3", f"envelope {n} holds no {spy!r}: a transfer starts from an "
                            "envelope holding one's own spy")
    if second is not None and (
        not isinstance(second, str) or contents.count(second) < 1 + (second == spy)
    ):
        raise IllegalAction("CD-3.3", f"envelope {n} holds no {second!r} besides {spy!r} "
                            "to take as the second card")
    contents.remove(spy)
    hand.append(spy)
    if second is not None:
        contents.remove(second)
        hand.append(second)
    return {"seat": seat, "type": "take", "envelope": n, "spy": spy, "second": second}


def _hazard(state: CloakState, i: int, n: int, contents: list[str], action: Action) -> Action:
    if not state.options["hazards"]:
        raise IllegalAction("CD-6.2", "hazard cards are not in this game (options.hazards is false)")
    card = action.get("card")
    if not isinstance(card, str) or card not in HAZARDS:
        raise IllegalAction("CD-6.2", f"{card!r} is not a hazard card")
    if card not in contents:
        raise IllegalAction("CD-6.2", f"envelope {n} holds no {card!r} to reveal")
    contents.remove(card)
    state.pile.append(card)
    for j, hand in enumerate(state.hands):
        if j != i and not hand and i not in state.owed[j]:
            state.owed[j] = (*state.owed[j], i)
    return {"seat": state.seats[i], "type": "hazard", "envelope": n, "card": card}
