"""A seeded random number generator whose output never depends on the Python version.

``random.Random`` keeps ``random()`` stable but has changed how ``randrange`` and
friends consume bits between releases, and a stored log must replay the same
in ten years. SplitMix64 is tiny, fast enough in pure Python and fully
specified here, so another implementation (a JavaScript client, say) can
reproduce every shuffle from the seed.
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableMapping, MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_SPAN = 1 << 64
#: ``below(n)``'s rejection bound for the small ``n`` games draw with (a table look-up
#: instead of two operations on 65-bit integers per draw)
_LIMITS = [0, *(_SPAN - _SPAN % n for n in range(1, 1025))]


class Rng:
    """SplitMix64. ``below(n)`` is unbiased (rejection sampling on 64-bit words)."""

    __slots__ = ("_state",)

    def __init__(self, seed: int):
        self._state = seed & _MASK

    def next64(self) -> int:
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if 0 < n < 1025 and n.__class__ is int:
            limit = _LIMITS[n]
        elif n <= 0:
            raise ValueError("below() needs n > 0")
        else:
            limit = _SPAN - _SPAN % n
        while True:
            # next64, written out: games draw through here on every refill and deal
            z = self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            z ^= z >> 31
            if z < limit:
                return z % n

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates, from the end."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def draw(self, pool: list[T], count: int = 1) -> list[T]:
        """Remove and return ``count`` items chosen uniformly from ``pool``.

        Games keep unordered piles as *sorted* lists, so the same seed draws the
        same items whatever order they were put back in.
        """
        return [pool.pop(self.below(len(pool))) for _ in range(count)]

    def draw_counted(self, pile: MutableMapping[T, int], count: int, order: Sequence[T]) -> list[T]:
        """Remove ``count`` items from the multiset ``pile`` (item -> copies, no zero counts)
        and return them: the same items as :meth:`draw` on the sorted list of its copies,
        ``order`` naming every item of the pile in sorted order (names not in it count 0).
        Without expanding the pile: games draw tickets out of a bag of a hundred."""
        drawn = []
        total = sum(pile.values())
        get = pile.get
        state = self._state
        for _ in range(count):
            if total <= 0:
                self._state = state
                raise ValueError("below() needs n > 0")
            limit = _LIMITS[total] if total < 1025 else _SPAN - _SPAN % total
            while True:  # below(total), written out (a draw per ticket refilled)
                z = state = (state + 0x9E3779B97F4A7C15) & _MASK
                z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                z ^= z >> 31
                if z < limit:
                    break
            index = z % total
            for item in order:
                copies = get(item, 0)
                if index < copies:
                    if copies == 1:
                        del pile[item]
                    else:
                        pile[item] = copies - 1
                    drawn.append(item)
                    break
                index -= copies
            total -= 1
        self._state = state
        return drawn

    @classmethod
    def derived(cls, *parts: object) -> Rng:
        """A generator that is a function of ``parts`` only (their ``repr``): the same
        coordinates (a seed, a ply, a viewer, a purpose...) give the same stream, and it
        reads nothing else (analysis and the search's carried worlds draw this way)."""
        digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
        return cls(int.from_bytes(digest, "big"))

    def fork(self) -> Rng:
        """An independent generator (for a bot, say) that does not disturb this one."""
        return Rng(self.next64())
