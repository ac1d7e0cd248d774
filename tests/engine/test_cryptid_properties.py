"""CUL-4 and the engine's promises over many games (hypothesis and seeded sweeps).

Default run: a few hundred games. ``LANTERN_SLOW=1`` adds the thousands-of-games
sweeps (marker ``slow``); ``HYPOTHESIS_PROFILE=thorough`` raises the example counts.
"""

from __future__ import annotations

import contextlib
import copy
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import ENGINE_ERROR, IllegalAction, get_game, play, replay
from engine.core.rng import Rng
from engine.games.cryptid.groups import group_from
from engine.games.cryptid.state import CryptidState

GAME_ID = "cryptid-urban-legends"
GAME = get_game(GAME_ID)
BOTS = ["random", "greedy"]
SLOW = os.environ.get("LANTERN_SLOW", "").lower() in {"1", "true", "yes"}
slow = pytest.mark.skipif(not SLOW, reason="set LANTERN_SLOW=1 for the thousands-of-games sweeps")


def examples(n: int) -> int:
    """``n`` examples, or more when the loaded hypothesis profile asks for more."""
    return max(n, settings().max_examples)


seeds = st.integers(min_value=0, max_value=2**64 - 1)
bot_pairs = st.tuples(st.sampled_from(BOTS), st.sampled_from(BOTS))


def check_invariants(state: CryptidState) -> None:
    # CUL-4.5: ten sensors, never on a block (each row has exactly blocks + 1 spaces)
    for seat, spaces in state.sensors.items():
        assert len(spaces) == len(state.rows[seat]) + 1
        assert all(n >= 0 for space in spaces for n in space)
    totals = [
        sum(space[c] for spaces in state.sensors.values() for space in spaces) for c in range(3)
    ]
    if state.displaced is not None:
        totals = [t + d for t, d in zip(totals, state.displaced, strict=True)]
    assert totals == [4, 3, 3]
    # CUL-4.4: never more than 4 presence markers, only on blocks on the table
    on_table = set(state.rows["cryptid"]) | set(state.rows["scientist"])
    assert len(state.presence) <= 4 and state.presence <= on_table
    assert state.evidence <= on_table
    # 5 evidence markers at most, conserved once placed
    assert len(state.evidence) + state.held["cryptid"] + state.held["scientist"] <= 5
    # hands never exceed 4; every card is somewhere
    for seat in ("cryptid", "scientist"):
        assert len(state.hands[seat]) <= 4
        assert len(state.hands[seat]) + len(state.decks[seat]) + len(state.discards[seat]) == 10
    if state.phase == "sensor":
        # the active row has one block fewer than the inactive row
        assert len(state.rows[state.active]) + 1 == len(state.rows[state.inactive])
        assert state.active_sensors == sum(map(sum, state.sensors[state.active]))
        # CUL-4.3: every card in hand is playable while sensors remain
        if state.active_sensors:
            kinds = {
                a.get("card") for a in GAME.legal_actions(state, state.turn) if a["type"] == "play"
            }
            assert kinds == set(state.hands[state.turn])


def walk(seed: int, bots: tuple[str, str], check_all_legal: bool = False) -> dict:
    """Play one game, checking CUL-4 at every step; return its log."""
    log = play(GAME_ID, seed, list(bots))
    state = GAME.initial_state(
        GAME.normalize_options({}), ["cryptid", "scientist"], log["setup"], Rng(seed)
    )
    round_blocks: dict[int, int] = {}
    check_invariants(state)
    for action in log["actions"]:
        if state.phase == "sensor":
            round_blocks.setdefault(state.round, state.block_count())
        if check_all_legal:
            seat = GAME.to_act(state)[0]
            for legal in GAME.legal_actions(state, seat):
                GAME.apply(state.copy(), legal)  # every listed action is accepted
            assert (
                GAME.legal_actions(state, "cryptid" if seat == "scientist" else "scientist") == []
            )
        GAME.apply(state, action)
        check_invariants(state)
    # CUL-4.1: 3, 5, then 7 blocks at the start of each round; CUL-4.2: at most 8 rounds
    assert all(round_blocks[r] == min(2 * r + 1, 7) for r in round_blocks)
    assert state.round <= 8
    result = log["result"]
    assert result is not None and result["winner"] in ("cryptid", "scientist")
    assert result["reason"] in ("escape", "capture", "timeout")
    if result["reason"] == "timeout":
        assert state.round == 8 and sum(result["evidence"].values()) == 5
    return log


