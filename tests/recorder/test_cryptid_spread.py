"""CUL-6.4 relocations described as a Spread (Game.legal_spread) and chosen space by space
(recorder.choices.choose_spread) are exactly the engine's listed legal actions, in the
positions bot games reach."""

from __future__ import annotations

import json

import pytest

from engine import get_game, play
from engine.games.cryptid.state import COLORS
from recorder.choices import choose_spread

GAME = get_game("cryptid-urban-legends")


def _placements(spread, prefix=None) -> list[dict]:
    """Every action the choice can end at, following every value of every step."""
    step = choose_spread(spread.action, spread.field, spread.items, spread.spaces, prefix)
    if step.field is None:
        return step.actions
    found = []
    for value in step.values:
        below = _placements(spread, {**step.prefix, step.field: value["value"]})
        assert len(below) == value["count"]
        found += below
    return found


def _canonical(action: dict) -> str:
    return json.dumps(action, sort_keys=True)


@pytest.mark.parametrize("seed", [174, 84, 47])
def test_the_spread_of_a_relocation_is_its_legal_actions(seed):
    log = play(GAME.id, seed, ["greedy", "greedy"])
    state = GAME.initial_state(
        GAME.normalize_options(log["options"]), ["cryptid", "scientist"], log["setup"], None
    )
    relocations = 0
    for action in log["actions"]:
        for seat in ("cryptid", "scientist"):
            spread = GAME.legal_spread(state, seat)
            if spread is None:
                continue
            assert state.phase == "relocate" and seat == "cryptid"
            assert spread.items == {COLORS[c]: n for c, n in enumerate(state.displaced) if n}
            listed = GAME.legal_actions(state, seat)
            placed = _placements(spread)
            assert len(placed) == len(listed)
            assert sorted(map(_canonical, placed)) == sorted(map(_canonical, listed))
            relocations += 1
        GAME.apply(state, action)
    assert relocations
