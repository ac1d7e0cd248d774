"""Endings off the board (docs/rules/log-format.md, LIVE-1): a log's ``end`` names the
seat that ran out of time or left, and its side loses; the rules of the game never see it."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from engine import IllegalAction, Table, get_game, log_schema, play, render, replay

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def _example(name: str, keep: int) -> dict:
    log = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    log["actions"] = log["actions"][:keep]
    log["result"] = None
    return log


def test_live_1_1_a_seat_out_of_time_loses_for_its_side():
    log = _example("cryptid-escape", 10)
    log["end"] = {"reason": "time", "seat": "cryptid"}
    done = replay(log)
    assert done.status == "finished"
    assert done.result == {"winner": "scientist", "reason": "time", "seat": "cryptid"}
    game = done.game
    assert game.outcomes(done.result, done.seats) == {"cryptid": "loss", "scientist": "win"}
    sentence = render(game.describe_result(done.result, Table(done.players, done.options)), "en")
    assert "ran out of time" in sentence


def test_live_1_1_a_detective_out_of_time_loses_for_all_the_detectives():
    log = _example("misterx-destination", 4)
    log["end"] = {"reason": "time", "seat": "det2"}
    done = replay(log)
    assert done.result == {"winner": "mrx", "reason": "time", "seat": "det2"}
    assert done.game.outcomes(done.result, done.seats) == {
        "mrx": "win",
        "det1": "loss",
        "det2": "loss",
    }
    for lang in ("ja", "ru"):
        said = render(done.game.describe_result(done.result, Table(done.players, {})), lang)
        assert "{" not in said and said


def test_live_1_2_a_claim_is_a_win_for_the_other_side():
    log = _example("misterx-destination", 4)
    log["end"] = {"reason": "claim", "seat": "mrx"}
    done = replay(log)
    assert done.result == {"winner": "detectives", "reason": "claim", "seat": "mrx"}
    # the result a log states must be the one its ending makes
    log["result"] = dict(done.result)
    assert replay(log).result == done.result
    log["result"]["winner"] = "mrx"
    with pytest.raises(IllegalAction):
        replay(log)


def test_live_1_3_a_game_over_on_the_board_has_no_ending_off_it():
    log = _example("cryptid-escape", 46)
    log["end"] = {"reason": "time", "seat": "cryptid"}
    with pytest.raises(IllegalAction) as caught:
        replay(log)
    assert caught.value.rule == "LIVE-1.3"
    assert caught.value.partial is not None and len(caught.value.partial.actions) == 46


def test_live_1_4_only_a_game_of_two_sides_ends_by_time_or_claim():
    log = play("cloak-and-dagger", 3, ["random", "random", "random"], max_actions=6)
    log["result"] = None
    log["end"] = {"reason": "time", "seat": "p2"}
    with pytest.raises(IllegalAction) as caught:
        replay(log)
    assert caught.value.rule == "LIVE-1.4"
    # two players of Cloak & Dagger are two sides: the other seat wins
    two = _example("cloak-documents", 5)
    two["end"] = {"reason": "claim", "seat": "p1"}
    assert replay(two).result == {"winner": "p2", "reason": "claim", "seat": "p1"}


@pytest.mark.parametrize(
    "end",
    [
        "time",
        {"reason": "time"},
        {"reason": "resign", "seat": "cryptid"},
        {"reason": "time", "seat": "det1"},
        {"reason": "time", "seat": "cryptid", "at": 3},
    ],
)
def test_log_end_is_null_or_a_reason_and_a_seat_of_the_log(end):
    log = _example("cryptid-escape", 10)
    log["end"] = end
    with pytest.raises(IllegalAction) as caught:
        replay(log)
    assert caught.value.rule == "LOG-END" and caught.value.index is None
    assert caught.value.path == "end"
    log["end"] = None
    assert replay(log).status == "unfinished"


def test_the_schema_takes_a_log_ended_by_time():
    jsonschema = pytest.importorskip("jsonschema")
    log = _example("misterx-destination", 4)
    log["end"] = {"reason": "time", "seat": "det1"}
    log["result"] = replay(copy.deepcopy(log)).result
    jsonschema.validate(log, log_schema())
    log["end"] = {"reason": "lunch", "seat": "det1"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(log, log_schema())
    assert get_game("mister-x") is not None
