"""The engine core: RNG stability, the envelope, replay with its prefix, states and frames."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from engine import (
    ENGINE_ERROR,
    IllegalAction,
    Rng,
    canonical_json,
    get_game,
    log_schema,
    parse_json,
    play,
    replay,
)
from engine.core.errors import require
from engine.core.fields import get_dict, get_int, get_list, get_str

GAME_ID = "cryptid-urban-legends"


@pytest.fixture(scope="module")
def played() -> dict:
    return play(GAME_ID, 58, ["greedy", "greedy"])


# --------------------------------------------------------------------------- RNG
def test_rng_splitmix64_reference_values():
    # the published SplitMix64 outputs for seed 1234567 (Vigna's splitmix64.c)
    rng = Rng(1234567)
    assert [rng.next64() for _ in range(5)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]
    assert Rng(0).next64() == 0xE220A8397B1DCDAF


def test_rng_below_choice_shuffle_draw_are_pinned():
    rng = Rng(42)
    assert [rng.below(10) for _ in range(10)] == [3, 1, 8, 4, 0, 2, 5, 8, 5, 4]
    pool = list(range(10))
    assert Rng(42).draw(pool, 3) == [3, 1, 4] and pool == [0, 2, 5, 6, 7, 8, 9]
    items = list("abcdef")
    Rng(7).shuffle(items)
    assert items == ["b", "f", "a", "c", "e", "d"]
    assert Rng(7).choice("xyz") == "x"


def test_rng_draw_counted_is_draw_on_the_sorted_copies():
    """Drawing from a multiset ({item: copies}) takes the same items as ``draw`` on the
    sorted list of its copies, leaves the same rest, and leaves the generator where
    ``draw`` leaves it."""
    names = [f"t{i:02}" for i in range(12)]
    picker = Rng(3)
    for seed in range(300):
        pile = {name: picker.below(6) + 1 for name in names if picker.below(3)}
        expanded = [name for name in sorted(pile) for _ in range(pile[name])]
        count = picker.below(len(expanded) + 1)
        counted, listed = Rng(seed), Rng(seed)
        order = names if seed % 2 else sorted(pile)  # names not in the pile count 0
        assert counted.draw_counted(pile, count, order) == listed.draw(expanded, count)
        assert sorted(n for n, c in pile.items() for _ in range(c)) == expanded
        assert all(pile.values()) and counted.next64() == listed.next64()
    with pytest.raises(ValueError):
        Rng(1).draw_counted({"a": 1}, 2, ["a"])


def test_rng_seed_is_taken_modulo_2_64_and_fork_is_independent():
    assert Rng(2**64 + 5).next64() == Rng(5).next64()
    rng = Rng(9)
    child = rng.fork()
    assert child.next64() != rng.next64()
    with pytest.raises(ValueError):
        Rng(1).below(0)


def test_a_seeded_game_is_the_same_every_time(played):
    assert play(GAME_ID, 58, ["greedy", "greedy"]) == played


# --------------------------------------------------------------------------- fields
def test_field_readers_cite_the_rule():
    obj = {"n": True, "s": 3, "l": {}, "d": []}
    for read, name in (
        (get_int, "n"),
        (get_str, "s"),
        (get_list, "l"),
        (get_dict, "d"),
        (get_int, "missing"),
    ):
        with pytest.raises(IllegalAction) as caught:
            read(obj, name, "X-1")
        assert caught.value.rule == "X-1"
    with pytest.raises(IllegalAction):
        get_int({"n": 5}, "n", "X-1", lo=0, hi=4)
    with pytest.raises(IllegalAction):
        require(False, "X-2", "no")


# --------------------------------------------------------------------------- envelope
def _log(**changes):
    base = {
        "format": "lantern-log/1",
        "game": GAME_ID,
        "options": {},
        "seats": [{"seat": "cryptid", "player": "alice"}, {"seat": "scientist", "player": "bob"}],
        "seed": 1,
        "setup": {"sensors_2r2w1b": "left"},
        "actions": [],
        "result": None,
        "meta": {},
    }
    base.update(changes)
    return base


def setup_rejection(**changes: Any) -> IllegalAction:
    """The rejection of a log with ``changes``: at no action, with no valid prefix."""
    with pytest.raises(IllegalAction) as caught:
        replay(_log(**changes))
    rejection = caught.value
    assert rejection.index is None and rejection.partial is None
    assert str(rejection).startswith(f"setup: {rejection.rule}: ")
    return rejection


@pytest.mark.parametrize("value", ["lantern-log/2", None, 1])
def test_log_format_must_be_lantern_log_1(value):
    assert setup_rejection(format=value).rule == "LOG-FORMAT"


@pytest.mark.parametrize("value", ["chess", None, ["cryptid-urban-legends"]])
def test_log_game_must_name_a_known_game(value):
    rejection = setup_rejection(game=value)
    assert rejection.rule == "LOG-GAME" and "cryptid-urban-legends" in rejection.message


def test_log_options_must_be_an_object_of_the_games_options():
    assert setup_rejection(options=[]).rule == "LOG-OPTIONS"
    assert setup_rejection(options={"colour": "red"}).rule == "LOG-OPTIONS"


@pytest.mark.parametrize(
    "value",
    [
        [],
        "alice",
        [{"seat": "cryptid", "player": ""}, {"seat": "scientist", "player": "b"}],
        [{"seat": "cryptid", "player": "a"}, {"seat": "cryptid", "player": "b"}],
        [{"seat": "cryptid"}, {"seat": "scientist", "player": "b"}],
    ],
)
def test_log_seats_must_be_distinct_seats_with_handles(value):
    assert setup_rejection(seats=value).rule == "LOG-SEATS"


@pytest.mark.parametrize("value", [-1, "7", True, 2**64, 1.5])
def test_log_seed_is_null_or_an_integer_below_2_64(value):
    assert setup_rejection(seed=value).rule == "LOG-SEED"


def test_log_setup_must_be_an_object():
    assert setup_rejection(setup=[]).rule == "LOG-SETUP"


def test_log_actions_must_be_a_list():
    assert setup_rejection(actions={}).rule == "LOG-ACTIONS"


def test_log_result_is_null_or_an_object():
    assert setup_rejection(result="cryptid").rule == "LOG-RESULT"


def test_log_meta_is_an_object_when_present():
    assert setup_rejection(meta="x").rule == "LOG-META"
    assert replay(_log(meta=None)).status == "unfinished"


@pytest.mark.parametrize(
    "changes, rule",
    [
        ({"seats": [{"seat": "cryptid", "player": "a"}]}, "CUL-1.1"),
        ({"options": {"decks": {"cryptid": {"split": 10, "align": 1}}}}, "CUL-1.2"),
        ({"setup": {}}, "CUL-2.3"),
    ],
)
def test_game_setup_errors_have_index_none(changes, rule):
    assert setup_rejection(**changes).rule == rule


@pytest.mark.parametrize(
    "bad",
    [
        [],
        "draw",
        None,
        {"seat": "cryptid"},
        {"seat": 1, "type": "draw"},
        {"seat": "cryptid", "type": ["draw"]},
    ],
)
def test_log_actions_a_malformed_action_is_rejected_at_its_index_with_the_prefix(played, bad):
    log = {**played, "actions": played["actions"][:3] + [bad] + played["actions"][3:]}
    with pytest.raises(IllegalAction) as caught:
        replay(log)
    assert (caught.value.index, caught.value.rule) == (3, "LOG-ACTIONS")
    assert caught.value.partial.actions == played["actions"][:3]


def test_log_json_not_json_or_not_an_object():
    for text in ("{", "[1, 2]", b"\xff\xfe", "null", ""):
        with pytest.raises(IllegalAction) as caught:
            parse_json(text)
        assert caught.value.rule == "LOG-JSON"
    with pytest.raises(IllegalAction) as caught:
        replay([1, 2])
    assert caught.value.rule == "LOG-JSON"


def test_canonical_json_ignores_key_order_and_whitespace():
    assert (
        canonical_json({"b": 1, "a": [1, {"d": 2, "c": "é"}]})
        == canonical_json(json.loads('{ "a": [1, {"c": "é", "d": 2}], "b": 1 }'))
        == '{"a":[1,{"c":"é","d":2}],"b":1}'
    )


# --------------------------------------------------------------------------- replay
def test_replay_returns_status_result_and_players(played):
    r = replay(played)
    assert r.status == "finished" and r.result == played["result"]
    assert r.players == {"cryptid": "greedy-bot-1", "scientist": "greedy-bot-2"}
    assert len(r.actions) == len(played["actions"])


def test_an_unfinished_log_is_valid_and_has_no_result(played):
    r = replay({**played, "actions": played["actions"][:10], "result": None})
    assert r.status == "unfinished" and r.result is None and not r.finished


def test_cul_6_6_a_result_that_differs_rejects_the_log_with_index_null(played):
    wrong = copy.deepcopy(played)
    wrong["result"]["evidence"]["cryptid"] += 1
    with pytest.raises(IllegalAction) as caught:
        replay(wrong)
    assert caught.value.rule == "CUL-6.6" and caught.value.index is None
    assert caught.value.partial.status == "finished"
    unfinished = {**played, "actions": played["actions"][:5]}
    with pytest.raises(IllegalAction) as caught:
        replay(unfinished)
    assert caught.value.rule == "CUL-6.6" and caught.value.index is None
    assert caught.value.partial.status == "unfinished"


def test_an_action_after_the_end_is_rejected(played):
    extra = {**played, "actions": played["actions"] + [played["actions"][-1]]}
    with pytest.raises(IllegalAction) as caught:
        replay(extra)
    assert caught.value.rule == "CUL-3.10" and caught.value.index == len(played["actions"])


def test_a_rejection_keeps_the_valid_prefix(played):
    bad = copy.deepcopy(played)
    bad["actions"][7] = {"seat": "nobody", "type": "draw"}
    with pytest.raises(IllegalAction) as caught:
        replay(bad)
    exc = caught.value
    assert exc.index == 7 and exc.rule == "CUL-1.1"
    assert exc.partial.actions == played["actions"][:7]
    assert exc.partial.status == "unfinished"
    assert str(exc).startswith("action 7 (nobody: draw cards): CUL-1.1: ")
    assert exc.as_dict() == {"index": 7, "rule": "CUL-1.1", "message": exc.message}
    # the prefix can be stepped through
    assert exc.partial.state_at(7).round >= 1


def test_state_at_replays_to_any_ply(played):
    r = replay(played)
    game = get_game(GAME_ID)
    direct = r.initial_state()
    for ply in range(len(played["actions"]) + 1):
        assert game.view(r.state_at(ply), None) == game.view(direct, None), ply
        if ply < len(played["actions"]):
            game.apply(direct, played["actions"][ply])
    with pytest.raises(IndexError):
        r.state_at(len(played["actions"]) + 1)
    with pytest.raises(IndexError):
        r.state_at(-1)


def test_frames_show_each_ply_as_the_viewer_saw_it(played):
    r = replay(played)
    frames = list(r.frames("scientist"))
    assert len(frames) == len(played["actions"]) + 1
    assert frames[0]["action"] is None and frames[0]["view"]["round"] == 1
    for frame, action in zip(frames[1:], played["actions"], strict=True):
        if action["type"] == "draw" and action["seat"] == "cryptid":
            assert frame["action"] == {
                "seat": "cryptid",
                "type": "draw",
                "count": len(action["cards"]),
            }
            assert "cards" not in frame["notation"]
        else:
            assert frame["action"] == action
        assert "cards" not in frame["view"]["hands"]["cryptid"]
        assert isinstance(frame["notation"], str)
    assert frames[-1]["view"]["result"] == played["result"]
    json.dumps(frames)  # JSON-ready


def test_engine_error_a_bug_in_a_game_is_a_rejection_not_a_traceback(played, monkeypatch):
    game = get_game(GAME_ID)

    def broken(state, action):
        raise KeyError("oops")

    monkeypatch.setattr(game, "apply", broken)
    with pytest.raises(IllegalAction) as caught:
        replay(played)
    assert caught.value.rule == ENGINE_ERROR and caught.value.index == 0


# --------------------------------------------------------------------------- schema and play
def test_log_schema_lists_cryptid_actions():
    schema = log_schema()
    assert GAME_ID in schema["properties"]["game"]["enum"]
    cryptid = next(
        part for part in schema["allOf"] if part["if"]["properties"]["game"]["const"] == GAME_ID
    )
    kinds = {
        a["properties"]["type"]["const"]
        for a in cryptid["then"]["properties"]["actions"]["items"]["oneOf"]
    }
    assert kinds == {"play", "wild", "draw", "declare", "blockade", "relocate", "expand"}
    json.dumps(schema)


def test_log_schema_accepts_the_example_logs(example_log):
    jsonschema = pytest.importorskip("jsonschema")
    for name in ("cryptid-escape.json", "cryptid-timeout.json", "cryptid-illegal-draw.json"):
        jsonschema.validate(example_log(name), log_schema())


def test_play_rejects_bad_arguments():
    with pytest.raises(ValueError):
        play("chess", 1, ["random", "random"])
    with pytest.raises(ValueError):
        play(GAME_ID, 1, ["random"])
    with pytest.raises(ValueError):
        play(GAME_ID, 1, ["random", "genius"])


def test_play_stops_at_max_actions_and_writes_an_unfinished_log():
    log = play(GAME_ID, 3, ["greedy", "greedy"], max_actions=4)
    assert len(log["actions"]) == 4 and log["result"] is None
    assert replay(log).status == "unfinished"


def test_played_logs_and_redacted_actions_match_the_schema():
    jsonschema = pytest.importorskip("jsonschema")
    schema = log_schema()
    for seed, bots in (
        (1, ["greedy", "greedy"]),
        (2, ["random", "greedy"]),
        (3, ["greedy", "random"]),
    ):
        log = play(GAME_ID, seed, bots)
        jsonschema.validate(log, schema)
        redacted = [frame["action"] for frame in replay(log).frames("cryptid")][1:]
        jsonschema.validate({**log, "actions": redacted}, schema)
    bad = play(GAME_ID, 1, ["greedy", "greedy"])
    bad["actions"][0] = {**bad["actions"][0], "seat": "ghost"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)


def test_game_contract_defaults():
    from engine import Game

    game = Game()
    options = {"a": 1}
    assert (
        game.normalize_options(options) == options
        and game.normalize_options(options) is not options
    )
    assert game.viewers({}, ["p1", "p2"]) == ["p1", "p2"]
    assert game.controller("detectives") == "detectives"
    action = {"seat": "p1", "type": "move", "to": 5}
    assert game.action_view(None, action, "p2") is action
    assert game.chance_options(None, action) == [action]
    assert game.notation(action) == "p1 move to=5"
    assert game.random_setup_choices({}, ["p1"], Rng(1)) == {}
    state = {"deep": [1, 2]}
    copy_ = game.clone(state)
    assert copy_ == state and copy_["deep"] is not state["deep"]
    for method, args in (
        (game.check_seats, ([], {})),
        (game.initial_state, ({}, [], {}, None)),
        (game.apply, (None, action)),
        (game.view, (None, None)),
    ):
        with pytest.raises(NotImplementedError):
            method(*args)
