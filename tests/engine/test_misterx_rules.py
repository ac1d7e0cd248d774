"""Mister X rules, one test (or a few) per ``MX-*`` id, on the tiny grid board.

Positions and racks are chosen by hand; see ``misterx_helpers.py`` for the map.
"""

from __future__ import annotations

import pytest

from engine import IllegalAction, replay
from engine.games.misterx import rules
from engine.games.misterx.board import resolve_board
from engine.games.misterx.state import default_shares, rack_list, rack_size
from tests.engine.misterx_helpers import GAME, PAWNS, Table, racks

TOGGLE = {"red": (12, 11), "blue": (14, 15), "green": (18, 17), "yellow": (8, 9), "black": (19, 20)}


def _car_ticket(rack: dict[str, int]) -> str:
    """A car ticket, keeping the detectives' special icons as long as possible."""
    cars = [t for t in sorted(rack) if t.startswith("car/")]
    return sorted(cars, key=lambda t: (t.endswith(("investigate", "siren")), t))[0]


def quiet_round(t: Table, *, mrx: bool = True, refill: bool = True) -> None:
    """Mister X steps between 2 and 3 by car (or passes), each pawn toggles by car."""
    st = t.state
    if mrx:
        if st.position in (2, 3) and any(k.startswith("car/") for k in st.racks["mrx"]):
            t.do("mrx", "move", ticket=_car_ticket(st.racks["mrx"]), to=5 - st.position)
        else:
            t.do("mrx", "pass")
        t.refill("mrx")
    for pawn, (home, away) in TOGGLE.items():
        seat = st.owner[pawn]
        to = away if st.pawn_pos[pawn] == home else home
        t.do(seat, "move", pawn=pawn, ticket=_car_ticket(st.racks[seat]), to=to)
    if refill:
        t.end_round()


# --- MX-1.4 / MX-6.10 seats and pawns --------------------------------------------------
def test_mx_1_4_seats_are_mrx_and_one_to_five_detective_players():
    t = Table()
    log = t.log()
    log["seats"].append({"seat": "det3", "player": "x"})
    with pytest.raises(IllegalAction) as err:
        replay(log)
    assert err.value.rule == "MX-6.10"  # det3 holds no pawn in options.pawns
    log = t.log()
    log["seats"] = [{"seat": "mrx", "player": "a"}, {"seat": "det2", "player": "b"}]
    log["options"] = {"board": log["options"]["board"]}
    with pytest.raises(IllegalAction) as err:
        replay(log)
    assert err.value.rule == "MX-1.4"


def test_mx_6_10_pawn_shares_must_be_even_and_cover_every_pawn():
    t = Table()
    log = t.log()
    log["options"] = dict(
        log["options"], pawns={"det1": ["red", "blue", "green", "yellow"], "det2": ["black"]}
    )
    with pytest.raises(IllegalAction) as err:
        replay(log)
    assert err.value.rule == "MX-6.10" and "evenly" in err.value.message
    log["options"]["pawns"] = {"det1": ["red", "blue", "green"], "det2": ["yellow", "red"]}
    with pytest.raises(IllegalAction) as err:
        replay(log)
    assert err.value.rule == "MX-6.10"


def test_mx_6_10_default_shares_deal_the_board_pawns_in_runs():
    assert default_shares(("a", "b", "c", "d", "e"), ["det1", "det2"]) == {
        "det1": ["a", "b", "c"],
        "det2": ["d", "e"],
    }
    assert default_shares(("a", "b", "c", "d", "e"), ["det1", "det2", "det3", "det4"]) == {
        "det1": ["a", "b"],
        "det2": ["c"],
        "det3": ["d"],
        "det4": ["e"],
    }


def test_mx_6_10_a_seat_may_move_only_its_own_pawns():
    t = Table()
    t.do("mrx", "move", ticket="car/double", to=3)
    t.refill("mrx")
    t.illegal("MX-6.10", "det2", "move", pawn="red", ticket="car/siren", to=11)


# --- MX-2 setup --------------------------------------------------------------------------
def test_mx_2_1_rack_sizes_are_8_and_4_plus_pawns():
    with pytest.raises(IllegalAction) as err:
        Table(racks_=racks(det2=["car/siren"] * 7))
    assert err.value.rule == "MX-2.1" and "draws 6" in err.value.message
    t = Table()
    assert {s: rack_size(r) for s, r in t.state.racks.items()} == {"mrx": 8, "det1": 7, "det2": 6}
    assert rack_size(t.state.bag) == 120 - 21


