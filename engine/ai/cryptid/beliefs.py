"""Cryptid: complete states drawn from what one seat knows (belief sampling).

A seat sees the table, both discard piles, the hand and deck sizes, its own hand
and deck, and — when it is the expander — the two blocks drawn for the expansion
(CUL-5). What it cannot know:

* **The opponent's hand.** The opponent's hand and deck together are its deck mix
  less its discards (public); a sample deals the hand's size from them at random
  and leaves the rest as the deck (piles are unordered: draws come from the
  generator).
* **The blocks drawn for the expansion**, for the seat that is not expanding: they
  go back into the block deck (all blocks less those on the table) and are drawn
  again as the rules draw them (the first four after the setup are normal, CUL-2.3).
* **The future**: the sample carries a new generator drawn from the caller's.

Nothing else is hidden: the sample is the state with those parts redealt, and the
opponent's opening hand (part of the setup record) left out.
"""

from __future__ import annotations

from math import comb
from typing import Any

from engine.ai.beliefs import entropy, measure
from engine.core.rng import Rng
from engine.games.cryptid.rules import begin_expansion
from engine.games.cryptid.state import (
    BLOCK_ORDER,
    BLOCK_RANK,
    CARDS,
    GUARANTEED_NORMAL,
    OTHER,
    SEATS,
    CryptidState,
    deck_cards,
)

#: blocks on the table before the first expansion (CUL-2.3: one cryptid row, two scientist)
FIRST_BLOCKS = 3


class Beliefs:
    """What ``viewer`` knows of ``state``, ready to deal complete states from."""

    def __init__(self, state: CryptidState, viewer: str | None):
        self.state = state
        self.viewer = viewer
        #: an expansion whose blocks are not drawn (a log without a seed records them only
        #: when placed): the sample draws them, as the rules would with a seed
        self.undrawn = state.phase == "expansion" and state.pending_blocks is None
        if viewer is None:
            if self.undrawn:
                self._block_deck(state)
            return
        opponent = OTHER[viewer]
        self.opponent = opponent
        unseen = deck_cards(state.options["decks"][opponent])
        for card in state.discards[opponent]:
            unseen.remove(card)
        #: the opponent's hand and deck together, sorted (public: its mix less its discards)
        self.unseen = unseen
        self.hand_size = len(state.hands[opponent])
        #: the expansion's blocks, when drawn and hidden from the viewer: drawn again
        self.redraw_blocks = state.pending_blocks is not None and viewer != state.active
        if self.redraw_blocks or self.undrawn:
            self._block_deck(state)

    def _block_deck(self, state: CryptidState) -> None:
        # the block deck with the drawn blocks back in: which blocks are in one or the
        # other is public (every block placed or removed was shown), the split is not
        back = sorted(
            [*state.block_pool, *(state.pending_blocks or ())], key=BLOCK_RANK.__getitem__
        )
        self.block_deck = back
        drawn_before = len(BLOCK_ORDER) - FIRST_BLOCKS - len(back)
        self.guaranteed = max(0, GUARANTEED_NORMAL - drawn_before)

    def sample(self, rng: Rng) -> CryptidState:
        """One complete state consistent with everything the viewer knows."""
        st = self.state
        new = st.copy()
        new.rng = Rng(rng.next64())
        if self.viewer is None:
            if self.undrawn:
                new.block_pool = list(self.block_deck)
                new.guaranteed = self.guaranteed
                begin_expansion(new)
            return new
        opponent = self.opponent
        cards = list(self.unseen)
        rng.shuffle(cards)
        new.hands[opponent] = sorted(cards[: self.hand_size])
        new.decks[opponent] = sorted(cards[self.hand_size :])
        new.setup = {**st.setup, "hands": {self.viewer: list(st.setup["hands"][self.viewer])}}
        if self.redraw_blocks or self.undrawn:
            new.block_pool = list(self.block_deck)
            new.guaranteed = self.guaranteed
            begin_expansion(new)  # draws the two blocks with the sample's generator
        return new


def hand_distribution(unseen: list[str], hand_size: int) -> list[tuple[dict[str, int], float]]:
    """Every possible hand (card -> how many) of ``hand_size`` cards dealt at random from
    ``unseen``, with its probability (multivariate hypergeometric: the opponent's hand is
    a uniform draw from its hand and deck together, as :meth:`Beliefs.sample` deals it)."""
    available = {card: unseen.count(card) for card in CARDS if card in unseen}
    kinds = list(available)
    ways_total = comb(len(unseen), hand_size)
    hands: list[tuple[dict[str, int], float]] = []

    def build(i: int, left: int, hand: dict[str, int], ways: int) -> None:
        if i == len(kinds):
            if left == 0:
                hands.append((dict(hand), ways / ways_total))
            return
        card = kinds[i]
        for k in range(min(left, available[card]) + 1):
            hand[card] = k
            build(i + 1, left - k, hand, ways * comb(available[card], k))
        del hand[card]

    build(0, hand_size, {}, 1)
    return [(h, p) for h, p in hands if p > 0]


def summary(state: CryptidState, viewer: str | None) -> list[dict[str, Any]]:
    """Each seat's belief about its opponent's hand (:meth:`GameAI.belief_summary`): per
    card, the chance the hand holds at least one and how many it holds on average, from
    the cards unseen by that seat (the opponent's deck mix less its discards: public).
    A seat's perspective gets its own belief; the all-seeing one both seats'."""
    beliefs = []
    for holder in SEATS:
        if viewer is not None and viewer != holder:
            continue
        known = Beliefs(state, holder)
        hands = hand_distribution(known.unseen, known.hand_size)
        cards = []
        for card in CARDS:
            if card not in known.unseen:
                continue
            cards.append(
                {
                    "card": card,
                    "at_least_one": round(float(sum(p for h, p in hands if h.get(card, 0) > 0)), 4),
                    "expected": round(sum(p * h.get(card, 0) for h, p in hands), 3),
                }
            )
        beliefs.append(
            {
                "holder": holder,
                "kind": "hand",
                "about": known.opponent,
                "hand_size": known.hand_size,
                "unseen": len(known.unseen),
                "cards": cards,
                "measure": measure(len(hands), "hands", entropy(p for _, p in hands)),
            }
        )
    return beliefs
