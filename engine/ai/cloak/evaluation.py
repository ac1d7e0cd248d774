"""A Cloak & Dagger position's value without playing it to the end: analysis cuts the
playouts of a seat's own chance two rounds on and scores the position reached with this
(``evaluate``; ``CloakAI.analysis_own_cut_rounds``).

A conditional logit over the seats (each seat's chance is its weighted facts' exponential
over the sum of every seat's): how far each seat has gathered the documents where a spy of
its own stands and no enemy spy does (CD-4.1), and with any spy or none, what it carries in
hand, and how soon it acts. Its weights were fitted on positions at the start of a round
in bot games of seeds of their own (``bench/fit_evaluation.py``, which prints them;
bench/README.md).
"""

from __future__ import annotations

import math
from typing import Any

from engine.games.cloak.state import DOCUMENTS, ENVELOPE_NUMBERS, CloakState

_DOCUMENTS = frozenset(DOCUMENTS)

#: the facts' weights (bench/fit_evaluation.py), in the order of :func:`facts`
WEIGHTS = (0.4503, -0.3332, -0.1567, 0.3509, 0.6472, 0.9634, 0.1428)


def facts(state: CloakState, k: int) -> list[float]:
    """The facts the model weighs for seat index ``k`` (a world's: every card is known)."""
    own, enemy = state.spies[k], state.enemies[k]
    with_own = free = any_spy = 0
    for n in ENVELOPE_NUMBERS:
        cards = state.envelopes[n]
        if not cards:
            continue
        held = set(cards)
        documents = len(held & _DOCUMENTS)
        guarded = held.isdisjoint(enemy)
        mine = not held.isdisjoint(own)
        if mine and guarded:
            with_own = max(with_own, documents)
        if guarded:
            free = max(free, documents)
        if mine:
            any_spy = max(any_spy, documents)
    hand = set(state.hands[k])
    return [
        with_own,
        free,
        any_spy,
        len(hand & _DOCUMENTS),
        len(hand & own),
        float(bool(hand)),
        float((k - state.turn) % len(state.seats)),
    ]


def chances(weights: tuple[float, ...] | list[float], per_seat: list[list[float]]) -> list[float]:
    """Each seat's chance (0-1): its weighted facts' exponential over the sum of all."""
    scores = [sum(w * v for w, v in zip(weights, values, strict=True)) for values in per_seat]
    top = max(scores)
    shares = [math.exp(s - top) for s in scores]
    total = sum(shares)
    return [s / total for s in shares]


def evaluate(game: Any, state: CloakState, seat: str) -> float:
    """``seat``'s chance in ``state`` (a world of the AI's)."""
    per_seat = [facts(state, k) for k in range(len(state.seats))]
    return chances(WEIGHTS, per_seat)[state.seats.index(seat)]
