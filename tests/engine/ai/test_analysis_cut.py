"""Cut playouts (engine/ai/analysis.py, ``cut_rounds``): a Cryptid playout stops at the
start of the next round, a Cloak & Dagger own chance's two rounds on, and the table there
is scored by the game's fitted model (engine/ai/<game>/evaluation.py), which gives each
seat a chance."""

from __future__ import annotations

import pytest

from engine import get_game, play, replay
from engine.ai.analysis import Analyst
from engine.ai.cloak import evaluation as cloak_evaluation
from engine.ai.cryptid import evaluation as cryptid_evaluation

CRYPTID = get_game("cryptid-urban-legends")
CLOAK = get_game("cloak-and-dagger")


def _middle(game, seed, bots):
    log = play(game.id, seed, bots)
    states = [game.clone(st) for _p, _a, st in replay(log).states()]
    return states[len(states) // 3]


def _reached(analyst, state, seat, own):
    """The (round, over) of every position a playout was cut at and scored, and the scores."""
    game = analyst.game
    reached = []
    model = analyst.evaluate

    def scored(g, world, s):
        reached.append((g.clock(world)["round"], g.is_over(world)))
        return model(g, world, s)

    analyst.evaluate = scored
    values = analyst.scores(state, None, [seat], 0, worlds=[game.clone(state)], own=own)[0]
    analyst.evaluate = model
    return reached, values


def test_a_cryptid_playout_is_cut_at_the_next_round_and_scored_there():
    analyst = Analyst(CRYPTID, 8, seed=1)
    state = _middle(CRYPTID, 5, ["greedy", "greedy"])
    start = CRYPTID.clock(state)["round"]
    reached, values = _reached(analyst, state, "cryptid", own=False)
    # every playout not over by then was cut as the next round began, and scored there
    assert reached and all(r == (start + 1, False) for r in reached)
    assert len([v for v in values if v not in (0.0, 100.0)]) == len(reached)
    assert _reached(analyst, state, "cryptid", own=True)[0] == reached


def test_a_cloak_own_chance_playout_is_cut_two_rounds_on_and_a_judgement_is_not():
    analyst = Analyst(CLOAK, 8, seed=1)
    state = _middle(CLOAK, 5, ["greedy"] * 4)
    start = CLOAK.clock(state)["round"]
    seat = state.seats[0]
    reached, values = _reached(analyst, state, seat, own=True)
    assert reached and all(r == (start + 2, False) for r in reached)
    # the moves are judged by playouts to the end: a win or a loss, never a model's guess
    reached, values = _reached(analyst, state, seat, own=False)
    assert reached == [] and set(values) <= {0.0, 100.0}


def test_cryptid_model_gives_the_two_seats_complementary_chances():
    state = _middle(CRYPTID, 7, ["greedy", "greedy"])
    cryptid = cryptid_evaluation.evaluate(CRYPTID, state, "cryptid")
    scientist = cryptid_evaluation.evaluate(CRYPTID, state, "scientist")
    assert 0.0 < cryptid < 1.0 and cryptid + scientist == pytest.approx(1.0)
    # a presence marker fewer (nearer a capture, CUL-3.10) is worse for the cryptid
    fewer = CRYPTID.clone(state)
    fewer.presence = set(sorted(fewer.presence)[1:])
    assert cryptid_evaluation.evaluate(CRYPTID, fewer, "cryptid") < cryptid


def test_cloak_model_shares_one_chance_among_the_seats():
    state = _middle(CLOAK, 7, ["greedy"] * 4)
    chances = [cloak_evaluation.evaluate(CLOAK, state, seat) for seat in state.seats]
    assert all(0.0 < c < 1.0 for c in chances) and sum(chances) == pytest.approx(1.0)
    # a seat holding documents in hand (a transfer under way) gains on the others
    k = state.turn
    carrying = CLOAK.clone(state)
    carrying.hands[k] = ["X", "Y"]
    assert cloak_evaluation.evaluate(CLOAK, carrying, state.seats[k]) > chances[k]