def test_mx_2_1_racks_cannot_hold_more_tickets_than_the_bag():
    with pytest.raises(IllegalAction) as err:
        Table(racks_=racks(mrx=["plane/double"] * 8))  # the mix has 6
    assert err.value.rule == "MX-2.1"


def test_mx_2_2_pawns_start_on_distinct_start_cards():
    with pytest.raises(IllegalAction) as err:
        Table(pawns={"red": 12, "blue": 14, "green": 18, "yellow": 8, "black": 20})
    assert err.value.rule == "MX-2.2"  # 20 is no start card
    with pytest.raises(IllegalAction) as err:
        Table(pawns={"red": 12, "blue": 12, "green": 18, "yellow": 8, "black": 19})
    assert err.value.rule == "MX-2.2"


def test_mx_2_3_mister_x_starts_on_a_start_city_of_his_mission():
    with pytest.raises(IllegalAction) as err:
        Table(mission="green", start=3)
    assert err.value.rule == "MX-2.3"
    with pytest.raises(IllegalAction) as err:
        Table(mission="red", start=3)
    assert err.value.rule == "MX-2.3"
    assert Table(mission="orange", start=3).state.position == 3


def test_mx_2_1_seeded_setup_is_reproducible_and_checked_against_the_log():
    log = {
        "format": "lantern-log/1",
        "game": "mister-x",
        "options": {},
        "seats": [{"seat": "mrx", "player": "a"}, {"seat": "det1", "player": "b"}],
        "seed": 7,
        "setup": {"mission": "yellow", "start": 6},
        "actions": [],
    }
    board = GAME.normalize_options({})
    start = resolve_board(board["board"]).missions["yellow"].starts[0]
    log["setup"]["start"] = start
    first = replay(log).final_state
    second = replay(log).final_state
    assert first.racks == second.racks and first.pawn_pos == second.pawn_pos
    assert rack_size(first.racks["det1"]) == 9
    recorded = GAME.setup_record(first)
    log["setup"] = recorded
    log["seed"] = None
    assert (
        replay(log).final_state.racks == first.racks
    )  # the written setup replays without the seed
    log["seed"] = 7
    recorded["racks"]["mrx"] = sorted(recorded["racks"]["det1"][:8])
    with pytest.raises(IllegalAction) as err:
        replay(log)
    assert err.value.rule == "MX-2.1"


# --- MX-3.1 .. MX-3.6 Mister X ---------------------------------------------------------
def test_mx_3_2_move_along_the_ticket_transport_only():
    t = Table()
    t.illegal("MX-3.2", "mrx", "move", ticket="car/double", to=13)  # 2-13 is no line
    t.illegal("MX-3.2", "mrx", "move", ticket="train/double", to=3)  # not held
    t.illegal("MX-3.2", "mrx", "move", ticket="boat/double", to=3)
    t.do("mrx", "move", ticket="car/double", to=3)
    assert t.state.path == [2, 3]
    assert t.state.slots[1] == ("car/double", True)


def test_mx_6_2_mister_x_never_moves_onto_a_detective():
    t = Table(pawns={"red": 7, "blue": 14, "green": 18, "yellow": 8, "black": 19})
    t.illegal("MX-6.2", "mrx", "move", ticket="car/double", to=7)


def test_mx_3_1_mister_x_moves_once_then_refills_to_8():
    t = Table()
    t.do("mrx", "move", ticket="car/double", to=3)
    t.illegal("MX-3.1", "mrx", "move", ticket="car/double", to=2)
    t.illegal("MX-3.7", "det1", "move", pawn="red", ticket="car/investigate", to=11)
    t.illegal("MX-6.8", "mrx", "refill", tickets=["car/double", "car/double"])
    t.refill("mrx", ["car/secret"])
    assert rack_list(t.state.racks["mrx"]) == ["car/double"] * 7 + ["car/secret"]
    assert t.state.phase == rules.PH_PAWNS


def test_mx_3_3_double_move_pays_three_double_tickets_and_fills_two_slots():
    t = Table()
    t.illegal(
        "MX-3.3",
        "mrx",
        "double",
        pay=["car/double", "car/double"],
        moves=[{"ticket": "car/double", "to": 3}, {"ticket": "car/double", "to": 4}],
    )
    t.do(
        "mrx",
        "double",
        pay=["car/double"] * 3,
        moves=[{"ticket": "car/double", "to": 3}, {"ticket": "car/double", "to": 4}],
    )
    st = t.state
    assert st.path == [2, 3, 4] and st.last_slot == 2
    assert st.out == {"car/double": 3}
    assert rack_size(st.racks["mrx"]) == 3
    t.refill("mrx")
    assert rack_size(st.racks["mrx"]) == 8


