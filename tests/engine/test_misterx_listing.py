"""Mister X's legal actions: most are built once per board and handed out again.

``legal.Listing`` keeps the moves, stays, discards, refills and passes once they have
been listed (and the pays and steps the other actions share); a call hands out the same
objects. They must refuse every change (a caller that changed one would change the
engine's answers for every later game on the board), and must read, compare and
serialise exactly as the plain dictionaries listed before them. The actions built per
call (double and secret moves, investigations, sirens) are the caller's own.
"""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import pytest

from engine import play, replay
from engine.core.frozen import FrozenAction, FrozenList, freeze, thaw
from engine.core.session import Session
from engine.games.misterx import legal
from tests.engine.misterx_helpers import GAME


def _states(seed: int, bots: list[str]) -> list[Any]:
    log = play("mister-x", seed, bots)
    return [GAME.clone(st) for _ply, _action, st in replay(log).states()]


def _every_listing(states: list[Any]) -> list[tuple[Any, str, list[dict[str, Any]]]]:
    return [
        (st, seat, GAME.legal_actions(st, seat))
        for st in states
        for seat in [*st.seats(), "detectives"]
    ]


@pytest.fixture(scope="module")
def listed() -> list[tuple[Any, str, list[dict[str, Any]]]]:
    # random bots: every kind of action comes up (doubles, secrets, specials, discards)
    return _every_listing(_states(3, ["random", "random", "random"]) + _states(8, ["greedy"] * 4))


def test_every_kind_of_action_is_listed(listed) -> None:
    kinds = {a["type"] for _st, _seat, actions in listed for a in actions}
    assert kinds >= {
        "move",
        "stay",
        "double",
        "secret",
        "discard",
        "refill",
        "investigate",
        "siren",
    }


def _refuses_every_change(action: dict[str, Any]) -> None:
    before = json.dumps(action)
    changes = [
        lambda: action.__setitem__("to", 1),
        lambda: action.__delitem__("seat"),
        lambda: action.update(to=1),
        lambda: action.pop("seat"),
        action.popitem,
        action.clear,
        lambda: action.setdefault("x", 1),
    ]
    for change in changes:
        with pytest.raises(TypeError, match="read only"):
            change()
    with pytest.raises(TypeError):
        action |= {"to": 1}
    assert json.dumps(action) == before


def _list_refuses_every_change(value: list[Any]) -> None:
    for change in (
        lambda: value.append("x"),
        lambda: value.__setitem__(0, "x"),
        lambda: value.extend(["x"]),
        lambda: value.sort(),
        lambda: value.pop(),
        lambda: value.clear(),
        lambda: value.insert(0, "x"),
        lambda: value.remove("x"),
    ):
        with pytest.raises(TypeError, match="read only"):
            change()


def test_a_kept_action_refuses_every_change(listed) -> None:
    shared = [a for _st, _seat, actions in listed for a in actions if isinstance(a, FrozenAction)]
    assert len(shared) > 1000
    assert {a["type"] for a in shared} >= {"move", "stay", "discard", "refill"}
    for action in shared[::97]:
        _refuses_every_change(action)
        if "tickets" in action:
            _list_refuses_every_change(action["tickets"])


def test_the_parts_an_action_built_per_call_shares_refuse_every_change(listed) -> None:
    fresh = [
        a for _st, _seat, actions in listed for a in actions if not isinstance(a, FrozenAction)
    ]
    assert {a["type"] for a in fresh} == {"double", "secret", "investigate", "siren"}
    for action in fresh[::13]:
        pay = action["pay"]
        if isinstance(pay, list):  # Mister X's double and secret tickets
            _list_refuses_every_change(pay)
        else:  # the detectives': tickets per seat
            _refuses_every_change(pay)
            for tickets in pay.values():
                _list_refuses_every_change(tickets)
        if "moves" in action:  # a double move's steps
            _list_refuses_every_change(action["moves"])
            for step in action["moves"]:
                _refuses_every_change(step)


def test_changing_an_action_built_per_call_changes_no_later_answer(listed) -> None:
    for st, seat, actions in listed:
        if any(not isinstance(a, FrozenAction) for a in actions):
            before = thaw(actions)
            for action in [
                a for a in GAME.legal_actions(st, seat) if not isinstance(a, FrozenAction)
            ]:
                action["to"] = -1
                action["moves"] = []
            assert GAME.legal_actions(st, seat) == before


def test_a_listed_action_serialises_and_compares_as_the_plain_one(listed) -> None:
    for _st, _seat, actions in listed:
        plain = thaw(actions)
        assert all(type(a) is dict for a in plain)
        assert json.dumps(actions) == json.dumps(plain)
        assert json.dumps(actions, sort_keys=True) == json.dumps(plain, sort_keys=True)
        assert actions == plain and plain == actions
        assert [dict(a) for a in actions] == plain
        assert json.loads(json.dumps(actions)) == actions