@settings(max_examples=examples(150))
@given(seed=seeds, bots=bot_pairs)
def test_cul_4_1_to_4_5_hold_at_every_step_and_games_end_within_8_rounds(seed, bots):
    walk(seed, bots)


@settings(max_examples=examples(40))
@given(seed=seeds, bots=bot_pairs)
def test_every_listed_action_is_accepted(seed, bots):
    walk(seed, bots, check_all_legal=True)


@settings(max_examples=examples(60))
@given(seed=seeds, bots=bot_pairs)
def test_a_played_log_validates_with_and_without_its_seed(seed, bots):
    log = play(GAME_ID, seed, list(bots))
    assert replay(log).result == log["result"]
    unseeded = {**log, "seed": None}
    assert replay(unseeded).result == log["result"]


# --------------------------------------------------------------------------- nothing else is legal
FIELD_VALUES = {
    "seat": ["cryptid", "scientist", "mrx", None],
    "type": ["play", "wild", "draw", "declare", "blockade", "relocate", "expand", "dance"],
    "card": ["split", "shuffle", "align", "joker", ["split"]],
    "as": ["split", "shuffle", "align", "draw", {"align": 1}],
    "space": [-1, 0, 1, 2, 3, 4, 5, "1", None, True],
    "color": ["red", "white", "black", "pink", 3, ["red"]],
    "dir": ["left", "right", "up", ["left"]],
    "side": ["left", "right", "middle", ["left"]],
    "count": [-1, 0, 3, 5, 10, 11, "4"],
    "colors": [["red"], ["white", "black"], ["red", "red"], [], "red", ["red", "white", "black"]],
    "left": [{}, {"red": 1}, {"white": 2, "black": 1}, {"red": -1}, {"pink": 1}, [1]],
    "right": [{}, {"black": 1}, {"red": 2, "white": 1}, 3],
}


EFFECT_FIELDS = {
    "split": ("space", "left", "right"),
    "shuffle": ("space", "color", "dir"),
    "align": ("color", "dir"),
}


def _fields(action: dict) -> tuple[str, ...]:
    """The fields an action type reads (any other field is ignored, CUL-6.6)."""
    kind = action.get("type")
    if kind in ("play", "wild"):
        key = "card" if kind == "play" else "as"
        effect = action.get(key)
        return (
            "seat",
            "type",
            key,
            *(EFFECT_FIELDS.get(effect, ()) if isinstance(effect, str) else ()),
        )
    return ("seat", "type", *{"declare": ("count", "colors"), "blockade": ("side",)}.get(kind, ()))


def _normal(action: dict) -> tuple:
    """An action's meaning: the fields its type reads, colour counts without zero entries."""
    out = []
    for key in sorted(set(_fields(action)) & set(action)):
        value = action[key]
        if key in ("left", "right") and isinstance(value, dict):
            with contextlib.suppress(IllegalAction):
                value = tuple(group_from(value, "X", "x"))
        out.append((key, repr(value)))
    return tuple(out)