def test_mx_3_3_double_move_pay_must_show_the_double_icon():
    t = Table(racks_=racks(mrx=["car/double"] * 5 + ["car/secret"] * 3))
    t.illegal(
        "MX-3.3",
        "mrx",
        "double",
        pay=["car/double", "car/double", "car/secret"],
        moves=[{"ticket": "car/double", "to": 3}, {"ticket": "car/double", "to": 4}],
    )


def test_mx_3_3_double_move_through_a_detectives_city_is_rejected():
    t = Table(pawns={"red": 7, "blue": 14, "green": 18, "yellow": 8, "black": 19})
    # first step onto the red pawn at 7, then on to 12
    t.illegal(
        "MX-3.3",
        "mrx",
        "double",
        pay=["car/double"] * 3,
        moves=[{"ticket": "car/double", "to": 7}, {"ticket": "car/double", "to": 12}],
    )
    # second step onto the yellow pawn at 8
    t.illegal(
        "MX-6.2",
        "mrx",
        "double",
        pay=["car/double"] * 3,
        moves=[{"ticket": "car/double", "to": 3}, {"ticket": "car/double", "to": 8}],
    )


def test_mx_3_6_destination_on_the_first_step_of_a_double_ends_the_game():
    # Mister X at 1 (green start), plane line 1-25 reaches the destination 25
    t = Table(start=1, racks_=racks(mrx=["car/double"] * 6 + ["plane/double", "plane/secret"]))
    t.illegal(
        "MX-6.1",
        "mrx",
        "double",
        pay=["car/double"] * 3,
        moves=[{"ticket": "plane/secret", "to": 25}, {"ticket": "car/double", "to": 24}],
    )
    t.do("mrx", "double", pay=["car/double"] * 3, moves=[{"ticket": "plane/secret", "to": 25}])
    assert GAME.result(t.state) == {"winner": "mrx", "reason": "destination", "moves": 1}
    assert t.state.out == {"car/double": 3}  # MX-6.1: the paid tickets stay paid
    r = t.replayed()
    assert r.status == "finished" and r.result["moves"] == 1
    t.illegal("MX-3.6", "mrx", "refill", tickets=["car/double"])  # nothing follows the end


def test_mx_6_1_a_one_step_double_that_misses_the_destination_is_rejected():
    t = Table()
    t.illegal(
        "MX-3.3", "mrx", "double", pay=["car/double"] * 3, moves=[{"ticket": "car/double", "to": 3}]
    )


def test_mx_4_2_single_move_onto_a_destination_wins():
    t = Table(start=1, racks_=racks(mrx=["car/double"] * 7 + ["plane/investigate"]))
    t.do("mrx", "move", ticket="plane/investigate", to=25)
    assert GAME.result(t.state) == {"winner": "mrx", "reason": "destination", "moves": 1}


def test_mx_3_4_secret_move_face_down_ticket_may_differ_from_the_transport_used():
    rack = ["car/secret"] * 3 + ["plane/double"] + ["car/double"] * 4
    t = Table(racks_=racks(mrx=rack))
    # 2-3 is a car line only; the face-down ticket is a plane ticket
    t.do("mrx", "secret", pay=["car/secret"] * 3, ticket="plane/double", to=3)
    st = t.state
    assert st.path == [2, 3] and st.slots[1] == ("plane/double", False)
    assert st.out == {"car/secret": 3}
    seen = GAME.action_view(st, t.actions[-1], "det1")
    assert "ticket" not in seen and "to" not in seen and seen["pay"] == ["car/secret"] * 3
    row = GAME.view(st, "det1")["checklist"][0]
    assert row == {"slot": 1, "on_board": True, "face_up": False, "transport": None}


def test_mx_3_4_secret_move_may_use_any_line_but_not_a_non_neighbour():
    rack = ["car/secret"] * 3 + ["car/double"] * 5
    t = Table(racks_=racks(mrx=rack))
    t.illegal("MX-3.4", "mrx", "secret", pay=["car/secret"] * 3, ticket="car/double", to=13)
    t.illegal(
        "MX-3.4",
        "mrx",
        "secret",
        pay=["car/secret", "car/secret", "car/double"],
        ticket="car/double",
        to=3,
    )


