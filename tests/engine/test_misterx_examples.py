"""The Mister X example log (docs/examples/) validate with their stated results (MX-6.11)."""

from __future__ import annotations

import pytest

from engine import IllegalAction, replay


def test_mx_6_11_destination_example_validates_with_its_result(example_log):
    r = replay(example_log("misterx-destination.json"))
    assert r.status == "finished"
    assert r.result == {"winner": "mrx", "reason": "destination", "moves": 3}
    assert len(r.actions) == 11


def test_mx_6_11_a_wrong_stated_result_is_rejected(example_log):
    log = example_log("misterx-destination.json")
    log["result"] = {"winner": "mrx", "reason": "destination", "moves": 4}
    with pytest.raises(IllegalAction) as err:
        replay(log)
    assert err.value.rule == "MX-6.11"


def test_mx_schema_accepts_the_example_and_bot_logs_and_rejects_a_bad_ticket(example_log):
    jsonschema = pytest.importorskip("jsonschema")
    from engine import log_schema, play

    schema = log_schema()
    log = example_log("misterx-destination.json")
    jsonschema.validate(log, schema)
    jsonschema.validate(play("mister-x", 1, ["greedy", "random", "greedy"], max_actions=80), schema)
    log["actions"][0]["ticket"] = "boat/double"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(log, schema)
