"""Cryptid: Urban Legends, rule by rule (ids from docs/rules/cryptid-urban-legends.md)."""

from __future__ import annotations

import pytest

from engine import IllegalAction
from engine.core.rng import Rng
from engine.games.cryptid.legal import legal_actions, to_act
from engine.games.cryptid.opening import new_state
from engine.games.cryptid.rules import apply, matching_blocks
from engine.games.cryptid.state import MYSTERIOUS, NORMAL_BLOCKS
from tests.engine.cryptid_helpers import GAME, TABLE_SETUP, sensor_total, spaces, start, table


def rejects(state, action, rule: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        apply(state, action)
    assert caught.value.rule == rule, caught.value.message
    return caught.value


# --------------------------------------------------------------------------- CUL-1 components
def test_cul_1_1_seats_are_exactly_cryptid_and_scientist():
    GAME.check_seats([{"seat": "cryptid", "player": "a"}, {"seat": "scientist", "player": "b"}], {})
    with pytest.raises(IllegalAction) as caught:
        GAME.check_seats([{"seat": "cryptid", "player": "a"}], {})
    assert caught.value.rule == "CUL-1.1"
    with pytest.raises(IllegalAction) as caught:
        GAME.check_seats([{"seat": "cryptid", "player": "a"}, {"seat": "mrx", "player": "b"}], {})
    assert caught.value.rule == "CUL-1.1"


def test_cul_1_1_unknown_seat_in_an_action():
    rejects(start(), {"seat": "mrx", "type": "draw", "cards": ["split", "split"]}, "CUL-1.1")


def test_cul_1_2_default_deck_is_4_split_3_shuffle_3_align():
    options = GAME.normalize_options({})
    assert options == {
        "decks": {
            "cryptid": {"split": 4, "shuffle": 3, "align": 3},
            "scientist": {"split": 4, "shuffle": 3, "align": 3},
        }
    }
    state = start()
    # 10 cards each: 3 in hand, 7 in the deck
    assert sorted(state.hands["cryptid"] + state.decks["cryptid"]) == sorted(
        ["split"] * 4 + ["shuffle"] * 3 + ["align"] * 3
    )


def test_cul_1_2_deck_option_for_one_seat_keeps_the_other_default():
    options = GAME.normalize_options(
        {"decks": {"scientist": {"split": 6, "shuffle": 2, "align": 2}}}
    )
    assert options["decks"]["scientist"] == {"split": 6, "shuffle": 2, "align": 2}
    assert options["decks"]["cryptid"] == {"split": 4, "shuffle": 3, "align": 3}


@pytest.mark.parametrize(
    "decks",
    [
        {"cryptid": {"split": 4, "shuffle": 3, "align": 2}},  # 9 cards
        {"cryptid": {"split": 4, "shuffle": 3, "joker": 3}},  # unknown card
        {"cryptid": {"split": -1, "shuffle": 8, "align": 3}},  # negative
        {"cryptid": {"split": 4.0, "shuffle": 3, "align": 3}},  # not a whole number
        {"mrx": {"split": 4, "shuffle": 3, "align": 3}},  # no such seat
        ["split"],
    ],
)
def test_cul_1_2_invalid_deck_options_are_rejected(decks):
    with pytest.raises(IllegalAction) as caught:
        GAME.normalize_options({"decks": decks})
    assert caught.value.rule == "CUL-1.2"


def test_cul_1_2_unknown_option_is_rejected():
    with pytest.raises(IllegalAction) as caught:
        GAME.normalize_options({"variant": "hard"})
    assert caught.value.rule == "LOG-OPTIONS"


def test_cul_1_2_unknown_card_in_a_play():
    rejects(start(), {"seat": "cryptid", "type": "play", "card": "teleport"}, "CUL-1.2")


def test_cul_1_4_seventeen_blocks_twelve_normal_five_mysterious():
    assert len(NORMAL_BLOCKS) == 12 and len(MYSTERIOUS) == 5
    state = start()
    assert state.block_count() == 3 and len(state.block_pool) == 14


def test_cul_1_3_each_seat_has_one_wild_card_up_or_down_outside_the_hand():
    state = start()
    assert state.wild == {"cryptid": False, "scientist": False}
    assert GAME.view(state, None)["wild"] == {"cryptid": "down", "scientist": "down"}
    assert all(len(state.hands[s]) + len(state.decks[s]) == 10 for s in ("cryptid", "scientist"))


def test_cul_1_5_ten_sensors_four_red_three_white_three_black():
    assert sensor_total(start()) == [4, 3, 3]


def test_cul_1_6_four_presence_markers_one_on_the_table_at_the_start():
    state = start()
    assert len(state.presence) == 1 and GAME.view(state, None)["presence_supply"] == 3


# --------------------------------------------------------------------------- CUL-2 setup
def test_cul_2_1_the_shorter_row_touches_corners_with_two_blocks_of_the_longer():
    from engine.games.cryptid.rules import candidate_blocks

    state = table(
        active="cryptid",
        active_row=["N1", "N2", "N3"],
        inactive_row=["N4", "N5", "N6", "N7"],
        presence=("N2",),
        phase="hiding",
    )
    assert candidate_blocks(state) == [1, 2]  # active block 1 lies between inactive blocks 1 and 2
    state.presence = {"N1", "N3"}
    assert candidate_blocks(state) == [0, 1, 2, 3]
    state.presence = {"N1", "N2"}
    assert candidate_blocks(state) == [0, 1, 2]


def test_cul_2_2_a_row_of_k_blocks_has_k_plus_1_spaces_and_a_block_sees_its_two_sides():
    from engine.games.cryptid.rules import block_signature

    state = start()
    assert [len(state.sensors[s]) for s in ("cryptid", "scientist")] == [2, 3]
    inactive = spaces({"red": 1}, {"white": 2}, {"black": 3})
    assert block_signature(inactive, 0) == (3, 0b011)  # inactive block 0: spaces 0 and 1
    assert block_signature(inactive, 1) == (5, 0b110)  # inactive block 1: spaces 1 and 2


def test_cul_2_3_setup_places_sensors_presence_and_wild_cards():
    state = start()
    assert state.rows == {"cryptid": ["N6"], "scientist": ["N4", "N12"]}
    # 2 red 2 white 1 black on the chosen (left) side, 2 red 1 white 2 black on the other
    assert state.sensors["cryptid"] == [[2, 2, 1], [2, 1, 2]]
    assert state.sensors["scientist"] == [[0, 0, 0]] * 3
    assert state.presence == {"N6"} and state.evidence == set()
    assert state.wild == {"cryptid": False, "scientist": False}
    assert state.active == "cryptid" and to_act(state) == ["cryptid"]
    right = start({**TABLE_SETUP, "sensors_2r2w1b": "right"})
    assert right.sensors["cryptid"] == [[2, 1, 2], [2, 2, 1]]


@pytest.mark.parametrize(
    "setup",
    [
        {**TABLE_SETUP, "sensors_2r2w1b": "middle"},
        {key: value for key, value in TABLE_SETUP.items() if key != "sensors_2r2w1b"},
        {**TABLE_SETUP, "first_blocks": ["N6", "N4", "M1"]},  # the first blocks are normal
        {**TABLE_SETUP, "first_blocks": ["N6", "N6", "N12"]},  # twice the same block
        {**TABLE_SETUP, "first_blocks": ["N6", "N4"]},
        {**TABLE_SETUP, "hands": {"cryptid": ["split"], "scientist": ["split", "split", "split"]}},
    ],
)
def test_cul_2_3_bad_setups_are_rejected(setup):
    with pytest.raises(IllegalAction) as caught:
        start(setup)
    assert caught.value.rule == "CUL-2.3"


def test_cul_2_4_without_a_seed_the_setup_records_every_deal():
    for missing in ("hands", "first_blocks"):
        setup = {key: value for key, value in TABLE_SETUP.items() if key != missing}
        with pytest.raises(IllegalAction) as caught:
            start(setup)
        assert caught.value.rule == "CUL-2.4"


def test_cul_2_4_a_hand_the_deck_cannot_hold_is_rejected():
    setup = {**TABLE_SETUP, "hands": {"cryptid": ["align"] * 3, "scientist": ["split"] * 3}}
    start(setup)  # 3 aligns exist in the default deck
    with pytest.raises(IllegalAction) as caught:
        start(setup, {"decks": {"cryptid": {"split": 6, "shuffle": 2, "align": 2}}})
    assert caught.value.rule == "CUL-2.4"


def test_cul_2_4_a_seed_deals_the_setup_and_must_agree_with_what_the_log_gives():
    options = GAME.normalize_options({})
    dealt = new_state(options, {"sensors_2r2w1b": "left"}, Rng(5))
    record = GAME.setup_record(dealt)
    assert all(b in NORMAL_BLOCKS for b in record["first_blocks"])
    again = new_state(options, record, Rng(5))  # the same deal, written out, agrees
    assert again.hands == dealt.hands
    other = dict(
        record, first_blocks=[b for b in NORMAL_BLOCKS if b not in record["first_blocks"]][:3]
    )
    with pytest.raises(IllegalAction) as caught:
        new_state(options, other, Rng(5))
    assert caught.value.rule == "CUL-2.4"


def test_cul_2_4_with_a_seed_the_first_four_blocks_drawn_are_normal():
    for seed in range(40):
        state = new_state(GAME.normalize_options({}), {"sensors_2r2w1b": "left"}, Rng(seed))
        drawn = []
        for _ in range(7):
            state.phase = "sensor"
            from engine.games.cryptid.rules import begin_expansion  # the phase's entry point

            begin_expansion(state)
            drawn += state.pending_blocks
        assert all(b not in MYSTERIOUS for b in drawn[:4]), (seed, drawn)
        assert sorted(drawn) == sorted(state.block_pool + drawn)  # the deck is empty after 14
        assert len(set(drawn)) == 14 and sum(b in MYSTERIOUS for b in drawn) == 5


def _at_first_expansion():
    """Round 1 played to its Expansion phase, without a seed."""
    state = start()
    for action in [
        {"seat": "cryptid", "type": "play", "card": "align", "color": "red", "dir": "left"},
        {
            "seat": "scientist",
            "type": "play",
            "card": "shuffle",
            "space": 0,
            "color": "black",
            "dir": "right",
        },
        {
            "seat": "cryptid",
            "type": "play",
            "card": "split",
            "space": 1,
            "left": {"white": 1},
            "right": {"black": 2},
        },
        {
            "seat": "scientist",
            "type": "play",
            "card": "split",
            "space": 0,
            "left": {"white": 1},
            "right": {"white": 1},
        },
        {"seat": "cryptid", "type": "declare", "count": 7},
    ]:
        apply(state, action)
    assert state.phase == "expansion"
    return state


def test_cul_2_4_a_mysterious_block_before_the_four_guaranteed_normal_ones_is_rejected():
    error = rejects(
        _at_first_expansion(),
        {"seat": "cryptid", "type": "expand", "left": "M1", "right": "N2"},
        "CUL-2.4",
    )
    assert "normal" in error.message


def test_cul_2_4_a_block_already_drawn_is_rejected():
    state = _at_first_expansion()
    rejects(state, {"seat": "cryptid", "type": "expand", "left": "N4", "right": "N2"}, "CUL-2.4")
    rejects(
        _at_first_expansion(),
        {"seat": "cryptid", "type": "expand", "left": "N2", "right": "N2"},
        "CUL-2.4",
    )
    rejects(_at_first_expansion(), {"seat": "cryptid", "type": "expand", "left": "N2"}, "CUL-2.4")
    rejects(
        _at_first_expansion(),
        {"seat": "cryptid", "type": "expand", "left": "X9", "right": "N2"},
        "CUL-1.4",
    )


def test_cul_2_4_a_sixth_mysterious_block_cannot_be_drawn():
    state = table(
        active="cryptid",
        active_row=["N1", "N2", "N3"],
        inactive_row=["N4", "M1", "M2", "N5"],
        phase="expansion",
        round_=5,
    )
    state.block_pool = ["N6", "N7", "M3", "M4", "M5"]
    state.rows["cryptid"] = ["N1", "N2", "N3"]
    rejects(state, {"seat": "cryptid", "type": "expand", "left": "M1", "right": "N6"}, "CUL-2.4")


# --------------------------------------------------------------------------- CUL-3.1 turns
def test_cul_3_1_seats_alternate_in_the_sensor_phase():
    state = start()
    rejects(state, {"seat": "scientist", "type": "draw", "cards": ["split", "split"]}, "CUL-3.1")
    apply(
        state, {"seat": "cryptid", "type": "play", "card": "align", "color": "red", "dir": "left"}
    )
    assert to_act(state) == ["scientist"]
    rejects(
        state,
        {
            "seat": "cryptid",
            "type": "play",
            "card": "split",
            "space": 0,
            "left": {"white": 1},
            "right": {"white": 1, "black": 1},
        },
        "CUL-3.1",
    )


def test_cul_3_1_the_sensor_phase_goes_on_while_sensors_remain():
    rejects(start(), {"seat": "cryptid", "type": "declare", "count": 3}, "CUL-3.1")
    rejects(start(), {"seat": "cryptid", "type": "fly"}, "CUL-3.1")


def test_cul_3_1_round_two_starts_with_the_scientist():
    state = _at_first_expansion()
    apply(state, {"seat": "cryptid", "type": "expand", "left": "N9", "right": "N2"})
    assert state.round == 2 and state.active == "scientist" and to_act(state) == ["scientist"]


# --------------------------------------------------------------------------- CUL-3.2 .. 3.5 effects
def test_cul_3_2_a_card_must_be_in_hand():
    state = start({**TABLE_SETUP, "hands": {"cryptid": ["split"] * 3, "scientist": ["split"] * 3}})
    rejects(
        state,
        {"seat": "cryptid", "type": "play", "card": "align", "color": "red", "dir": "left"},
        "CUL-3.2",
    )


def test_cul_3_2_no_play_with_an_empty_hand():
    state = start()
    state.hands["cryptid"] = []
    rejects(
        state,
        {"seat": "cryptid", "type": "play", "card": "align", "color": "red", "dir": "left"},
        "CUL-3.2",
    )


def test_cul_3_2_a_played_card_is_discarded_face_up():
    state = start()
    apply(
        state, {"seat": "cryptid", "type": "play", "card": "align", "color": "red", "dir": "left"}
    )
    assert state.hands["cryptid"] == ["shuffle", "split"] and state.discards["cryptid"] == ["align"]


def test_cul_3_3_split_moves_a_space_to_its_two_diagonal_neighbours():
    state = start()
    apply(
        state,
        {
            "seat": "cryptid",
            "type": "play",
            "card": "split",
            "space": 1,
            "left": {"red": 1, "black": 2},
            "right": {"red": 1, "white": 1},
        },
    )
    # active space 1 is diagonally adjacent to inactive spaces 1 and 2
    assert state.sensors["scientist"] == spaces({}, {"red": 1, "black": 2}, {"red": 1, "white": 1})
    assert state.sensors["cryptid"] == spaces({"red": 2, "white": 2, "black": 1}, {})
    assert state.active_sensors == 5


def test_cul_3_3_split_sends_at_least_one_sensor_each_way():
    rejects(
        start(),
        {
            "seat": "cryptid",
            "type": "play",
            "card": "split",
            "space": 0,
            "left": {"red": 2, "white": 2, "black": 1},
            "right": {},
        },
        "CUL-3.3",
    )


def test_cul_3_3_split_moves_exactly_the_sensors_of_the_space():
    rejects(
        start(),
        {
            "seat": "cryptid",
            "type": "play",
            "card": "split",
            "space": 0,
            "left": {"red": 2},
            "right": {"white": 2},
        },
        "CUL-3.3",
    )
    rejects(
        start(),
        {
            "seat": "cryptid",
            "type": "play",
            "card": "split",
            "space": 0,
            "left": {"red": 3, "white": 2},
            "right": {"black": 1},
        },
        "CUL-3.3",
    )


def test_cul_3_3_split_of_one_sensor_goes_to_either_side():
    for side, target in (("left", 1), ("right", 2)):
        state = table(
            active="cryptid",
            active_row=["N1"],
            inactive_row=["N2", "N3"],
            active_spaces=[{}, {"black": 1}],
            inactive_spaces=[{"red": 4, "white": 3, "black": 2}, {}, {}],
            round_=1,
        )
        other = "right" if side == "left" else "left"
        apply(
            state,
            {
                "seat": "cryptid",
                "type": "play",
                "card": "split",
                "space": 1,
                side: {"black": 1},
                other: {},
            },
        )
        assert state.sensors["scientist"][target] == [0, 0, 1]
        assert state.phase == "hiding"


def test_cul_3_3_split_of_an_empty_space_or_a_space_that_does_not_exist():
    state = table(
        active="cryptid",
        active_row=["N1"],
        inactive_row=["N2", "N3"],
        active_spaces=[{}, {"black": 1}],
        inactive_spaces=[{"red": 4, "white": 3, "black": 2}, {}, {}],
        round_=1,
    )
    rejects(
        state,
        {"seat": "cryptid", "type": "play", "card": "split", "space": 0, "left": {}, "right": {}},
        "CUL-3.3",
    )
    for space in (2, -1, "1", True, None):
        rejects(
            state,
            {
                "seat": "cryptid",
                "type": "play",
                "card": "split",
                "space": space,
                "left": {"black": 1},
                "right": {},
            },
            "CUL-3.3",
        )


def test_cul_3_3_split_groups_must_be_colour_counts():
    for group in ({"green": 1}, {"black": -1}, {"black": "1"}, ["black"], None):
        rejects(
            start(),
            {
                "seat": "cryptid",
                "type": "play",
                "card": "split",
                "space": 1,
                "left": group,
                "right": {"red": 2, "white": 1, "black": 2},
            },
            "CUL-3.3",
        )


def test_cul_3_4_shuffle_moves_one_sensor_three_half_blocks():
    state = start()
    apply(
        state,
        {
            "seat": "cryptid",
            "type": "play",
            "card": "shuffle",
            "space": 0,
            "color": "black",
            "dir": "right",
        },
    )
    # from active space 0 right along the row to space 1, then down-right to inactive space 2
    assert state.sensors["scientist"] == spaces({}, {}, {"black": 1})
    state = start()
    apply(
        state,
        {
            "seat": "cryptid",
            "type": "play",
            "card": "shuffle",
            "space": 1,
            "color": "red",
            "dir": "left",
        },
    )
    assert state.sensors["scientist"] == spaces({"red": 1}, {}, {})


def test_cul_3_4_shuffle_cannot_leave_the_row():
    error = rejects(
        start(),
        {
            "seat": "cryptid",
            "type": "play",
            "card": "shuffle",
            "space": 1,
            "color": "red",
            "dir": "right",
        },
        "CUL-3.4",
    )
    assert "right end" in error.message
    error = rejects(
        start(),
        {
            "seat": "cryptid",
            "type": "play",
            "card": "shuffle",
            "space": 0,
            "color": "red",
            "dir": "left",
        },
        "CUL-3.4",
    )
    assert "left end" in error.message


def test_cul_3_4_shuffle_needs_a_sensor_of_that_colour_in_that_space():
    state = table(
        active="cryptid",
        active_row=["N1"],
        inactive_row=["N2", "N3"],
        active_spaces=[{"red": 1}, {"black": 1}],
        inactive_spaces=[{"red": 3, "white": 3, "black": 2}, {}, {}],
        round_=1,
    )
    rejects(
        state,
        {
            "seat": "cryptid",
            "type": "play",
            "card": "shuffle",
            "space": 0,
            "color": "black",
            "dir": "right",
        },
        "CUL-3.4",
    )
    rejects(
        state,
        {
            "seat": "cryptid",
            "type": "play",
            "card": "shuffle",
            "space": 0,
            "color": "pink",
            "dir": "right",
        },
        "CUL-3.4",
    )
    rejects(
        state,
        {
            "seat": "cryptid",
            "type": "play",
            "card": "shuffle",
            "space": 0,
            "color": "red",
            "dir": "up",
        },
        "CUL-3.4",
    )


def test_cul_3_5_align_moves_every_sensor_of_the_colour_one_way():
    state = start()
    apply(
        state,
        {"seat": "cryptid", "type": "play", "card": "align", "color": "white", "dir": "right"},
    )
    assert state.sensors["scientist"] == spaces({}, {"white": 2}, {"white": 1})
    assert state.sensors["cryptid"] == spaces({"red": 2, "black": 1}, {"red": 2, "black": 2})


def test_cul_3_5_align_needs_the_colour_in_the_active_row():
    state = start()
    state.hands["cryptid"] = ["align", "align"]
    apply(
        state,
        {"seat": "cryptid", "type": "play", "card": "align", "color": "white", "dir": "right"},
    )
    apply(
        state,
        {
            "seat": "scientist",
            "type": "play",
            "card": "shuffle",
            "space": 0,
            "color": "black",
            "dir": "right",
        },
    )
    rejects(
        state,
        {"seat": "cryptid", "type": "play", "card": "align", "color": "white", "dir": "left"},
        "CUL-3.5",
    )


def test_cul_3_sensor_phase_example_of_the_rule_book():
    """Rule book p.7: the scientist splits the 3rd space sending one white right and the
    rest left; the cryptid shuffles the red sensor of the 2nd space right; the scientist
    aligns white to the left."""
    state = table(
        active="scientist",
        active_row=["N1", "N2"],
        inactive_row=["N3", "N4", "N5"],
        round_=2,
        active_spaces=[
            {"white": 1, "black": 1},
            {"red": 2, "white": 1},
            {"red": 2, "white": 1, "black": 2},
        ],
        hands={"scientist": ["split", "align"], "cryptid": ["shuffle"]},
    )
    apply(
        state,
        {
            "seat": "scientist",
            "type": "play",
            "card": "split",
            "space": 2,
            "left": {"red": 2, "black": 2},
            "right": {"white": 1},
        },
    )
    assert state.sensors["cryptid"] == spaces({}, {}, {"red": 2, "black": 2}, {"white": 1})
    apply(
        state,
        {
            "seat": "cryptid",
            "type": "play",
            "card": "shuffle",
            "space": 1,
            "color": "red",
            "dir": "right",
        },
    )
    assert state.sensors["cryptid"] == spaces(
        {}, {}, {"red": 2, "black": 2}, {"red": 1, "white": 1}
    )
    apply(
        state,
        {"seat": "scientist", "type": "play", "card": "align", "color": "white", "dir": "left"},
    )
    assert state.sensors["cryptid"] == spaces(
        {"white": 1}, {"white": 1}, {"red": 2, "black": 2}, {"red": 1, "white": 1}
    )
    assert state.sensors["scientist"] == spaces({"black": 1}, {"red": 1}, {})
    assert state.active_sensors == 2 and to_act(state) == ["cryptid"]
    assert sensor_total(state) == [4, 3, 3]


# --------------------------------------------------------------------------- CUL-3.6 .. 3.8
def test_cul_3_6_the_wild_card_needs_to_be_up_and_turns_down():
    state = start()
    rejects(
        state,
        {"seat": "cryptid", "type": "wild", "as": "align", "color": "red", "dir": "left"},
        "CUL-3.6",
    )
    state.wild["cryptid"] = True
    apply(state, {"seat": "cryptid", "type": "wild", "as": "align", "color": "red", "dir": "left"})
    assert state.wild["cryptid"] is False
    assert state.hands["cryptid"] == ["align", "shuffle", "split"]  # the hand is untouched
    assert state.sensors["scientist"] == spaces({"red": 2}, {"red": 2}, {})


def test_cul_3_6_wild_must_name_an_effect():
    state = start()
    state.wild["cryptid"] = True
    rejects(state, {"seat": "cryptid", "type": "wild", "as": "draw"}, "CUL-3.6")


def test_cul_6_2_the_wild_card_is_usable_with_an_empty_hand():
    state = start()
    state.hands["cryptid"] = []
    state.wild["cryptid"] = True
    apply(
        state,
        {
            "seat": "cryptid",
            "type": "wild",
            "as": "shuffle",
            "space": 0,
            "color": "black",
            "dir": "right",
        },
    )
    assert state.sensors["scientist"][2] == [0, 0, 1]
    assert any(a["type"] == "wild" for a in legal_actions(state, "scientist")) is False


def test_cul_3_7_draw_two_or_one_with_three_in_hand_never_with_four():
    state = start()
    error = rejects(
        state, {"seat": "cryptid", "type": "draw", "cards": ["split", "split"]}, "CUL-3.7"
    )
    assert "1" in error.message
    apply(state, {"seat": "cryptid", "type": "draw", "cards": ["split"]})
    assert state.hands["cryptid"] == ["align", "shuffle", "split", "split"]
    state.turn = "cryptid"
    rejects(state, {"seat": "cryptid", "type": "draw", "cards": ["split"]}, "CUL-3.7")
    assert not any(a["type"] == "draw" for a in legal_actions(state, "cryptid"))
    state = start()
    state.hands["cryptid"] = ["split"]
    rejects(state, {"seat": "cryptid", "type": "draw", "cards": ["align"]}, "CUL-3.7")
    rejects(state, {"seat": "cryptid", "type": "draw", "cards": "align"}, "CUL-3.7")


def test_cul_3_7_drawing_a_card_the_deck_no_longer_holds_is_rejected():
    state = start()
    state.decks["cryptid"] = ["align", "shuffle", "split"]
    state.hands["cryptid"] = ["split"]
    rejects(state, {"seat": "cryptid", "type": "draw", "cards": ["split", "split"]}, "CUL-2.4")
    rejects(state, {"seat": "cryptid", "type": "draw", "cards": ["split", "joker"]}, "CUL-1.2")


def test_cul_3_7_an_empty_deck_is_refilled_from_the_discards():
    state = start()
    state.hands["cryptid"] = ["split"]
    state.decks["cryptid"] = []
    state.discards["cryptid"] = ["align", "align", "shuffle", "split"]
    apply(state, {"seat": "cryptid", "type": "draw", "cards": ["align", "split"]})
    assert state.decks["cryptid"] == ["align", "shuffle"] and state.discards["cryptid"] == []
    assert state.hands["cryptid"] == ["align", "split", "split"]


def test_cul_6_1_a_draw_running_out_mid_way_takes_the_last_deck_card():
    def fresh():
        state = start()
        state.hands["cryptid"] = ["split"]
        state.decks["cryptid"] = ["shuffle"]
        state.discards["cryptid"] = ["align", "align", "split"]
        return state

    state = fresh()
    apply(state, {"seat": "cryptid", "type": "draw", "cards": ["align", "shuffle"]})
    assert state.decks["cryptid"] == ["align", "split"] and state.discards["cryptid"] == []
    error = rejects(
        fresh(), {"seat": "cryptid", "type": "draw", "cards": ["align", "align"]}, "CUL-6.1"
    )
    assert "shuffle" in error.message
    rejects(
        fresh(), {"seat": "cryptid", "type": "draw", "cards": ["shuffle", "shuffle"]}, "CUL-6.1"
    )
    options = GAME.chance_options(fresh(), {"seat": "cryptid", "type": "draw"})
    assert [a["cards"] for a in options] == [["align", "shuffle"], ["shuffle", "split"]]


def test_cul_3_7_seeded_draws_reshuffle_and_agree_with_recorded_cards():
    state = new_state(GAME.normalize_options({}), {"sensors_2r2w1b": "left"}, Rng(11))
    state.hands["cryptid"] = ["split"]
    state.discards["cryptid"] = sorted(state.decks["cryptid"][1:])
    state.decks["cryptid"] = state.decks["cryptid"][:1]
    last = state.decks["cryptid"][0]
    probe = state.copy()
    recorded = apply(state, {"seat": "cryptid", "type": "draw"})
    assert last in recorded["cards"] and len(recorded["cards"]) == 2
    apply(probe, {"seat": "cryptid", "type": "draw", "cards": list(reversed(recorded["cards"]))})
    assert probe.hands == state.hands and probe.decks == state.decks
    other = [c for c in ("align", "shuffle", "split") if c not in recorded["cards"]][:1] * 2
    mismatch = new_state(GAME.normalize_options({}), {"sensors_2r2w1b": "left"}, Rng(11))
    mismatch.hands["cryptid"] = []
    drawn = mismatch.copy()
    seeded = apply(drawn, {"seat": "cryptid", "type": "draw"})["cards"]
    if sorted(other) != sorted(seeded):
        rejects(mismatch, {"seat": "cryptid", "type": "draw", "cards": other}, "CUL-2.4")


def _hiding_example():
    """Rule book p.9: inactive blocks A B C D; presence on the two right active blocks;
    sensors A: 2 (red, white), B: 5 (red, white, black), C: 5 (all three), D: 5 (red, white)."""
    return table(
        active="cryptid",
        active_row=["N1", "N2", "N3"],
        inactive_row=["A", "B", "C", "D"],
        active_spaces=[{}, {}, {}, {}],
        inactive_spaces=[
            {},
            {"red": 1, "white": 1},
            {"black": 3},
            {"red": 1, "white": 1},
            {"red": 2, "white": 1},
        ],
        presence=("N2", "N3"),
        evidence=("B",),
        phase="hiding",
        round_=3,
    )


def test_cul_3_9_hiding_phase_example_white_and_red_matches_only_d():
    state = _hiding_example()
    state.block_pool = ["N9", "N10"]
    assert matching_blocks(state, None, 0b011) == [3]  # A matches too, but touches no presence
    apply(state, {"seat": "cryptid", "type": "declare", "colors": ["white", "red"]})
    assert state.presence == {"D"}
    assert state.trace == {"colors": ["red", "white"], "matching": ["A", "D"], "marked": ["D"]}
    assert state.result == {
        "winner": "scientist",
        "reason": "capture",
        "evidence": {"cryptid": 0, "scientist": 0},
    }


def test_cul_3_9_hiding_phase_example_a_count_of_five_matches_b_c_d_and_gains_b_evidence():
    state = _hiding_example()
    state.block_pool = ["N9", "N10"]
    assert matching_blocks(state, 5, 0) == [1, 2, 3]
    apply(state, {"seat": "cryptid", "type": "declare", "count": 5})
    # three markers: the 2 in supply and one taken from the active row; the active row's return
    assert state.presence == {"B", "C", "D"}
    assert state.trace == {"count": 5, "matching": ["B", "C", "D"], "marked": ["B", "C", "D"]}
    assert state.held == {"cryptid": 1, "scientist": 0} and state.evidence == set()
    assert state.wild["scientist"] is True  # CUL-3.8
    assert state.result is None and state.phase == "blockade"


def test_cul_3_9_a_block_without_sensors_never_matches_a_colour_set_but_matches_zero():
    state = table(
        active="cryptid",
        active_row=["N1"],
        inactive_row=["N2", "N3"],
        round_=1,
        phase="hiding",
        inactive_spaces=[{}, {}, {"red": 4, "white": 3, "black": 3}],
        presence=("N1",),
    )
    for mask in range(1, 8):
        assert matching_blocks(state, None, mask) == ([1] if mask == 7 else [])
    assert matching_blocks(state, 0, 0) == [0]
    assert matching_blocks(state, 10, 0) == [1]


def test_cul_3_9_only_the_cryptid_declares():
    state = _hiding_example()
    rejects(state, {"seat": "scientist", "type": "declare", "count": 5}, "CUL-3.9")
    rejects(state, {"seat": "cryptid", "type": "draw"}, "CUL-3.9")


@pytest.mark.parametrize(
    "trace",
    [
        {},
        {"count": 5, "colors": ["red"]},
        {"count": 11},
        {"count": -1},
        {"count": "5"},
        {"count": True},
        {"colors": []},
        {"colors": ["red", "red"]},
        {"colors": ["pink"]},
        {"colors": "red"},
        {"colors": [1]},
    ],
)
def test_cul_6_3_a_trace_is_a_count_or_a_set_of_distinct_colours(trace):
    rejects(_hiding_example(), {"seat": "cryptid", "type": "declare", **trace}, "CUL-6.3")


def test_cul_3_8_each_evidence_gain_turns_the_other_wild_card_up():
    state = _hiding_example()
    state.block_pool = ["N9", "N10"]
    state.wild = {"cryptid": False, "scientist": False}
    apply(state, {"seat": "cryptid", "type": "declare", "count": 5})
    assert state.wild == {"cryptid": False, "scientist": True}


# --------------------------------------------------------------------------- CUL-3.10 victory
def test_cul_3_10_escape_needs_seven_blocks_and_presence_on_both_ends():
    state = table(
        active="cryptid",
        active_row=["N1", "N2", "N3"],
        inactive_row=["N4", "N5", "N6", "N7"],
        inactive_spaces=[{"red": 2}, {"white": 1}, {"red": 2, "white": 2}, {"black": 3}, {}],
        presence=("N1", "N3"),
        phase="hiding",
    )
    state.block_pool = []  # a time-out too: escape is checked first
    apply(state, {"seat": "cryptid", "type": "declare", "count": 3})
    assert state.presence == {"N4", "N7"}
    assert state.result == {
        "winner": "cryptid",
        "reason": "escape",
        "evidence": {"cryptid": 0, "scientist": 0},
    }


def test_cul_3_10_no_escape_with_five_blocks():
    state = table(
        active="scientist",
        active_row=["N1", "N2"],
        inactive_row=["N3", "N4", "N5"],
        round_=2,
        inactive_spaces=[{"red": 2}, {"white": 3}, {"red": 2, "black": 1}, {"black": 2}],
        presence=("N1", "N2"),
        phase="hiding",
    )
    apply(state, {"seat": "cryptid", "type": "declare", "count": 5})
    assert state.presence == {"N3", "N5"} and state.result is None and state.phase == "expansion"


def test_cul_3_10_capture_before_time_out():
    state = _hiding_example()
    state.block_pool = []
    apply(state, {"seat": "cryptid", "type": "declare", "count": 9})
    assert state.presence == set() and state.result["reason"] == "capture"


def test_cul_3_10_time_out_counts_held_evidence_and_the_nearer_row():
    state = _hiding_example()  # active row = cryptid row; the inactive row is the scientist's
    state.block_pool = []
    state.evidence = {"B", "N1", "C"}  # B is taken by the hiding; C lies on the scientist's row
    state.held = {"cryptid": 0, "scientist": 1}
    apply(state, {"seat": "cryptid", "type": "declare", "count": 5})
    # cryptid: 2 gained (B and C) + N1 on its row = 3; scientist: 1 held
    assert state.result == {
        "winner": "cryptid",
        "reason": "timeout",
        "evidence": {"cryptid": 3, "scientist": 1},
    }
    assert state.phase == "over" and to_act(state) == []


def test_cul_6_5_result_evidence_after_escape_is_what_each_seat_holds():
    state = table(
        active="cryptid",
        active_row=["N1", "N2", "N3"],
        inactive_row=["N4", "M1", "N6", "N7"],
        inactive_spaces=[{"red": 2}, {"white": 1}, {"red": 2, "white": 2}, {"black": 3}, {}],
        presence=("N1", "N3"),
        evidence=("M1", "N2"),
        phase="hiding",
    )
    state.held = {"cryptid": 1, "scientist": 0}
    apply(state, {"seat": "cryptid", "type": "declare", "count": 3})
    assert state.result == {
        "winner": "cryptid",
        "reason": "escape",
        "evidence": {"cryptid": 1, "scientist": 0},
    }


# --------------------------------------------------------------------------- CUL-3.11 blockade
def _blockade_table(**kwargs):
    base = dict(
        active="cryptid",
        active_row=["M1", "N2", "N3"],
        inactive_row=["N4", "N5", "N6", "M2"],
        inactive_spaces=[
            {"red": 1, "black": 1},
            {"white": 1},
            {"red": 2, "white": 2},
            {"black": 2},
            {"red": 1},
        ],
        presence=("N5", "N6"),
        evidence=("M1", "M2"),
        phase="blockade",
    )
    base.update(kwargs)
    return table(**base)


def test_cul_3_11_blockade_is_skipped_below_seven_blocks():
    state = _at_first_expansion()
    assert state.phase == "expansion"  # round 1: 3 blocks, straight from hiding to expansion


def test_cul_3_11_blockade_removes_both_rows_ends_and_gives_evidence_to_the_scientist():
    state = _blockade_table()
    apply(state, {"seat": "scientist", "type": "blockade", "side": "left"})
    assert state.rows == {"cryptid": ["N2", "N3"], "scientist": ["N5", "N6", "M2"]}
    assert state.held == {"cryptid": 0, "scientist": 1} and state.wild["cryptid"] is True
    # the outer space (red 1, black 1) disappeared: the cryptid relocates those sensors
    assert (
        state.phase == "relocate" and state.displaced == [1, 0, 1] and to_act(state) == ["cryptid"]
    )
    assert state.sensors["scientist"] == spaces(
        {"white": 1}, {"red": 2, "white": 2}, {"black": 2}, {"red": 1}
    )
    assert len(state.sensors["cryptid"]) == 3


def test_cul_3_11_a_pair_with_a_presence_marker_cannot_be_removed():
    state = _blockade_table(presence=("N4", "N6"))
    assert legal_actions(state, "scientist") == [
        {"seat": "scientist", "type": "blockade", "side": "right"}
    ]
    rejects(state, {"seat": "scientist", "type": "blockade", "side": "left"}, "CUL-3.11")
    rejects(state, {"seat": "scientist", "type": "blockade", "side": "middle"}, "CUL-3.11")
    rejects(state, {"seat": "cryptid", "type": "blockade", "side": "right"}, "CUL-3.11")


def test_cul_6_4_relocate_places_exactly_the_displaced_sensors():
    state = _blockade_table()
    apply(state, {"seat": "scientist", "type": "blockade", "side": "left"})
    for bad in (
        {"0": {"red": 1}},
        {"0": {"red": 1, "black": 2}},
        {"4": {"red": 1, "black": 1}},
        {"x": {"red": 1, "black": 1}},
        {"0": {"red": 1, "black": 1}, "1": {"white": 1}},
        {"0": ["red", "black"]},
        {"0": {"pink": 1, "black": 1}},
    ):
        rejects(state.copy(), {"seat": "cryptid", "type": "relocate", "to": bad}, "CUL-6.4")
    rejects(
        state.copy(),
        {"seat": "scientist", "type": "relocate", "to": {"0": {"red": 1, "black": 1}}},
        "CUL-6.4",
    )
    apply(
        state, {"seat": "cryptid", "type": "relocate", "to": {"0": {"red": 1}, "3": {"black": 1}}}
    )
    assert state.sensors["scientist"] == spaces(
        {"red": 1, "white": 1}, {"red": 2, "white": 2}, {"black": 2}, {"red": 1, "black": 1}
    )
    assert state.phase == "expansion" and sensor_total(state) == [4, 3, 3]


def test_cul_6_4_no_relocate_when_the_outer_space_was_empty():
    state = _blockade_table(
        inactive_spaces=[
            {"red": 1, "black": 1},
            {"white": 1},
            {"red": 2, "white": 2},
            {"black": 2, "red": 1},
            {},
        ]
    )
    apply(state, {"seat": "scientist", "type": "blockade", "side": "right"})
    assert state.phase == "expansion" and state.displaced is None
    rejects(state, {"seat": "cryptid", "type": "relocate", "to": {}}, "CUL-3.12")


def test_cul_6_4_relocations_listed_cover_every_placement():
    state = _blockade_table()
    apply(state, {"seat": "scientist", "type": "blockade", "side": "left"})
    listed = legal_actions(state, "cryptid")
    assert len(listed) == 4 * 4  # one red and one black, each on one of 4 spaces
    for action in listed:
        apply(state.copy(), action)


# --------------------------------------------------------------------------- CUL-3.12 expansion
def test_cul_3_12_the_seat_nearer_the_active_row_expands():
    state = _at_first_expansion()
    rejects(state, {"seat": "scientist", "type": "expand", "left": "N9", "right": "N2"}, "CUL-3.12")
    apply(state, {"seat": "cryptid", "type": "expand", "left": "N9", "right": "N2"})
    assert state.rows["cryptid"] == ["N9", "N6", "N2"] and len(state.sensors["cryptid"]) == 4
    assert state.guaranteed == 2 and len(state.block_pool) == 12


def test_cul_3_12_a_mysterious_block_placed_gets_an_evidence_marker():
    state = _blockade_table(
        inactive_spaces=[
            {"red": 1, "black": 1},
            {"white": 1},
            {"red": 2, "white": 2},
            {"black": 2, "red": 1},
            {},
        ]
    )
    apply(state, {"seat": "scientist", "type": "blockade", "side": "right"})
    assert state.phase == "expansion"
    apply(state, {"seat": "cryptid", "type": "expand", "left": "N7", "right": "M3"})
    assert "M3" in state.evidence and "N7" not in state.evidence
    assert state.rows["cryptid"] == ["N7", "M1", "N2", "M3"]
    # a new round: the scientist's row holds the sensors and becomes active
    assert state.round == 4 and state.active == "scientist" and state.active_sensors == 10


def test_cul_3_12_with_a_seed_the_expander_chooses_which_block_goes_left():
    state = new_state(GAME.normalize_options({}), {"sensors_2r2w1b": "left"}, Rng(3))
    from engine.games.cryptid.rules import begin_expansion

    begin_expansion(state)
    a, b = state.pending_blocks
    assert legal_actions(state, "cryptid") == [
        {"seat": "cryptid", "type": "expand", "left": a, "right": b},
        {"seat": "cryptid", "type": "expand", "left": b, "right": a},
    ]
    swapped = state.copy()
    apply(swapped, {"seat": "cryptid", "type": "expand", "left": b, "right": a})
    assert swapped.rows["cryptid"][0] == b
    filled = apply(state, {"seat": "cryptid", "type": "expand"})
    assert (filled["left"], filled["right"]) == (a, b)


def test_cul_6_6_unknown_extra_fields_in_an_action_are_ignored():
    state = start()
    apply(
        state,
        {
            "seat": "cryptid",
            "type": "play",
            "card": "align",
            "color": "red",
            "dir": "left",
            "comment": "nice",
            "time": 12,
        },
    )
    assert state.sensors["scientist"] == spaces({"red": 2}, {"red": 2}, {})


def test_cul_2_4_chance_options_list_what_a_recorder_may_enter():
    state = _at_first_expansion()
    options = GAME.chance_options(state, {"seat": "cryptid", "type": "expand"})
    # round 1: two of the 9 normal blocks left, in either order; no mysterious block yet
    assert len(options) == 9 * 8
    assert all(a["left"] in NORMAL_BLOCKS and a["right"] in NORMAL_BLOCKS for a in options)
    for action in options[:5]:
        apply(_at_first_expansion(), action)
    draws = GAME.chance_options(start(), {"seat": "cryptid", "type": "draw"})
    # a hand of 3 draws one card: any kind the deck (3 split, 2 shuffle, 2 align left) holds
    assert [a["cards"] for a in draws] == [["align"], ["shuffle"], ["split"]]
    declare = {"seat": "cryptid", "type": "declare", "count": 3}
    assert GAME.chance_options(state, declare) == [declare]