def test_mx_6_4_the_face_down_ticket_is_a_fourth_ticket():
    rack = ["car/secret"] * 3 + ["train/double"] * 5
    t = Table(racks_=racks(mrx=rack))
    t.illegal("MX-6.4", "mrx", "secret", pay=["car/secret"] * 3, ticket="car/secret", to=3)


def _stuck_table() -> Table:
    """Mister X at 2 (car lines only) holding only train and plane tickets."""
    return Table(
        racks_=racks(mrx=["train/double"] * 4 + ["plane/double"] * 2 + ["train/secret"] * 2)
    )


def test_mx_3_5_and_mx_6_3_pass_only_without_any_move():
    t = Table()
    t.illegal("MX-6.3", "mrx", "pass")
    t = _stuck_table()
    t.do("mrx", "pass")
    st = t.state
    assert rack_size(st.racks["mrx"]) == 0  # the whole rack went back into the bag
    assert st.last_slot == 0  # a pass fills no slot
    assert st.bag["train/double"] == 10
    t.illegal("MX-6.8", "mrx", "refill", tickets=["train/double"] * 7)
    t.refill("mrx", ["train/double"] * 8)


def test_mx_6_3_pass_rejected_while_a_secret_move_is_possible():
    t = Table(racks_=racks(mrx=["train/secret"] * 3 + ["plane/double"] + ["train/double"] * 4))
    t.illegal("MX-6.3", "mrx", "pass")
    t.do("mrx", "secret", pay=["train/secret"] * 3, ticket="train/double", to=1)


def test_mx_3_11_open_play_from_slot_25_public_positions_tickets_back_in_the_bag():
    t = Table()
    for _ in range(24):
        quiet_round(t)
    st = t.state
    assert st.last_slot == 24 and st.round == 25
    assert GAME.view(st, "det1")["mrx"]["position"] is None
    ticket = _car_ticket(st.racks["mrx"])
    bag_before = rack_size(st.bag)
    t.do("mrx", "move", ticket=ticket, to=5 - st.position)
    assert st.last_slot == 25
    assert rack_size(st.bag) == bag_before + 1  # the move ticket went back into the bag
    view = GAME.view(st, "det1")
    assert view["open_play"] and view["mrx"]["position"] == st.position
    assert view["checklist"][-1]["on_board"] is False
    seen = GAME.action_view(st, t.actions[-1], "det2")
    assert seen["to"] == st.position and seen["slot"] == 25
    assert t.replayed().status == "unfinished"


# --- MX-3.7 .. MX-3.9 detectives ----------------------------------------------------------
def _after_mrx(t: Table, to: int = 3) -> None:
    t.do("mrx", "move", ticket=_car_ticket(t.state.racks["mrx"]), to=to)
    t.refill("mrx")


def test_mx_3_7_a_pawn_that_could_move_may_not_stay():
    t = Table()
    _after_mrx(t)
    t.illegal("MX-3.7", "det1", "stay", pawn="red")


def test_mx_3_7_a_pawn_without_a_usable_ticket_stays():
    # det2 holds only plane tickets; yellow (8) and black (19) have no plane line
    t = Table(racks_=racks(det2=["plane/siren"] * 6))
    _after_mrx(t)
    t.illegal("MX-3.7", "det2", "move", pawn="yellow", ticket="plane/siren", to=9)
    t.do("det2", "stay", pawn="yellow")
    t.do("det2", "stay", pawn="black")


def test_mx_6_6_could_move_is_judged_from_the_pawns_own_seat_rack():
    # det1 holds car tickets that would move yellow; yellow is det2's and det2 holds none
    t = Table(racks_=racks(det2=["plane/siren"] * 6))
    _after_mrx(t)
    t.do("det2", "stay", pawn="yellow")


def test_mx_6_6_could_move_is_judged_when_the_pawn_acts():
    # det2 holds one car ticket: black uses it, so yellow, acting after, may stay
    t = Table(racks_=racks(det2=["car/siren"] + ["plane/siren"] * 5))
    _after_mrx(t)
    t.illegal("MX-3.7", "det2", "stay", pawn="yellow")
    t.do("det2", "move", pawn="black", ticket="car/siren", to=20)
    t.do("det2", "stay", pawn="yellow")
    assert t.state.bag["car/siren"] == 14  # MX-6.6: back into the bag at once (13 + 1)


