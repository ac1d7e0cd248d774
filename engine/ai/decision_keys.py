"""The keys of a playout's decisions (:meth:`engine.ai.analysis.Analyst._decision_rng`):
each decision's generator is keyed by the world's key and the decision's place in the
game, folded in word by word, so that two playouts of one world after two different
moves meet the same chance at the same turn."""

from __future__ import annotations

import zlib
from typing import Any

#: a 64-bit word's bits
MASK = (1 << 64) - 1
#: what tells a decision's chance generator from its bot's
CHANCE = 0x43_48_41_4E_43_45


def mix(x: int) -> int:
    """SplitMix64's finaliser: a 64-bit word whose every bit depends on every bit of ``x``
    (a decision's key is folded from its coordinates with it: a hash per decision costs
    a playout too much)."""
    x = (x + 0x9E3779B97F4A7C15) & MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK
    return x ^ (x >> 31)


def code(part: Any) -> int:
    """A coordinate of a decision as a word, the same in every process (a string's
    ``hash`` is not): an integer as itself, anything else by the CRC of its ``repr``."""
    if part.__class__ is int:
        return part & MASK
    word = CODES.get(part)
    if word is None:
        word = CODES[part] = zlib.crc32(repr(part).encode()) | 1 << 40
    return word


#: the words of the coordinates met so far (a CRC per decision costs too much)
CODES: dict[Any, int] = {}
