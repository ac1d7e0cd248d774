"""The exact rule and sentence of the Mister X checks every legal action passes through.

These checks build their sentence only when the rule is broken (an f-string handed to
``require`` was built on every legal move too: a fifth of a replay); what a rejected
log says must not change with that."""

from __future__ import annotations

import copy

import pytest

from engine import IllegalAction, play, replay
from tests.engine.misterx_helpers import Table


def message(table: Table, rule: str, seat: str, type: str, **fields) -> str:
    return table.illegal(rule, seat, type, **fields).message


def after_mister_x() -> Table:
    t = Table()  # red 12, blue 14, green 18 (det1); yellow 8, black 19 (det2); X at 2
    t.do("mrx", "move", ticket="car/double", to=3)
    t.refill("mrx")
    return t


def test_a_pawn_must_exist_belong_to_the_seat_and_move_once():
    t = after_mister_x()
    assert (
        message(t, "MX-3.7", "det1", "move", pawn="purple", ticket="car/investigate", to=11)
        == "there is no pawn 'purple' (pawns: red, blue, green, yellow, black)"
    )
    assert (
        message(t, "MX-6.10", "det2", "move", pawn="red", ticket="car/siren", to=11)
        == "pawn red is played by det1, not det2"
    )
    t.do("det1", "move", pawn="red", ticket="car/investigate", to=11)
    assert (
        message(t, "MX-3.7", "det1", "move", pawn="red", ticket="car/investigate", to=6)
        == "pawn red has already moved this round"
    )


def test_a_pawn_steps_along_a_connection_to_a_free_city():
    t = after_mister_x()
    assert (
        message(t, "MX-3.7", "det1", "move", pawn="red", ticket="car/investigate", to=25)
        == "there is no car connection from city 12 to city 25"
    )
    assert (
        message(t, "MX-3.7", "det1", "move", pawn="green", ticket="car/investigate", to=19)
        == "pawn green cannot enter city 19: the black pawn stands there"
    )


def test_mister_x_steps_along_a_connection_to_a_city_without_a_detective():
    t = Table(pawns={"red": 7, "blue": 14, "green": 18, "yellow": 8, "black": 19})
    assert (
        message(t, "MX-3.2", "mrx", "move", ticket="car/double", to=8)
        == "there is no car connection from city 2 to city 8"
    )
    assert (
        message(t, "MX-6.2", "mrx", "move", ticket="car/double", to=7)
        == "Mister X cannot move onto city 7: the red detective stands there"
    )


def test_discards_and_refills_come_in_their_turn_and_size():
    t = after_mister_x()
    assert (
        message(t, "MX-3.7", "det1", "refill", tickets=[])
        == "the detectives refill after all five pawns have moved"
    )
    t.pawns_move(
        {
            "red": ("car/investigate", 11),
            "blue": ("car/investigate", 15),
            "green": ("car/investigate", 17),
            "yellow": ("car/siren", 9),
            "black": ("car/siren", 20),
        }
    )
    assert (
        message(t, "MX-6.10", "det2", "discard", tickets=["car/siren"])
        == "det1 discards and refills before det2"
    )
    t.do("det1", "discard", tickets=["car/investigate"])
    assert (
        message(t, "MX-6.9", "det1", "discard", tickets=["car/investigate"])
        == "det1 has already discarded this round"
    )
    assert message(t, "MX-6.8", "det1", "refill", tickets=["car/secret"]) == (
        "det1 refills 4 ticket(s) to reach the rack limit, not 1"
    )


def test_a_refill_that_differs_from_the_seeds_draw_names_both():
    log = play("mister-x", 11, ["random"] * 3, players=["a", "b", "c"])
    index, refill = next(
        (i, a)
        for i, a in enumerate(log["actions"])
        if a["type"] == "refill" and len(a["tickets"]) >= 2 and len(set(a["tickets"])) > 1
    )
    changed = copy.deepcopy(log)
    tickets = changed["actions"][index]["tickets"]
    tickets[0] = next(t for t in tickets if t != tickets[0])  # same count, another mix
    with pytest.raises(IllegalAction) as err:
        replay(changed)
    assert (err.value.index, err.value.rule) == (index, "MX-6.8")
    assert err.value.message == (
        f"{refill['seat']}'s refill {sorted(tickets)} differs from the seed's draw "
        f"{sorted(refill['tickets'])}"
    )