def test_mx_3_7_no_shared_cities():
    t = Table()
    _after_mrx(t)
    t.do("det1", "move", pawn="red", ticket="car/investigate", to=13)
    t.illegal("MX-3.7", "det1", "move", pawn="blue", ticket="car/investigate", to=13)


def test_mx_3_7_each_pawn_moves_once_and_refills_wait_for_all_five():
    t = Table()
    _after_mrx(t)
    t.do("det1", "move", pawn="red", ticket="car/investigate", to=11)
    t.illegal("MX-3.7", "det1", "move", pawn="red", ticket="car/investigate", to=12)
    t.illegal("MX-3.7", "det1", "refill", tickets=["car/double"])


def test_mx_4_1_and_mx_6_5_a_pawn_entering_mister_x_city_catches_him():
    t = Table()
    _after_mrx(t, to=3)
    t.do("det2", "move", pawn="yellow", ticket="car/siren", to=3)
    assert GAME.result(t.state) == {"winner": "detectives", "reason": "caught", "moves": 1}
    assert t.replayed().result["winner"] == "detectives"


def test_mx_6_5_a_pawn_whose_only_move_leads_to_mister_x_must_take_it():
    # Mister X stays at 3 (train tickets only: 3 has car and plane lines); yellow at 4
    # has car lines to 3 (Mister X), 5 and 9; black fills 5, blue stands on 9.
    t = Table(
        mission="orange",
        start=3,
        pawns={"red": 12, "blue": 9, "green": 18, "yellow": 4, "black": 10},
        racks_=racks(mrx=["train/double"] * 8),
    )
    t.do("mrx", "pass")
    t.refill("mrx", ["train/double"] * 8)
    t.do("det2", "move", pawn="black", ticket="car/siren", to=5)
    t.illegal("MX-3.7", "det2", "stay", pawn="yellow")
    t.illegal("MX-3.7", "det2", "move", pawn="yellow", ticket="car/siren", to=9)
    t.do("det2", "move", pawn="yellow", ticket="car/siren", to=3)
    assert GAME.result(t.state) == {"winner": "detectives", "reason": "caught", "moves": 0}


def _to_round_5(t: Table) -> None:
    for _ in range(4):
        quiet_round(t)
    assert t.state.round == 5


def test_mx_3_7_special_actions_only_from_round_5():
    t = Table(racks_=racks(det1=["car/secret"] * 4 + ["train/investigate"] * 3))
    quiet_round(t, refill=False)
    t.illegal("MX-3.7", "detectives", "investigate", pay={"det1": ["train/investigate"] * 3})


def test_mx_3_8_investigate_3_4_5_tickets_reveal_4_3_2_moves_back():
    for paid, back in ((3, 4), (4, 3), (5, 2)):
        det1 = ["car/secret"] * 4 + ["train/investigate"] * 3
        det2 = ["car/secret"] * (6 - (paid - 3)) + ["plane/investigate"] * (paid - 3)
        t = Table(racks_=racks(det1=det1, det2=det2))
        _to_round_5(t)
        quiet_round(t, refill=False)
        pay = {"det1": ["train/investigate"] * 3}
        if paid > 3:
            pay["det2"] = ["plane/investigate"] * (paid - 3)
        t.do("detectives", "investigate", pay=pay)
        st = t.state
        slot = 5 - back
        assert st.revealed == {slot: st.path[slot]}
        assert st.reveals[-1] == {
            "round": 5,
            "slot": slot,
            "city": st.path[slot],
            "by": "investigate",
        }
        assert rack_size(st.out) == paid  # special-action tickets leave the game
        seen = GAME.action_view(st, t.actions[-1], "det2")
        assert seen["reveal"] == {"slot": slot, "city": st.path[slot]}


def test_mx_3_7_investigate_with_4_tickets_from_one_player_holding_2_pawns_is_rejected():
    t = Table(racks_=racks(det2=["car/secret"] * 2 + ["train/investigate"] * 4))
    _to_round_5(t)
    quiet_round(t, refill=False)
    err = t.illegal("MX-3.7", "detectives", "investigate", pay={"det2": ["train/investigate"] * 4})
    assert "at most 2" in err.message
    t.illegal("MX-6.7", "detectives", "investigate", pay={"det2": ["train/investigate"] * 2})
    t.illegal(
        "MX-3.8",
        "detectives",
        "investigate",
        pay={"det1": ["car/investigate"] * 2, "det2": ["car/double"]},
    )


