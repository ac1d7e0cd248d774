"""A Cryptid position's value without playing it to the end: analysis cuts its playouts at
the start of a later round and scores the position reached with this (``evaluate``).

A logistic model of the cryptid's chance over a few facts of the table that decide how the
game ends (CUL-3.10): the presence markers left (capture at one), those on the rows' end
blocks (escape), the evidence each seat holds or would take at a time out, the blocks left
in the deck, whose row is active, the hands and the wild cards. Its weights were fitted on
positions at the start of a round in bot games of seeds of their own
(``bench/fit_evaluation.py``, which prints them; bench/README.md): a position's
chance is a logistic of the weighted facts.
"""

from __future__ import annotations

import math
from typing import Any

from engine.games.cryptid.state import CryptidState

#: the facts' weights (bench/fit_evaluation.py), in the order of :func:`facts`
WEIGHTS = (
    -1.4828,
    0.5109,
    -0.0451,
    0.0162,
    0.6683,
    -0.0689,
    0.1108,
    0.2972,
    0.7380,
    0.3243,
    0.0038,
    0.1747,
)


def facts(state: CryptidState) -> list[float]:
    """The facts the model weighs, for the cryptid (the first is the constant 1)."""
    cryptid_row, scientist_row = state.rows["cryptid"], state.rows["scientist"]
    on_cryptid = sum(1 for b in cryptid_row if b in state.evidence)
    on_scientist = sum(1 for b in scientist_row if b in state.evidence)
    # evidence at a time out: held, and left on the row on a seat's own side
    margin = state.held["cryptid"] + on_cryptid - state.held["scientist"] - on_scientist
    presence = len(state.presence)
    ends = sum(
        1 for row in (cryptid_row, scientist_row) for b in (row[0], row[-1]) if b in state.presence
    )
    left = len(state.block_pool)
    return [
        1.0,
        presence,
        float(presence <= 2),
        margin,
        state.held["cryptid"] - state.held["scientist"],
        left,
        float(state.block_count() == 7),
        float(state.active == "cryptid"),
        ends,
        margin * (left <= 2),
        len(state.hands["cryptid"]) - len(state.hands["scientist"]),
        float(state.wild["cryptid"]) - float(state.wild["scientist"]),
    ]


def chance(weights: tuple[float, ...] | list[float], values: list[float]) -> float:
    """The logistic of the weighted facts: the cryptid's chance (0-1)."""
    z = sum(w * v for w, v in zip(weights, values, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def evaluate(game: Any, state: CryptidState, seat: str) -> float:
    """``seat``'s chance in ``state`` (a world of the AI's: every fact in it is the world's)."""
    p = chance(WEIGHTS, facts(state))
    return p if seat == "cryptid" else 1.0 - p