def test_copies_are_plain_and_changeable() -> None:
    action = freeze(
        {
            "seat": "mrx",
            "type": "double",
            "pay": ["car/double"] * 3,
            "moves": [{"ticket": "car/double", "to": 2}],
        }
    )
    assert isinstance(action, FrozenAction) and isinstance(action["moves"], FrozenList)
    deep = copy.deepcopy(action)
    assert type(deep) is dict and type(deep["moves"]) is list and type(deep["moves"][0]) is dict
    deep["moves"][0]["to"] = 3
    assert action["moves"][0]["to"] == 2
    shallow = copy.copy(action)
    assert type(shallow) is dict and shallow == action
    shallow["to"] = 5
    assert "to" not in action
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        again = pickle.loads(pickle.dumps(action, protocol))
        assert again == action and type(again) is dict and type(again["pay"]) is list
    changed = {**action, "pay": ["car/double"]}
    assert changed["pay"] == ["car/double"] and action["pay"] == ["car/double"] * 3


def test_the_same_objects_are_handed_out_again(listed) -> None:
    st, seat, actions = next(
        (st, seat, a) for st, seat, a in listed if any(x["type"] == "move" for x in a)
    )
    again = GAME.legal_actions(st, seat)
    assert again == actions and again is not actions
    assert all(x is y for x, y in zip(again, actions, strict=True) if isinstance(x, FrozenAction))
    again.append({"seat": seat, "type": "extra"})  # the list is the caller's own
    assert GAME.legal_actions(st, seat) == actions


def test_a_listed_action_applies_and_a_session_takes_it() -> None:
    """A shared action, applied, is recorded as it is (and still refuses changes)."""
    log = play("mister-x", 5, ["greedy"] * 3)
    session = Session.start(log)
    for _ in range(40):
        seat = GAME.to_act(session.state)[-1]
        action = session.legal_actions(seat)[0]
        recorded = session.step(action)
        if action["type"] == "refill":  # the seed fills in the tickets drawn
            assert {**action, "tickets": recorded["tickets"]} == recorded
        else:
            assert recorded == action and type(recorded) is dict  # the log's own copy
    assert replay({**log, "actions": session.actions, "result": None}).actions == session.actions


def test_tables_that_start_again_list_the_same(listed, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table past its limit is emptied and filled again: the answers do not change."""
    board = listed[0][0].board
    monkeypatch.setattr(legal, "_TABLE_LIMIT", 3)
    monkeypatch.setattr(legal, "_DISCARDS_LIMIT", 3)
    kept = board.listing
    object.__setattr__(board, "listing", None)  # a fresh, tiny-limit listing for this board
    try:
        for st, seat, actions in listed[::5]:
            assert GAME.legal_actions(st, seat) == thaw(actions)
        table = board.listing
        assert len(table.pawn) <= 3 and len(table.racks) <= 3 and len(table.special) <= 3
        # (a seat's discards are counted before a call adds a rack's worth)
        widest = max(len(actions) for _st, _seat, actions in listed)
        assert all(len(known) <= 3 + widest for known in table.discards.values())
    finally:
        object.__setattr__(board, "listing", kept)


def test_a_log_keeps_its_own_plain_copies() -> None:
    """The bots play shared actions, but the log holds plain ones, none twice: a deep copy
    of it changed in one action changes that action only."""
    log = play("mister-x", 3, ["random", "random", "random"], max_actions=200)
    actions = log["actions"]

    def parts(value: Any) -> list[Any]:
        if isinstance(value, dict):
            return [value, *(p for v in value.values() for p in parts(v))]
        if isinstance(value, list):
            return [value, *(p for v in value for p in parts(v))]
        return []

    every = [p for a in actions for p in parts(a)]
    assert all(type(p) in (dict, list) for p in every)
    assert len({id(p) for p in every}) == len(every)
    # an action played twice (the same shared object, as the engine listed it both times)
    later = next(j for j in range(len(actions)) if any(actions[i] == actions[j] for i in range(j)))
    changed = copy.deepcopy(log)
    changed["actions"][later]["seat"] = "x"
    assert [
        i for i, (a, b) in enumerate(zip(actions, changed["actions"], strict=True)) if a != b
    ] == [later]
    session = Session.start(log)
    seat = GAME.to_act(session.state)[0]
    recorded = session.step(session.legal_actions(seat)[0])
    assert type(recorded) is dict and session.actions[-1] is recorded