def test_mx_6_7_one_special_action_per_round_and_it_may_aim_at_a_revealed_slot():
    t = Table(
        racks_=racks(
            det1=["car/secret"] * 4 + ["train/investigate"] * 3,
            det2=["car/secret"] * 4 + ["train/investigate"] * 2,
        )
    )
    _to_round_5(t)
    st = t.state
    # round 5: Mister X moves, then swaps his rack for train tickets (he will be stuck at 3)
    t.do("mrx", "move", ticket=_car_ticket(st.racks["mrx"]), to=5 - st.position)
    t.do("mrx", "discard", tickets=rack_list(st.racks["mrx"]))
    t.refill("mrx", ["train/double"] * 8)
    quiet_round(t, mrx=False, refill=False)
    t.do("detectives", "investigate", pay={"det1": ["train/investigate"] * 3})
    assert st.revealed == {1: 3}
    t.illegal(
        "MX-6.7", "detectives", "investigate", pay={"det2": ["train/investigate"] * 2, "det1": []}
    )
    cars = [x for x in rack_list(st.bag) if x.startswith("car/")]
    t.refill("det1", ["train/investigate"] * 3 + cars[: 7 - rack_size(st.racks["det1"]) - 3])
    t.refill("det2")
    # round 6: Mister X (at 3, train tickets only) passes, so slot 1 is again 4 moves back
    assert st.round == 6 and st.position == 3
    t.do("mrx", "pass")
    t.refill("mrx", ["train/double"] * 8)
    quiet_round(t, mrx=False, refill=False)
    t.do("detectives", "investigate", pay={"det1": ["train/investigate"] * 3})
    assert [r["slot"] for r in st.reveals] == [1, 1]
    assert st.revealed == {1: 3}


STUCK = ["train/double"] * 4 + ["plane/double"] * 2 + ["train/secret"] * 2


def test_mx_6_7_investigation_aimed_before_the_start_is_rejected():
    t = Table(racks_=racks(mrx=list(STUCK), det1=["car/secret"] * 4 + ["train/investigate"] * 3))
    for n in range(5):
        t.do("mrx", "pass")
        t.refill("mrx", list(STUCK))
        quiet_round(t, mrx=False, refill=n < 4)
    assert t.state.last_slot == 0 and t.state.round == 5
    t.illegal("MX-6.7", "detectives", "investigate", pay={"det1": ["train/investigate"] * 3})


def test_mx_3_9_siren_moves_a_pawn_by_car_train_plane_for_3_4_5_tickets():
    det1 = ["car/secret"] * 4 + ["car/siren"] * 3
    det2 = ["car/secret"] * 4 + ["car/siren"] * 2
    t = Table(racks_=racks(det1=det1, det2=det2))
    _to_round_5(t)
    quiet_round(t, refill=False)
    st = t.state
    red = st.pawn_pos["red"]  # 11 after five toggles
    assert red == 11
    # 3 tickets: a car step; 11-13 is not a car line
    t.illegal("MX-3.9", "detectives", "siren", pay={"det1": ["car/siren"] * 3}, pawn="red", to=13)
    # 4 tickets: a train step from 11? none: 11 has no train line
    t.illegal(
        "MX-3.9",
        "detectives",
        "siren",
        pay={"det1": ["car/siren"] * 3, "det2": ["car/siren"]},
        pawn="red",
        to=6,
    )
    # a free car neighbour of 11 is 16
    t.do("detectives", "siren", pay={"det1": ["car/siren"] * 3}, pawn="red", to=16)
    assert st.pawn_pos["red"] == 16 and st.out == {"car/siren": 3}


def test_mx_3_9_siren_cannot_enter_another_pawns_city():
    t = Table(racks_=racks(det1=["car/secret"] * 4 + ["car/siren"] * 3))
    _to_round_5(t)
    quiet_round(t, refill=False)
    st = t.state
    assert st.pawn_pos["blue"] == 15 and st.pawn_pos["black"] == 20
    t.illegal("MX-3.9", "detectives", "siren", pay={"det1": ["car/siren"] * 3}, pawn="blue", to=20)


