"""Mister X's side of the secret: twin games that differ only in what he cannot know (a
detective's tickets never laid face up: MX-5, the detectives' racks are hidden from him;
tests/replay/twins.py ``misterx_rack_twin``, accepted only when the engine shows him the
same game) get the same beliefs and the same search decisions from his perspective, at
every ply. The comparison can fail: a sampler that reads the real racks is caught."""

from __future__ import annotations

import pytest

from engine import get_game, play, replay
from engine.ai.misterx.beliefs import Beliefs
from engine.ai.registry import ai_of
from engine.ai.search import Search
from engine.core.rng import Rng
from engine.games.misterx.state import MRX, PH_MRX
from replay.frames import ALL, build_frames
from tests.replay.twins import misterx_rack_twin, unseeded

GAME = get_game("mister-x")


def twin_states(seed: int):
    log = unseeded(play(GAME.id, seed, ["greedy"] * 3))
    twin = misterx_rack_twin(log)
    assert build_frames(log, MRX)["frames"] == build_frames(twin, MRX)["frames"]
    assert build_frames(log, ALL)["frames"] != build_frames(twin, ALL)["frames"]
    one = [
        (ply, None, GAME.clone(st)) for ply, _, st in replay(log).states()
    ]  # states() reuses one state
    two = [(ply, None, GAME.clone(st)) for ply, _, st in replay(twin).states()]
    assert len(one) == len(two)
    return [(ply, a, b) for (ply, _, a), (_, _, b) in zip(one, two, strict=True)]


@pytest.mark.parametrize("seed", [36, 2])
def test_mister_x_twins_get_the_same_beliefs_and_search_decisions(seed):
    search = Search(GAME, playouts=24, max_plies=30, prior=0)  # choices resting on the playouts
    decided = differ = 0
    for ply, one, two in twin_states(seed):
        differ += one.racks != two.racks  # the hidden fact, there at this ply
        assert ai_of(GAME).belief_summary(one, MRX) == ai_of(GAME).belief_summary(two, MRX)
        for k in range(2):
            a, b = (
                ai_of(GAME).sample_state(one, MRX, Rng(k)),
                ai_of(GAME).sample_state(two, MRX, Rng(k)),
            )
            assert GAME.view(a, None) == GAME.view(b, None), ply
        if one.phase == PH_MRX and not GAME.is_over(one) and len(ai_of(GAME).decision(one)[1]) > 1:
            assert search.decide(one, MRX, Rng(ply)) == search.decide(two, MRX, Rng(ply)), ply
            decided += 1
    assert decided >= 5 and differ >= decided  # the twins differed while he decided


def test_a_sampler_reading_the_real_racks_is_caught(monkeypatch):
    honest = Beliefs.sample

    def leaky(self, rng):
        sample = honest(self, rng)
        sample.racks = {seat: dict(rack) for seat, rack in self.state.racks.items()}
        sample.bag = dict(self.state.bag)
        return sample

    monkeypatch.setattr(Beliefs, "sample", leaky)
    states = twin_states(2)
    caught = sum(
        GAME.view(ai_of(GAME).sample_state(one, MRX, Rng(0)), None)
        != GAME.view(ai_of(GAME).sample_state(two, MRX, Rng(0)), None)
        for _ply, one, two in states
    )
    assert caught > 10
    # and the search's choices show it (6 of this game's 8 decisions when this was written)
    search = Search(GAME, playouts=24, max_plies=30, prior=0)
    assert any(
        search.decide(one, MRX, Rng(ply)) != search.decide(two, MRX, Rng(ply))
        for ply, one, two in states
        if one.phase == PH_MRX and not GAME.is_over(one) and len(ai_of(GAME).decision(one)[1]) > 1
    )
