"""Belief sampling for Cryptid (engine/ai/cryptid/beliefs.py): samples show each seat
what it saw, deal the opponent's hand with the right odds (chi-square against the
hypergeometric law), redraw the expansion blocks the seat did not see, and do not
depend on anything the seat cannot know (counterfactual)."""

from __future__ import annotations

import math
from collections import Counter
from itertools import combinations_with_replacement

import pytest

from engine import get_game, play, replay
from engine.ai.registry import ai_of
from engine.core.rng import Rng
from engine.games.cryptid.state import CARDS, MYSTERIOUS, OTHER

GAME = get_game("cryptid-urban-legends")
SEATS = ("cryptid", "scientist")


@pytest.mark.parametrize("seed", [0, 4, 9])
def test_every_sample_shows_the_seat_what_it_saw(seed):
    log = play(GAME.id, seed, ["greedy", "random"])
    for ply, _action, st in replay(log).states():
        if GAME.is_over(st):
            continue
        for seat in SEATS:
            beliefs = ai_of(GAME).beliefs(st, seat)
            rng = Rng(ply)
            for _ in range(3):
                sample = beliefs.sample(rng)
                assert GAME.view(sample, seat) == GAME.view(st, seat)
                opponent = OTHER[seat]
                # the opponent's cards are its own, only split otherwise between hand and deck
                assert sorted(sample.hands[opponent] + sample.decks[opponent]) == sorted(
                    st.hands[opponent] + st.decks[opponent]
                )
                if st.phase == "expansion":  # the expansion can go on
                    assert sample.pending_blocks is not None
                    assert sample.guaranteed == st.guaranteed
                    if st.guaranteed:
                        assert not set(sample.pending_blocks) & MYSTERIOUS
                    GAME.apply(GAME.clone(sample), GAME.legal_actions(sample, st.active)[0])


def hypergeometric(mix: dict[str, int], size: int) -> dict[tuple[str, ...], float]:
    """The chance of each hand (a sorted tuple) of ``size`` cards dealt from ``mix``."""
    total = math.comb(sum(mix.values()), size)
    odds = {}
    for hand in combinations_with_replacement(sorted(mix), size):
        count = Counter(hand)
        ways = math.prod(math.comb(mix[c], count[c]) for c in count)
        if ways:
            odds[hand] = ways / total
    return odds


def test_the_opponents_opening_hand_comes_up_with_the_dealing_odds():
    log = play(GAME.id, 3, ["greedy", "greedy"])
    st = replay(log).state_at(0)
    beliefs = ai_of(GAME).beliefs(st, "cryptid")
    mix = Counter(st.hands["scientist"] + st.decks["scientist"])
    odds = hypergeometric(dict(mix), 3)
    draws = 6000
    rng = Rng(99)
    seen = Counter(tuple(beliefs.sample(rng).hands["scientist"]) for _ in range(draws))
    assert set(seen) == set(odds)  # every possible hand, and only those
    chi2 = sum((seen[h] - draws * p) ** 2 / (draws * p) for h, p in odds.items())
    df = len(odds) - 1
    critical = df * (1 - 2 / (9 * df) + 3.09 * math.sqrt(2 / (9 * df))) ** 3  # p ~ 0.001
    assert chi2 < critical, (chi2, seen)
    assert all(card in CARDS for hand in seen for card in hand)


def counterfactual(st, seat):
    """``st`` with what ``seat`` cannot know changed: the opponent's hand swapped with
    other cards of its deck, hidden expansion blocks swapped with the deck's, another
    generator, another opening hand in the setup record."""
    other = GAME.clone(st)
    opponent = OTHER[seat]
    hand, deck = other.hands[opponent], other.decks[opponent]
    for i, card in enumerate(hand):
        swap = next((j for j, d in enumerate(deck) if d != card), None)
        if swap is not None:
            hand[i], deck[swap] = deck[swap], card
    hand.sort()
    deck.sort()
    if other.pending_blocks is not None and seat != other.active and other.block_pool:
        pool = other.block_pool
        other.pending_blocks[0], pool[-1] = pool[-1], other.pending_blocks[0]
    other.rng = Rng(12345)
    other.setup = {
        **other.setup,
        "hands": {**other.setup["hands"], opponent: ["split", "split", "split"]},
    }
    return other


@pytest.mark.parametrize("seat", SEATS)
def test_samples_do_not_depend_on_what_the_seat_cannot_know(seat):
    changed = 0
    for seed in (1, 6):
        log = play(GAME.id, seed, ["greedy", "random"])
        for _ply, _action, st in replay(log).states():
            if GAME.is_over(st):
                continue
            other = counterfactual(st, seat)
            changed += other.hands[OTHER[seat]] != st.hands[OTHER[seat]]
            for k in range(2):
                one = ai_of(GAME).sample_state(st, seat, Rng(k))
                two = ai_of(GAME).sample_state(other, seat, Rng(k))
                assert GAME.view(one, None) == GAME.view(two, None)
                assert one.setup == two.setup and one.rng._state == two.rng._state
    assert changed > 10  # the counterfactuals did differ