# --- MX-3.10 position check ----------------------------------------------------------------
def test_mx_3_10_position_check_reveals_a_pawn_on_one_of_the_last_five_cities():
    t = Table()
    t.do("mrx", "move", ticket="car/double", to=3)
    t.refill("mrx")
    # black moves to ... a pawn onto 2 (slot 0, the start): yellow 8 -> 7 -> 2 next round
    t.pawns_move(
        {
            "red": ("car/investigate", 11),
            "blue": ("car/investigate", 15),
            "green": ("car/investigate", 17),
            "yellow": ("car/siren", 7),
            "black": ("car/siren", 20),
        }
    )
    t.end_round()
    assert t.state.revealed == {}
    t.do("mrx", "move", ticket="car/double", to=4)
    t.refill("mrx")
    t.pawns_move(
        {
            "red": ("car/investigate", 12),
            "blue": ("car/investigate", 14),
            "green": ("car/investigate", 18),
            "yellow": ("car/siren", 2),
            "black": ("car/siren", 19),
        }
    )
    before = len(t.actions)
    t.end_round()
    st = t.state
    assert st.revealed == {0: 2}
    assert st.reveals == [{"round": 2, "slot": 0, "city": 2, "by": "check"}]
    frames = list(t.replayed().frames("det1"))
    assert frames[before]["view"]["mrx"]["known"] == {}
    assert frames[-1]["view"]["mrx"]["known"] == {"0": 2}


def test_mx_3_10_a_city_six_entries_back_is_not_checked():
    # Mister X walks 2,1,6,11,16,21,22; yellow reaches 2 (slot 0) only in round 6
    t = Table()
    walk = [1, 6, 11, 16, 21, 22]
    toggles = dict(TOGGLE, red=(12, 13))
    yellow = [9, 8, 9, 8, 3, 2]
    for rnd, to in enumerate(walk):
        t.do("mrx", "move", ticket=_car_ticket(t.state.racks["mrx"]), to=to)
        t.refill("mrx")
        for pawn, (home, away) in toggles.items():
            seat = t.state.owner[pawn]
            dest = (
                yellow[rnd]
                if pawn == "yellow"
                else (away if t.state.pawn_pos[pawn] == home else home)
            )
            t.do(seat, "move", pawn=pawn, ticket=_car_ticket(t.state.racks[seat]), to=dest)
        t.end_round()
    st = t.state
    assert st.path == [2, *walk] and st.pawn_pos["yellow"] == 2
    assert st.revealed == {}


def test_mx_6_9_discard_once_before_the_refill_empty_allowed():
    t = Table()
    t.do("mrx", "move", ticket="car/double", to=3)
    t.illegal("MX-6.9", "mrx", "discard", tickets=["plane/double"])
    t.do("mrx", "discard", tickets=["car/double", "car/double"])
    t.illegal("MX-6.9", "mrx", "discard", tickets=[])
    t.illegal("MX-6.8", "mrx", "refill", tickets=["car/double"] * 2)
    t.refill("mrx", ["car/double"] * 3)
    t2 = Table()
    t2.do("mrx", "move", ticket="car/double", to=3)
    t2.do("mrx", "discard", tickets=[])
    t2.refill("mrx")


def test_mx_6_9_discarded_tickets_are_in_the_bag_before_the_refill():
    t = Table()
    t.do("mrx", "move", ticket="car/double", to=3)
    assert t.state.bag["car/double"] == 5
    t.do("mrx", "discard", tickets=["car/double"] * 7)
    assert t.state.bag["car/double"] == 12
    t.refill("mrx", ["car/double"] * 8)


def test_mx_6_10_detectives_refill_in_seat_order():
    t = Table()
    quiet_round(t, refill=False)
    t.illegal("MX-6.10", "det2", "refill", tickets=["car/double"] * 2)
    t.illegal("MX-6.10", "det2", "discard", tickets=[])
    t.refill("det1")
    t.illegal("MX-6.10", "det1", "refill", tickets=[])
    t.refill("det2")
    assert t.state.round == 2 and t.state.phase == rules.PH_MRX


def test_mx_6_8_refill_must_come_from_the_bag():
    t = Table()
    t.do("mrx", "move", ticket="car/double", to=3)
    t.illegal("MX-6.8", "mrx", "refill", tickets=[])  # one ticket is missing from the rack
    t.illegal("MX-6.8", "mrx", "refill", tickets=["nope"])
    # the mix has 6 plane/double: a refill cannot draw 7
    t.do("mrx", "discard", tickets=["car/double"] * 7)
    t.illegal("MX-6.8", "mrx", "refill", tickets=["plane/double"] * 7 + ["car/double"])


def _dry_bag(t: Table) -> None:
    """Empty the bag but for two tickets, moving the rest out of the game: a state the
    rules reach only after many special actions, set up directly for the refill rule."""
    st = t.state
    keep = {"train/siren": 2}
    rest = dict(st.bag)
    rules.remove_all(rest, keep)
    st.bag = dict(keep)
    rules.add_all(st.out, rest)