@settings(max_examples=examples(150))
@given(seed=seeds, bots=bot_pairs, stop=st.integers(min_value=0, max_value=60), data=st.data())
def test_nothing_but_the_listed_actions_is_accepted(seed, bots, stop, data):
    """A mutated (non-chance) action is accepted exactly when legal_actions lists it."""
    log = play(GAME_ID, seed, list(bots))
    state = GAME.initial_state(
        GAME.normalize_options({}), ["cryptid", "scientist"], log["setup"], Rng(seed)
    )
    for action in log["actions"][: min(stop, len(log["actions"]) - 1)]:
        GAME.apply(state, action)
    seat = GAME.to_act(state)[0]
    listed = [
        a
        for a in GAME.legal_actions(state, seat)
        if a["type"] not in ("draw", "expand", "relocate")
    ]
    if not listed:
        return
    base = dict(data.draw(st.sampled_from(listed)))
    for _ in range(data.draw(st.integers(min_value=1, max_value=3))):
        key = data.draw(st.sampled_from(sorted(FIELD_VALUES)))
        base[key] = data.draw(st.sampled_from(FIELD_VALUES[key]))
    if base.get("type") in ("draw", "expand", "relocate"):
        return  # chance outcomes and relocations: covered by their rule tests
    legal = (
        {_normal(a) for a in GAME.legal_actions(state, base["seat"])}
        if base["seat"] in ("cryptid", "scientist")
        else set()
    )
    try:
        GAME.apply(state.copy(), base)
        accepted = True
    except IllegalAction as exc:
        assert exc.rule.startswith("CUL-") or exc.rule.startswith("LOG-"), exc.rule
        accepted = False
    assert accepted == (_normal(base) in legal), base


# --------------------------------------------------------------------------- mutated logs
MUTATIONS = ["drop", "duplicate", "swap_seat", "field", "swap_next"]


@settings(max_examples=examples(150))
@given(seed=seeds, bots=bot_pairs, data=st.data())
def test_a_log_mutated_at_one_action_is_legal_or_rejected_with_a_rule(seed, bots, data):
    log = play(GAME_ID, seed, list(bots))
    actions = log["actions"]
    index = data.draw(st.integers(min_value=0, max_value=len(actions) - 1))
    how = data.draw(st.sampled_from(MUTATIONS))
    mutated = copy.deepcopy(log)
    mutated["seed"] = data.draw(st.sampled_from([seed, None]))
    acts = mutated["actions"]
    if how == "drop":
        del acts[index]
    elif how == "duplicate":
        acts.insert(index, copy.deepcopy(acts[index]))
    elif how == "swap_seat":
        acts[index]["seat"] = "scientist" if acts[index]["seat"] == "cryptid" else "cryptid"
    elif how == "swap_next" and index + 1 < len(acts):
        acts[index], acts[index + 1] = acts[index + 1], acts[index]
    else:
        key = data.draw(st.sampled_from(sorted(FIELD_VALUES) + ["cards", "to"]))
        acts[index][key] = data.draw(
            st.sampled_from(
                FIELD_VALUES.get(key, [["split"], ["align", "align"], [], {"0": {"red": 1}}, None])
            )
        )
    try:
        replay(mutated)
    except IllegalAction as exc:
        assert exc.rule != ENGINE_ERROR, exc
        if exc.index is None:  # the result
            assert exc.rule == "CUL-6.6", exc
        else:  # an action that is not even {"seat": str, "type": str} is LOG-ACTIONS
            assert exc.rule.startswith("CUL-") or exc.rule == "LOG-ACTIONS", exc
            assert exc.index >= index  # the actions before the mutation are untouched
            assert len(exc.partial.actions) == exc.index


# --------------------------------------------------------------------------- seeded sweeps
@pytest.mark.slow
@slow
@pytest.mark.parametrize("bots", [(a, b) for a in BOTS for b in BOTS])
def test_thousands_of_seeded_games_end_and_revalidate(bots):
    for seed in range(1500):
        log = walk(seed, bots)
        assert replay({**log, "seed": None}).result == log["result"]


def test_a_few_hundred_seeded_games_end_and_revalidate():
    for seed in range(100):
        for bots in (("greedy", "greedy"), ("random", "greedy"), ("greedy", "random")):
            log = play(GAME_ID, seed, list(bots))
            assert replay(log).result == log["result"]
            assert replay({**log, "seed": None}).result == log["result"]


# --------------------------------------------------------------------------- arbitrary input
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 12)
    | st.floats(allow_nan=False)
    | st.sampled_from(
        [
            "left",
            "right",
            "red",
            "white",
            "black",
            "split",
            "shuffle",
            "align",
            "N1",
            "M1",
            "0",
            "3",
            "",
        ]
    ),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(["red", "white", "black", "0", "1", "x"]), children, max_size=3
        )
    ),
    max_leaves=8,
)
action_keys = st.sampled_from(sorted(FIELD_VALUES) + ["cards", "to"])


