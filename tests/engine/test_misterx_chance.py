"""MX-6.8 / MX-3.12 chance options: what a refill could draw, for a recorder at the table."""

from __future__ import annotations

import pytest

from engine import get_game, play

GAME = get_game("mister-x")


@pytest.mark.parametrize("seed", [4])
def test_every_refill_drawn_is_among_its_chance_options_and_all_are_legal(seed):
    log = play("mister-x", seed, ["greedy", "random", "greedy"])
    options = GAME.normalize_options(log["options"])
    state = GAME.initial_state(options, [e["seat"] for e in log["seats"]], log["setup"], None)
    refills = 0
    for action in log["actions"]:
        if action["type"] == "refill":
            bare = {k: v for k, v in action.items() if k != "tickets"}
            outcomes = GAME.chance_options(state, bare)
            drawn = {**action, "tickets": sorted(action["tickets"])}
            assert drawn in outcomes
            assert len({tuple(o["tickets"]) for o in outcomes}) == len(outcomes)
            for outcome in outcomes[:: max(1, len(outcomes) // 5)]:
                GAME.apply(GAME.clone(state), outcome)  # each one is accepted without a seed
            refills += 1
        else:
            assert GAME.chance_options(state, action) == [action]
        GAME.apply(state, action)
    assert refills


def test_a_refill_out_of_turn_has_no_chance_listed():
    log = play("mister-x", 2, ["greedy", "greedy"])
    options = GAME.normalize_options(log["options"])
    state = GAME.initial_state(options, [e["seat"] for e in log["seats"]], log["setup"], None)
    action = {"seat": "det1", "type": "refill"}  # Mister X moves first
    assert GAME.chance_options(state, action) == [action]
