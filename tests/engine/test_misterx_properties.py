"""Property tests: bot games end or are cut at the cap, every legal action applies,
mutated logs are rejected with an ``MX-*`` id at the mutated index, never a crash.

Example counts are moderate (tests/conftest.py profile); ``HYPOTHESIS_PROFILE=thorough``
runs many more.
"""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import ENGINE_ERROR, IllegalAction, play, replay
from tests.engine.misterx_helpers import GAME

CAP = 400


def scaled(count: int) -> int:
    """``count`` examples under the default profile (50), proportionally more under
    ``HYPOTHESIS_PROFILE=thorough`` (1000: twenty times as many)."""
    return max(1, count * settings.default.max_examples // 50)


BOTS = st.sampled_from(["greedy", "random"])
SEATS = st.integers(min_value=2, max_value=6)


@st.composite
def bot_lineups(draw):
    n = draw(SEATS)
    return [draw(BOTS) for _ in range(n)]


@settings(max_examples=scaled(12))
@given(seed=st.integers(0, 2**32), bots=bot_lineups())
def test_mx_4_3_bot_games_end_or_are_cut_at_the_cap(seed, bots):
    log = play("mister-x", seed, bots, max_actions=CAP)
    r = replay(log)
    if r.status == "finished":
        assert r.result == log["result"]
        assert r.result["winner"] in ("mrx", "detectives")
        assert r.result["moves"] == r.final_state.last_slot
    else:
        assert r.status == "unfinished" and len(log["actions"]) == CAP and log["result"] is None
    # every chance outcome is written in: the log replays the same without its seed
    hand = dict(log, seed=None)
    assert replay(hand).result == r.result


@settings(max_examples=scaled(6))
@given(seed=st.integers(0, 2**32), bots=bot_lineups())
def test_mx_every_legal_action_applies(seed, bots):
    log = play("mister-x", seed, bots, max_actions=150)
    r = replay(log)
    for ply, _action, state in r.states():
        if ply % 7:
            continue
        for seat in GAME.to_act(state):
            actions = GAME.legal_actions(state, seat)
            assert actions, f"{seat} may act but has no legal action"
            sample = (
                actions
                if len(actions) <= 12
                else [actions[(i * 7919 + ply) % len(actions)] for i in range(12)]
            )
            for action in sample:
                GAME.apply(GAME.clone(state), copy.deepcopy(action))


def _first_log(seed: int) -> dict:
    log = play("mister-x", seed, ["greedy", "random", "greedy"], max_actions=120)
    return dict(log, seed=None)


GARBAGE = st.sampled_from(
    [None, -1, 0, 10**6, "x", 3.5, True, [], {}, ["car/double"], "car/teleport"]
)


@settings(max_examples=scaled(40))
@given(
    seed=st.integers(0, 30), where=st.floats(0, 1, exclude_max=True), junk=GARBAGE, data=st.data()
)
def test_mx_mutated_logs_are_rejected_with_a_rule_never_a_crash(seed, where, junk, data):
    log = _first_log(seed)
    index = int(where * len(log["actions"]))
    action = log["actions"][index]
    field = data.draw(st.sampled_from(sorted(k for k in action if k != "seat") + ["seat"]))
    mutated = copy.deepcopy(log)
    mutated["actions"][index][field] = junk
    try:
        replay(mutated)
    except IllegalAction as exc:
        assert exc.rule != ENGINE_ERROR, exc
        assert exc.rule.startswith(("MX-", "LOG-")), exc.rule
        assert exc.index is None or exc.index >= index
        if field in ("ticket", "to", "pawn", "pay", "moves") and junk is not None:
            assert exc.index == index
        return
    # a mutation may be harmless only where the field is optional or ignored
    assert field not in ("ticket", "to", "pawn", "type", "seat")


@settings(max_examples=scaled(30))
@given(seed=st.integers(0, 30), where=st.floats(0, 1, exclude_max=True))
def test_mx_a_move_to_a_city_off_the_line_is_rejected_at_that_index(seed, where):
    log = _first_log(seed)
    moves = [i for i, a in enumerate(log["actions"]) if a["type"] in ("move", "secret")]
    index = moves[int(where * len(moves))]
    state = replay(dict(log, actions=log["actions"][:index], result=None)).final_state
    action = copy.deepcopy(log["actions"][index])
    frm = state.position if action["seat"] == "mrx" else state.pawn_pos[action["pawn"]]
    off_line = next(
        c for c in sorted(state.board.cities) if c != frm and c not in state.board.neighbours[frm]
    )
    action["to"] = off_line
    mutated = dict(log, actions=log["actions"][:index] + [action] + log["actions"][index + 1 :])
    try:
        replay(mutated)
    except IllegalAction as exc:
        assert exc.index == index and exc.rule in ("MX-3.2", "MX-3.4", "MX-3.7")
    else:
        raise AssertionError("a move off the lines was accepted")


@settings(max_examples=scaled(30))
@given(seed=st.integers(0, 30), where=st.floats(0, 1, exclude_max=True), data=st.data())
def test_mx_dropping_or_swapping_actions_is_rejected_with_a_rule(seed, where, data):
    log = _first_log(seed)
    index = int(where * (len(log["actions"]) - 1))
    actions = copy.deepcopy(log["actions"])
    if data.draw(st.booleans()):
        del actions[index]
    else:
        actions[index], actions[index + 1] = actions[index + 1], actions[index]
    try:
        replay(dict(log, actions=actions))
    except IllegalAction as exc:
        assert exc.rule.startswith("MX-") and exc.index is not None and exc.index >= index