def test_mx_3_12_a_dry_bag_takes_back_the_tickets_out_of_the_game():
    t = Table()
    t.do(
        "mrx",
        "double",
        pay=["car/double"] * 3,
        moves=[{"ticket": "car/double", "to": 3}, {"ticket": "car/double", "to": 4}],
    )
    _dry_bag(t)
    st = t.state
    out_before = rack_size(st.out)
    # 5 needed, 2 in the bag: both of them plus 3 from out of the game
    with pytest.raises(IllegalAction) as err:
        GAME.apply(GAME.clone(st), {"seat": "mrx", "type": "refill", "tickets": ["car/double"] * 5})
    assert err.value.rule == "MX-6.8"
    GAME.apply(
        st,
        {
            "seat": "mrx",
            "type": "refill",
            "tickets": ["train/siren", "train/siren", "car/double", "car/double", "plane/siren"],
        },
    )
    assert rack_size(st.racks["mrx"]) == 8
    assert st.out == {} and rack_size(st.bag) == out_before - 3


def test_mx_6_8_seeded_refill_draws_as_rng_draw_on_the_sorted_pile():
    from engine import Rng

    pile = {"car/double": 3, "train/siren": 2, "plane/secret": 1}
    expanded = rack_list(pile)
    assert rules.draw_from(dict(pile), 4, Rng(99)) == Rng(99).draw(list(expanded), 4)


def test_mx_6_8_seeded_log_refill_must_agree_with_the_seed():
    from engine import play

    log = play("mister-x", 3, ["greedy", "greedy"], max_actions=40)
    index = next(i for i, a in enumerate(log["actions"]) if a["type"] == "refill" and a["tickets"])
    replay(log)
    stripped = {**log, "actions": [dict(a) for a in log["actions"]]}
    del stripped["actions"][index]["tickets"]
    assert replay(stripped).actions[index] == log["actions"][index]  # filled in from the seed
    wrong = {**log, "actions": [dict(a) for a in log["actions"]]}
    tickets = list(wrong["actions"][index]["tickets"])
    tickets[0] = "plane/double" if tickets[0] != "plane/double" else "car/double"
    wrong["actions"][index]["tickets"] = tickets
    with pytest.raises(IllegalAction) as err:
        replay(wrong)
    assert (err.value.index, err.value.rule) == (index, "MX-6.8")


# --- MX-4 / MX-6.11 ----------------------------------------------------------------------
def test_mx_4_3_a_log_that_stops_early_is_unfinished():
    t = Table()
    quiet_round(t)
    r = t.replayed()
    assert r.status == "unfinished" and r.result is None


def test_mx_6_11_unknown_extra_fields_are_ignored():
    t = Table()
    t.do("mrx", "move", ticket="car/double", to=3, comment="fast")
    assert t.replayed().status == "unfinished"


def test_mx_6_10_unknown_seat_and_unknown_action_type():
    t = Table()
    t.illegal("MX-6.10", "det9", "move", pawn="red", ticket="car/double", to=11)
    t.illegal("MX-3.1", "mrx", "teleport")
    t.illegal("MX-3.7", "detectives", "arrest")


def test_mx_1_4_options_pawns_as_in_the_log_format():
    t = Table()
    assert t.state.pawns_of == PAWNS
    assert t.state.limit == {"mrx": 8, "det1": 7, "det2": 6}


def test_mx_3_12_seeded_refill_from_a_dry_bag_takes_the_bag_then_draws_from_returned_tickets():
    from engine import Rng

    t = Table()
    t.do(
        "mrx",
        "double",
        pay=["car/double"] * 3,
        moves=[{"ticket": "car/double", "to": 3}, {"ticket": "car/double", "to": 4}],
    )
    _dry_bag(t)
    st = t.state
    out_before = dict(st.out)
    st.rng = Rng(5)
    recorded = GAME.apply(st, {"seat": "mrx", "type": "refill"})
    drawn = rules.rack_of(recorded["tickets"])
    assert len(recorded["tickets"]) == 5 and drawn.get("train/siren", 0) >= 2
    expected_rest = rules.draw_from(dict(out_before), 3, Rng(5))
    assert sorted(recorded["tickets"]) == sorted(["train/siren"] * 2 + expected_rest)
    assert st.out == {} and rack_size(st.bag) == rack_size(out_before) - 3
