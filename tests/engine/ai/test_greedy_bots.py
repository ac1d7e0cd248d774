"""The greedy bots' fast paths decide as their definitions say (the analysis plays
thousands of greedy playouts per ply, so the bots read what they need once per decision;
these tests hold them to the plain reading on positions of played games)."""

from __future__ import annotations

from engine import get_game, play, replay
from engine.ai.cloak.bots import ALL_DOCUMENTS, _Beliefs
from engine.ai.cloak.bots import greedy_bot as cloak_greedy
from engine.ai.cryptid.bots import _PREFERENCE, _after_effect, best_trace_size, greedy_bot
from engine.core.rng import Rng
from engine.games.cloak.knowledge import knowledge_of
from engine.games.cryptid.legal import legal_actions
from engine.games.cryptid.rules import block_signature, candidate_blocks
from engine.games.cryptid.state import OTHER

CRYPTID = get_game("cryptid-urban-legends")
CLOAK = get_game("cloak-and-dagger")


def _plain_trace_size(state, spaces):
    """The best trace's size as CUL-6.3 reads it: per count and per colour set, how many
    candidate blocks' signatures match it."""
    tally: dict[tuple[int, int], int] = {}
    for j in candidate_blocks(state):
        n, mask = block_signature(spaces, j)
        tally[(0, n)] = tally.get((0, n), 0) + 1
        if mask:
            tally[(1, mask)] = tally.get((1, mask), 0) + 1
    return max(tally.values(), default=0)


def _plain_sensor_choice(state, seat, rng):
    """The greedy bot's sensor-phase choice, every action sized on its own."""
    sign = 1 if seat == "cryptid" else -1
    now = _plain_trace_size(state, state.sensors[OTHER[state.active]])
    scored = []
    for action in legal_actions(state, seat):
        kind = action["type"]
        if kind == "draw":
            size = now
        else:
            effect = action["card"] if kind == "play" else action["as"]
            size = _plain_trace_size(state, _after_effect(state, effect, action))
        scored.append(((sign * size, _PREFERENCE[kind]), action))
    best = max(score for score, _ in scored)
    return rng.choice([action for score, action in scored if score == best])


def _positions(game, seeds, bots):
    for seed in seeds:
        for _ply, _action, state in replay(play(game.id, seed, bots)).states():
            if not game.is_over(state):
                yield game.clone(state)


def test_cryptid_greedy_sensor_turns_are_the_plain_reading():
    checked = wild = 0
    for state in _positions(CRYPTID, range(40, 50), ["greedy", "greedy"]):
        if state.phase != "sensor":
            continue
        seat = state.turn
        spaces = state.sensors[OTHER[state.active]]
        assert best_trace_size(state, spaces) == _plain_trace_size(state, spaces)
        for k in range(3):
            ours = greedy_bot(CRYPTID, state, seat, Rng(k))
            assert ours == _plain_sensor_choice(state, seat, Rng(k))
        checked += 1
        wild += state.wild[seat]
    assert checked > 50 and wild > 5  # the wild card's resolutions were sized too


def test_cloak_greedy_beliefs_are_the_plain_reading():
    checked = 0
    for state in _positions(CLOAK, range(40, 46), ["greedy", "random", "greedy", "random"]):
        for index, seat in enumerate(state.seats):
            beliefs = _Beliefs(knowledge_of(state, index))
            for n, cards in beliefs.contents.items():
                known = cards is not None and n not in beliefs.placed
                assert beliefs.docs(n) == (set(cards) & ALL_DOCUMENTS if known else set())
                for letters in (beliefs.own, beliefs.enemies):
                    assert beliefs.has(n, letters) == (known and any(c in letters for c in cards))
            if CLOAK.to_act(state) == [seat]:
                assert cloak_greedy(CLOAK, state, seat, Rng(3)) == cloak_greedy(
                    CLOAK, CLOAK.clone(state), seat, Rng(3)
                )
            checked += 1
    assert checked > 100
