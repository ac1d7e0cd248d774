"""Beliefs on the board: what each seat could know of the hidden facts, ply by ply.

A game says, for one state and one viewer, which beliefs that viewer may be shown
(:meth:`GameAI.belief_summary`): Mister X's possible cities weighted by how many paths
consistent with the public record end in each, the cards likely in the Cryptid
opponent's hand, what a Cloak & Dagger check sheet proves about the envelopes. Each
belief carries a **measure** of how wide it still is — ``count`` (cities still
possible, hands still possible, envelopes not known exactly…), its ``unit`` and, where
the belief is a probability distribution, its Shannon entropy in ``bits``.

:func:`belief_track` walks a log and gives those beliefs after every ply with what the
ply changed in each measure (``changed``): "Mister X's possible cities 23 -> 7 at this
ply". Everything here is a function of (state, viewer) per ply, so a seat's track reads
nothing the seat could not know (the counterfactual tests in ``tests/replay`` check it).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from engine.ai.registry import ai_of
from engine.core.errors import IllegalAction
from engine.core.game import Game
from engine.core.replay import replay

#: Bumped whenever a belief's method or the track's shape changes (cached tracks are keyed by it).
BELIEFS_VERSION = 2


def entropy(weights: Iterable[float]) -> float:
    """Shannon entropy, in bits, of a distribution given by non-negative weights (any scale)."""
    values = [float(w) for w in weights if w > 0]
    total = sum(values)
    if total <= 0:
        return 0.0
    return max(0.0, -sum(w / total * math.log2(w / total) for w in values))


def measure(count: int, unit: str, bits: float | None = None) -> dict[str, Any]:
    """A belief's width: how many ``unit`` are still possible, and its entropy when it has one."""
    return {"count": count, "unit": unit, "bits": None if bits is None else round(bits, 3)}


def _changed(before: dict[str, Any] | None, after: dict[str, Any]) -> dict[str, Any] | None:
    """What one ply changed in a belief's measure, None when nothing."""
    if before is None or before == after:
        return None
    change: dict[str, Any] = {"from": before["count"], "to": after["count"]}
    if before.get("bits") is not None and after.get("bits") is not None:
        change["bits_from"], change["bits_to"] = before["bits"], after["bits"]
    return change


def belief_track(game: Game, log: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    """``viewer``'s beliefs after every ply of ``log`` (stopping at a rejected action)::

        {"version": 1, "plies": [{"ply": 0, "beliefs": [belief, ...]}, ...]}

    where each belief is :meth:`GameAI.belief_summary`'s, plus ``changed``: the change the
    ply made to its measure (``{"from", "to", "bits_from", "bits_to"}``) or None.
    """
    ai = ai_of(game)
    plies: list[dict[str, Any]] = []
    last: dict[tuple[str, str], dict[str, Any]] = {}

    def observe(ply: int, action: dict[str, Any] | None, state: Any) -> None:
        beliefs = []
        for belief in [] if ai is None else ai.belief_summary(state, viewer):
            key = (belief["holder"], belief["kind"])
            beliefs.append({**belief, "changed": _changed(last.get(key), belief["measure"])})
            last[key] = belief["measure"]
        plies.append({"ply": ply, "beliefs": beliefs})

    try:
        replay(log, observe)
    except IllegalAction as exc:
        if exc.partial is None:
            raise
    return {"version": BELIEFS_VERSION, "plies": plies}
