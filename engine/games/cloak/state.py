"""Cloak & Dagger components (CD-1) and the game state.

The components come from ``components.json``. The state is deliberately plain —
lists of one-letter cards — because validation replays thousands of games a
second; everything a seat *knows* is derived from :attr:`CloakState.history`
by :mod:`engine.games.cloak.knowledge`, never stored here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

_COMPONENTS = json.loads((Path(__file__).parent / "components.json").read_text())

ENVELOPES: int = _COMPONENTS["envelopes"]
ENVELOPE_NUMBERS = range(1, ENVELOPES + 1)
SPY_PAIRS: list[str] = _COMPONENTS["spy_pairs"]
DOCUMENTS: tuple[str, ...] = tuple(_COMPONENTS["documents"])
DOCUMENT_COPIES: tuple[int, ...] = tuple(_COMPONENTS["document_copies"])
DOUBLE_AGENTS: frozenset[str] = frozenset(_COMPONENTS["double_agents"])
HAZARDS: frozenset[str] = frozenset(_COMPONENTS["hazards"])
MIN_PLAYERS, MAX_PLAYERS = 2, len(SPY_PAIRS)
SEAT_IDS = [f"p{i + 1}" for i in range(MAX_PLAYERS)]
LOYAL_SPIES: frozenset[str] = frozenset("".join(SPY_PAIRS))


def deck(options: dict[str, Any]) -> list[str]:
    """The draw pile's cards in canonical order (CD-2.2): documents, double agents, hazards.

    With a seed the pile is this list shuffled once by ``Rng(seed).shuffle``.
    """
    cards = [doc for doc in DOCUMENTS for _ in range(options["document_copies"])]
    if options["double_agents"]:
        cards += sorted(DOUBLE_AGENTS)
    if options["hazards"]:
        cards += sorted(HAZARDS)
    return cards


class Entry(NamedTuple):
    """One turn as it happened: everything any seat could have observed of it."""

    #: the action as recorded (chance outcomes filled in)
    action: dict[str, Any]
    #: index of the acting seat
    actor: int
    #: the chosen envelope's contents when the actor looked inside (CD-3)
    saw: tuple[str, ...]
    #: ``take``: cards in hand afterwards; ``drop``: cards put in; else 0 (public, CD-5)
    cards: int
    #: indexes of the seats this envelope number was told to (hazard obligation, CD-6.2)
    told: tuple[int, ...]
    #: the envelope's contents after a winning turn (revealed to all, CD-7.2), else None
    win: tuple[str, ...] | None


class CloakState:
    """The true state. ``envelopes[n]`` holds envelope n's cards (index 0 unused)."""

    __slots__ = (
        "options",
        "seats",
        "envelopes",
        "hands",
        "pile",
        "pile_unknown",
        "setup_pile",
        "turn",
        "winner",
        "owed",
        "history",
        "spies",
        "enemies",
        "knowledge",
        "proofs",
    )

    def __init__(
        self,
        options: dict[str, Any],
        seats: list[str],
        pile: list[str],
        pile_unknown: list[str] | None,
    ):
        self.options = options
        self.seats = seats
        self.envelopes: list[list[str]] = [[] for _ in range(ENVELOPES + 1)]
        self.hands: list[list[str]] = [list(SPY_PAIRS[i]) for i in range(len(seats))]
        #: the pile, top first, in known order
        self.pile = pile
        #: without a seed or a recorded pile: the cards above ``pile`` whose order nobody
        #: wrote down (sorted); each place must then name its card. Else None.
        self.pile_unknown = pile_unknown
        #: the pile as set up, when its order is known (for writing the log's setup)
        self.setup_pile: tuple[str, ...] | None = None if pile_unknown is not None else tuple(pile)
        #: index of the seat to act
        self.turn = 0
        self.winner: int | None = None
        #: per seat: the seats it must tell its next envelope number to (CD-6.2)
        self.owed: list[tuple[int, ...]] = [() for _ in seats]
        self.history: list[Entry] = []
        #: per seat: its own loyal spies, and every other player's (CD-4.1)
        self.spies = [frozenset(SPY_PAIRS[i]) for i in range(len(seats))]
        in_game = frozenset("".join(SPY_PAIRS[: len(seats)]))
        self.enemies = [in_game - own for own in self.spies]
        #: per seat, then the public (index len(seats)): a cache of its knowledge folded over
        #: the history, see knowledge.py
        self.knowledge: list[Any] = [None] * (len(seats) + 1)
        #: per seat: a cache of what its check sheet proves (beliefs.py), folded as knowledge is
        self.proofs: list[Any] = [None] * len(seats)

    @property
    def pile_size(self) -> int:
        return len(self.pile) + len(self.pile_unknown or ())

    @property
    def ply(self) -> int:
        """Turns played so far."""
        return len(self.history)

    def copy(self) -> CloakState:
        """A copy to change apart from this one (``Game.clone``): its lists copied (the
        history's entries shared: they are never changed), the knowledge caches empty."""
        copy = CloakState.__new__(CloakState)
        copy.options = self.options
        copy.seats = self.seats
        copy.envelopes = [list(cards) for cards in self.envelopes]
        copy.hands = [list(cards) for cards in self.hands]
        copy.pile = list(self.pile)
        copy.setup_pile = self.setup_pile
        copy.pile_unknown = None if self.pile_unknown is None else list(self.pile_unknown)
        copy.turn = self.turn
        copy.winner = self.winner
        copy.owed = list(self.owed)
        copy.history = list(self.history)  # entries are never mutated
        copy.spies = self.spies
        copy.enemies = self.enemies
        copy.knowledge = [None] * (len(self.seats) + 1)
        copy.proofs = [None] * len(self.seats)
        return copy
