"""How the analysis plays a world out (engine/ai/analysis.py): every decision of a
playout draws from a generator keyed by the world and the decision's place in the game,
so two playouts of one world stay coupled however their draws went before; a seat's own
chance is the mean of its batches of playouts."""

from __future__ import annotations

from engine import get_game, play, replay
from engine.ai.analysis import Analyst
from engine.ai.evidence import estimate
from engine.ai.registry import ai_of

CRYPTID = get_game("cryptid-urban-legends")
MISTER_X = get_game("mister-x")


def _states(game, seed, bots, **kwargs):
    log = play(game.id, seed, bots, **kwargs)
    return [(ply, game.clone(st)) for ply, _a, st in replay(log).states()]


def test_a_playout_meets_the_chance_of_its_place_in_the_game_not_of_the_draws_before():
    analyst = Analyst(CRYPTID, 4, seed=2)
    checked = 0
    for ply, state in _states(CRYPTID, 44, ["greedy", "greedy"])[:-1:3]:
        seat = CRYPTID.to_act(state)[0]
        world = analyst.worlds(state, seat, ply)[0]
        drawn = CRYPTID.clone(world)
        for _ in range(5):  # the world's own stream moved on: a turn drew other cards before
            drawn.rng.next64()
        one = analyst._play_out(CRYPTID.clone(world), 77, ["cryptid", "scientist"])
        assert analyst._play_out(drawn, 77, ["cryptid", "scientist"]) == one
        checked += 1
    assert checked >= 5


def test_a_decision_generator_is_keyed_by_world_clock_seat_and_count():
    analyst = Analyst(CRYPTID, 4, seed=2)
    (_ply, state), (_ply2, later) = _states(CRYPTID, 44, ["greedy", "greedy"])[2:4]
    seat = CRYPTID.to_act(state)[0]

    def draws(world, base, seen):
        rng = analyst._decision_rng(CRYPTID.clone(world), base, seat, seen)
        return [rng.next64() for _ in range(3)]

    first = draws(state, 5, {})
    assert draws(state, 5, {}) == first  # the same coordinates: the same draws
    assert draws(state, 6, {}) != first  # another world
    seen: dict = {}
    assert draws(state, 5, seen) == first
    assert draws(state, 5, seen) != first  # its second decision at that clock
    if CRYPTID.clock(later) != CRYPTID.clock(state):
        assert draws(later, 5, {}) != first  # another turn


def test_the_same_move_in_the_same_worlds_gives_the_same_samples():
    analyst = Analyst(MISTER_X, 6, seed=4)
    states = _states(MISTER_X, 12, ["greedy", "random", "greedy"], max_actions=30)
    ply, state = states[10]
    decider, actions = ai_of(MISTER_X).decision(state)
    worlds = analyst.worlds(state, decider, ply)
    one = analyst.scores(state, decider, [decider], ply + 1, actions[0], ("move", 1), worlds)
    two = analyst.scores(state, decider, [decider], ply + 1, actions[0], ("move", 1), worlds)
    assert one == two


def test_a_seat_own_chance_is_the_mean_of_its_batches():
    for game, bots in ((CRYPTID, ["greedy", "random"]), (MISTER_X, ["greedy", "random", "greedy"])):
        analyst = Analyst(game, 5, seed=9)
        assert analyst.own_batches == ai_of(game).analysis_own_batches > 1
        ply, state = _states(game, 3, bots, max_actions=12)[6]
        seat = game.to_act(state)[0]
        own = analyst.own_chance(state, seat, ply)
        assert own.n == analyst.own_batches * analyst.budget
        samples = []
        for batch in range(analyst.own_batches):
            worlds = analyst.worlds(state, seat, ply, None, batch)
            purpose = "chance" if batch == 0 else ("chance", batch)
            samples += analyst.scores(state, seat, [seat], ply, None, purpose, worlds)[0]
        assert own == estimate(samples)
        # batch 0 is the seat's chance as the search's worlds give it
        assert samples[: analyst.budget] == analyst.scores(state, seat, [seat], ply)[0]