@settings(max_examples=examples(200))
@given(
    seed=seeds,
    stop=st.integers(min_value=0, max_value=80),
    seat=st.sampled_from(["cryptid", "scientist"]),
    kind=st.sampled_from(FIELD_VALUES["type"]),
    fields=st.dictionaries(action_keys, json_values, max_size=5),
)
def test_arbitrary_action_fields_are_rejected_with_a_rule_never_an_exception(
    seed, stop, seat, kind, fields
):
    log = play(GAME_ID, seed, ["greedy", "random"])
    state = GAME.initial_state(
        GAME.normalize_options({}),
        ["cryptid", "scientist"],
        log["setup"],
        Rng(seed) if stop % 2 else None,
    )
    for action in log["actions"][: min(stop, len(log["actions"]) - 1)]:
        GAME.apply(state, action)
    try:
        GAME.apply(state, {**fields, "seat": seat, "type": kind})
    except IllegalAction as exc:
        assert exc.rule.startswith("CUL-"), exc


@settings(max_examples=examples(100))
@given(options=json_values, setup=json_values, seed=st.none() | st.integers(0, 5))
def test_arbitrary_options_and_setup_are_rejected_with_a_rule(options, setup, seed):
    log = {
        "format": "lantern-log/1",
        "game": GAME_ID,
        "options": options,
        "seed": seed,
        "setup": setup,
        "seats": [{"seat": "cryptid", "player": "a"}, {"seat": "scientist", "player": "b"}],
        "actions": [],
    }
    try:
        replay(log)
    except IllegalAction as exc:
        assert exc.rule != ENGINE_ERROR, exc
        assert exc.index is None


# --------------------------------------------------------------------------- CUL-4, one fact each
def _states(games: int, bots: tuple[str, str] = ("greedy", "greedy")):
    """Every state of ``games`` seeded games, after each action (the same object, advancing)."""
    for seed in range(games):
        log = play(GAME_ID, seed, list(bots))
        state = GAME.initial_state(
            GAME.normalize_options({}), ["cryptid", "scientist"], log["setup"], Rng(seed)
        )
        yield state
        for action in log["actions"]:
            GAME.apply(state, action)
            yield state


def test_cul_4_2_the_block_deck_empties_after_round_7_and_no_game_passes_round_8():
    for state in _states(60):
        assert state.round <= 8
        if state.round == 8 and state.phase == "sensor":
            assert not state.block_pool
        if state.result and state.result["reason"] == "timeout":
            assert state.round == 8


def test_cul_4_3_every_card_in_hand_is_playable_while_sensors_remain():
    checked = 0
    for state in _states(30, ("random", "greedy")):
        if state.phase == "sensor" and state.active_sensors:
            seat = state.turn
            playable = {a["card"] for a in GAME.legal_actions(state, seat) if a["type"] == "play"}
            assert playable == set(state.hands[seat])
            checked += 1
    assert checked > 100


def test_cul_4_4_the_hiding_phase_needs_at_most_four_presence_markers():
    from tests.engine.cryptid_helpers import table

    # the most a hiding can ask for: presence on both ends of a 3-block active row makes all
    # 4 inactive blocks candidates, and every one of them sees all three colours
    state = table(
        active="cryptid",
        active_row=["N1", "N2", "N3"],
        inactive_row=["N4", "N5", "N6", "N7"],
        inactive_spaces=[
            {},
            {"red": 1, "white": 1, "black": 1},
            {},
            {"red": 1, "white": 1, "black": 1},
            {"red": 2, "white": 1, "black": 1},
        ],
        presence=("N1", "N3"),
        phase="hiding",
    )
    GAME.apply(state, {"seat": "cryptid", "type": "declare", "colors": ["red", "white", "black"]})
    # 2 markers from the supply, both of the active row's: all 4 on the table, and an escape
    assert state.presence == {"N4", "N5", "N6", "N7"} and state.result["reason"] == "escape"
    for state in _states(60):
        assert len(state.presence) <= 4


def test_cul_4_5_ten_sensors_conserved_never_on_a_block():
    for state in _states(40, ("random", "random")):
        check_invariants(state)
