"""Cryptid: Urban Legends: who may act now and what (``to_act``, ``legal_actions``;
``CUL-*`` in ``docs/rules/cryptid-urban-legends.md``), and the chance an action leaves
open (``chance_options``). Checking and applying an action: :mod:`.rules`.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from engine.games.cryptid.groups import group_dict
from engine.games.cryptid.rules import blockade_sides, possible_blocks
from engine.games.cryptid.state import (
    CARDS,
    COLORS,
    HAND_LIMIT,
    OTHER,
    SEATS,
    CryptidState,
)


# --------------------------------------------------------------------------- whose turn
def to_act(state: CryptidState) -> list[str]:
    phase = state.phase
    if phase == "sensor":
        return [state.turn]
    if phase in ("hiding", "relocate"):
        return ["cryptid"]
    if phase == "blockade":
        return ["scientist"]
    if phase == "expansion":
        return [state.active]
    return []


# --------------------------------------------------------------------------- legal actions
def splits(group: list[int]) -> list[tuple[list[int], list[int]]]:
    """Every legal way to split ``group`` between left and right (CUL-3.3)."""
    total = group[0] + group[1] + group[2]
    out = []
    for left in product(range(group[0] + 1), range(group[1] + 1), range(group[2] + 1)):
        n = left[0] + left[1] + left[2]
        if total > 1 and (n == 0 or n == total):
            continue
        out.append((list(left), [group[0] - left[0], group[1] - left[1], group[2] - left[2]]))
    return out


def effect_actions(state: CryptidState, effect: str) -> list[dict[str, Any]]:
    """The fields of every legal resolution of one effect (without seat and type)."""
    active = state.sensors[state.active]
    last = len(active) - 1
    out: list[dict[str, Any]] = []
    if effect == "split":
        for i, group in enumerate(active):
            if any(group):
                for left, right in splits(group):
                    out.append({"space": i, "left": group_dict(left), "right": group_dict(right)})
    elif effect == "shuffle":
        for i, group in enumerate(active):
            for c, n in enumerate(group):
                if n:
                    if i > 0:
                        out.append({"space": i, "color": COLORS[c], "dir": "left"})
                    if i < last:
                        out.append({"space": i, "color": COLORS[c], "dir": "right"})
    else:
        for c, colour in enumerate(COLORS):
            if any(group[c] for group in active):
                out.append({"color": colour, "dir": "left"})
                out.append({"color": colour, "dir": "right"})
    return out


TRACES: list[dict[str, Any]] = [{"count": n} for n in range(11)] + [
    {"colors": [COLORS[i] for i in range(3) if mask & (1 << i)]} for mask in range(1, 8)
]


def _spread(n: int, spaces: int) -> list[tuple[int, ...]]:
    """Every way to put ``n`` alike sensors on ``spaces`` spaces."""
    if spaces == 1:
        return [(n,)]
    return [(k, *rest) for k in range(n + 1) for rest in _spread(n - k, spaces - 1)]


def relocations(displaced: list[int], spaces: int) -> list[dict[str, dict[str, int]]]:
    """Every way to place the displaced sensors on ``spaces`` inactive-row spaces."""
    out = []
    for per_colour in product(*(_spread(n, spaces) for n in displaced)):
        to: dict[str, dict[str, int]] = {}
        for c, counts in enumerate(per_colour):
            for index, n in enumerate(counts):
                if n:
                    to.setdefault(str(index), {})[COLORS[c]] = n
        out.append(to)
    return out


def legal_actions(state: CryptidState, seat: str) -> list[dict[str, Any]]:
    if seat not in to_act(state):
        return []
    phase = state.phase
    if phase == "sensor":
        out: list[dict[str, Any]] = []
        for card in CARDS:
            if card in state.hands[seat]:
                out += [
                    {"seat": seat, "type": "play", "card": card, **f}
                    for f in effect_actions(state, card)
                ]
        if state.wild[seat]:
            for effect in CARDS:
                out += [
                    {"seat": seat, "type": "wild", "as": effect, **f}
                    for f in effect_actions(state, effect)
                ]
        if len(state.hands[seat]) < HAND_LIMIT:
            out.append({"seat": seat, "type": "draw"})
        return out
    if phase == "hiding":
        return [{"seat": seat, "type": "declare", **trace} for trace in TRACES]
    if phase == "blockade":
        return [{"seat": seat, "type": "blockade", "side": side} for side in blockade_sides(state)]
    if phase == "relocate":
        spaces = len(state.sensors[OTHER[state.active]])
        assert state.displaced is not None, "the relocate phase keeps the sensors it displaced"
        return [
            {"seat": seat, "type": "relocate", "to": to}
            for to in relocations(state.displaced, spaces)
        ]
    if phase == "expansion":
        if state.pending_blocks is not None:
            a, b = state.pending_blocks
            return [
                {"seat": seat, "type": "expand", "left": a, "right": b},
                {"seat": seat, "type": "expand", "left": b, "right": a},
            ]
        return [{"seat": seat, "type": "expand"}]
    return []


def chance_options(state: CryptidState, action: dict[str, Any]) -> list[dict[str, Any]]:
    """Every way the chance in ``action`` (a ``draw`` or an ``expand``) could come out.

    For a recorder at the table: the completed actions the engine would accept
    without a seed. An action without chance comes back alone.
    """
    kind = action.get("type")
    seat = action.get("seat")
    if kind == "draw" and seat in SEATS and state.phase == "sensor":
        size = len(state.hands[seat])
        if size >= HAND_LIMIT:
            return []
        count = 1 if size == HAND_LIMIT - 1 else 2
        deck, discard = state.decks[seat], state.discards[seat]
        if count <= len(deck):
            options = _multisets(deck, count)
        else:  # the whole deck, then the rest from the reshuffled discards (CUL-6.1)
            options = [sorted(deck + rest) for rest in _multisets(discard, count - len(deck))]
        return [{**action, "cards": cards} for cards in options]
    if kind == "expand" and state.phase == "expansion":
        blocks = possible_blocks(state) if state.pending_blocks is None else state.pending_blocks
        return [{**action, "left": a, "right": b} for a in blocks for b in blocks if a != b]
    return [action]


def _multisets(pile: list[str], count: int) -> list[list[str]]:
    """The distinct multisets of ``count`` (1 or 2) cards from ``pile``."""
    found: set[tuple[str, ...]] = set()
    if count == 1:
        found = {(c,) for c in pile}
    else:
        for i in range(len(pile)):
            for j in range(i + 1, len(pile)):
                found.add(tuple(sorted((pile[i], pile[j]))))
    return [list(cards) for cards in sorted(found)]
