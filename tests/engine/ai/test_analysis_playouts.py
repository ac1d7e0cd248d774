"""What the analysis tells a reader of how a chance was made (``engine.analysis_playouts``,
shown under the graph) is how it is made: a seat's own chance from ``own`` playouts and
an all-seeing one from ``all_seeing``; playouts told to be played to the end never stop
short, and those told to be cut (a few turns at most, then scored by the game's estimate)
do stop short of the end."""

from __future__ import annotations

import pytest

from engine import analysis_playouts, get_game, play, replay
from engine.ai.analysis import Analyst


@pytest.mark.parametrize("game_id", ["cryptid-urban-legends", "mister-x", "cloak-and-dagger"])
def test_the_playouts_a_reader_is_told_of_are_the_playouts_made(game_id, monkeypatch):
    game = get_game(game_id)
    players = {"cryptid-urban-legends": 2, "mister-x": 2, "cloak-and-dagger": 3}[game_id]
    played = replay(play(game_id, 5, ["greedy"] * players))
    stopped_short: list[bool] = []
    play_out = Analyst._play_out

    def counted(self, world, base, seats, rounds=None):
        scores = play_out(self, world, base, seats, rounds)
        stopped_short.append(not game.is_over(world))
        return scores

    monkeypatch.setattr(Analyst, "_play_out", counted)
    told = analysis_playouts(game, 3)
    own_short = all_short = 0
    for ply in range(1, 7):
        state = played.state_at(ply)
        seat = game.to_act(state)[0]
        analyst = Analyst(game, budget=3, seed=1)
        stopped_short.clear()
        analyst.own_chance(state, seat, ply)
        assert len(stopped_short) == told["own"]
        own_short += sum(stopped_short)
        stopped_short.clear()
        analyst.chances(state, None, [seat], ply)
        assert len(stopped_short) == told["all_seeing"]
        all_short += sum(stopped_short)
    assert Analyst(game, budget=3).max_plies == told["most_plies"]
    assert (own_short > 0) == told["own_cut"]
    if not told["all_seeing_cut"]:
        assert all_short == 0
