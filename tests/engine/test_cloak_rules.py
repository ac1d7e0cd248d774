"""Cloak & Dagger rules, one test (or a few) per rule id of cloak-and-dagger.md."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import replay
from engine.core.rng import Rng
from engine.games.cloak.state import deck
from tests.engine.cloak_helpers import (
    HAZARD_LETTERS,
    WIN_ON_EXAMINE,
    assert_rejected,
    cloak_log,
    contents,
    rejected,
)

START = ["p1 drop 1", "p2 drop 2"]  # 1: D d, 2: E e


def test_cd_4_1_example_log_validates_with_its_stated_result(example_log):
    log = example_log("cloak-documents.json")
    r = replay(log)
    assert r.status == "finished"
    assert r.result == log["result"] == {"winner": "p1", "reason": "documents"}
    assert len(r.actions) == 27
    # p1's last drop puts D, X and Y into envelope 1, where Z already lay (p2 dropped it there)
    assert r.actions[-1] == {"seat": "p1", "type": "drop", "envelope": 1}
    assert contents(r.final_state, 1) == "DXYZ"
    assert r.final_state.hands == [[], []]


# --- CD-1 components and seats ------------------------------------------------
@pytest.mark.parametrize("envelope", [0, 21, -3, "7", 7.0, True, None])
def test_cd_1_1_envelope_numbers_are_1_to_20(envelope):
    log = cloak_log([{"seat": "p1", "type": "drop", "envelope": envelope}])
    assert_rejected(log, "CD-1.1", 0)


def test_cd_1_1_envelope_20_exists():
    assert replay(cloak_log(["p1 drop 20"])).status == "unfinished"


@pytest.mark.parametrize("copies", [0, 2, 4, "3", True])
def test_cd_1_2_document_copies_are_1_or_3(copies):
    assert_rejected(cloak_log([], options={"document_copies": copies}), "CD-1.2", None)


def test_cd_1_2_unknown_option_is_rejected():
    assert_rejected(cloak_log([], options={"documents": 3}), "LOG-OPTIONS", None)


def test_cd_1_2_three_copies_make_a_pile_of_nine():
    assert deck({"document_copies": 3, "double_agents": False, "hazards": False}) == list(
        "XXXYYYZZZ"
    )
    log = cloak_log(
        START + ["p1 place 3 Y", "p2 place 4 Y"], pile="YYXZXZXYZ", options={"document_copies": 3}
    )
    assert replay(log).final_state.pile_size == 7


def test_cd_1_static_view_lists_the_components():
    game = replay(cloak_log(START)).game
    static = game.static_view(game.normalize_options({"double_agents": True}))
    assert static == {
        "envelopes": 20,
        "spies": {"p1": "Dd", "p2": "Ee", "p3": "Ff", "p4": "Gg", "p5": "Hh", "p6": "Jj"},
        "pile_cards": ["X", "Y", "Z", "a", "b", "c"],
    }


@pytest.mark.parametrize("players", [1, 7])
def test_cd_1_3_two_to_six_players(players):
    log = cloak_log([], players=2)
    log["seats"] = [{"seat": f"p{i + 1}", "player": f"x{i}"} for i in range(players)]
    assert_rejected(log, "CD-1.3", None)


def test_cd_1_3_seats_are_p1_to_pN_in_order():
    log = cloak_log([], players=3)
    log["seats"][0], log["seats"][1] = log["seats"][1], log["seats"][0]
    assert_rejected(log, "CD-1.3", None)


def test_cd_1_3_p1_starts_and_turns_go_clockwise():
    assert_rejected(cloak_log(["p2 drop 1"]), "CD-1.3", 0)
    assert_rejected(cloak_log(["p1 drop 1", "p2 drop 2", "p2 examine 3"]), "CD-1.3", 2)
    r = replay(cloak_log(["p1 drop 1", "p2 drop 2", "p3 drop 3", "p1 examine 3"], players=3))
    assert r.game.to_act(r.final_state) == ["p2"]


# --- CD-2 setup ------------------------------------------------------------------
def test_cd_2_1_each_player_starts_with_their_pair_and_drops_it_first():
    r = replay(cloak_log(["p1 drop 7", "p2 drop 7", "p3 drop 9"], players=3))
    state = r.final_state
    assert contents(state, 7) == "DEde"
    assert contents(state, 9) == "Ff"
    assert state.hands == [[], [], []]


@pytest.mark.parametrize("pile", ["XY", "XYZZ", "XYA", "XXY"])
def test_cd_2_2_pile_holds_exactly_the_documents(pile):
    assert_rejected(cloak_log([], pile=pile), "CD-2.2", None)


def test_cd_2_2_pile_must_be_a_list_of_letters():
    log = cloak_log([])
    log["setup"]["pile"] = ["X", "Y", 3]
    assert_rejected(log, "CD-2.2", None)


def test_cd_2_2_optional_cards_are_shuffled_in():
    options = {"double_agents": True, "hazards": True}
    assert sorted(deck({"document_copies": 1, **options})) == sorted("XYZabc" + HAZARD_LETTERS)
    assert_rejected(cloak_log([], options=options), "CD-2.2", None)  # pile XYZ lacks them


def test_cd_2_2_seed_shuffles_the_pile_once_at_setup():
    expected = ["X", "Y", "Z"]
    Rng(41).shuffle(expected)
    log = cloak_log(START + ["p1 place 3"], pile=None, seed=41)
    r = replay(log)
    assert r.actions[2]["card"] == expected[0]
    assert r.game.setup_record(r.initial_state()) == {"pile": expected}
    # the same pile written in the setup agrees; another order does not
    assert replay(cloak_log(START, pile="".join(expected), seed=41)).status == "unfinished"
    other = "".join(expected[1:] + expected[:1])
    assert_rejected(cloak_log(START, pile=other, seed=41), "CD-2.2", None)


def test_cd_2_2_golden_seeded_piles():
    """A stored seeded log must replay the same forever: these piles are written down
    once, not recomputed (the deck's canonical order and Rng.shuffle both count)."""
    full = {"document_copies": 3, "double_agents": True, "hazards": True}
    for seed, options, pile in [
        (0, {}, "ZXY"),
        (2026, {}, "XZY"),
        (0, full, "PXZcTXZRaVUNLMQYbYKWYXSZ"),
        (2026, full, "RYcPZKULZWTZbaMYQXNXYXVS"),
    ]:
        r = replay(cloak_log([], pile=None, seed=seed, options=options))
        assert r.game.setup_record(r.final_state) == {"pile": list(pile)}
    r = replay(
        cloak_log(
            START + ["p1 place 3", "p2 place 4", "p1 place 5"], pile=None, seed=2026, options=full
        )
    )
    assert [a["card"] for a in r.actions[2:]] == ["R", "Y", "c"]


# --- CD-3 turns -------------------------------------------------------------------
def test_cd_3_1_finish_a_transfer_puts_every_card_in_whatever_is_inside():
    r = replay(
        cloak_log(
            START + ["p1 place 3 X", "p2 take 2 e", "p1 take 1 D+d", "p2 drop 3", "p1 drop 3"]
        )
    )
    state = r.final_state
    assert contents(state, 3) == "DXde"
    assert contents(state, 1) == "" and contents(state, 2) == "E"
    assert state.hands == [[], []]


@pytest.mark.parametrize("turn", ["p1 examine 1", "p1 place 3 X", "p1 take 1 D"])
def test_cd_3_5_first_turn_must_be_a_drop(turn):
    error = assert_rejected(cloak_log([turn]), "CD-3.5", 0)
    assert "must finish the transfer" in error.message


@pytest.mark.parametrize(
    "turn",
    [
        "p1 examine 3",
        "p1 place 3 X",
        "p1 take 1 D",
        "p1 take 1 d",
        {"seat": "p1", "type": "hazard", "envelope": 1, "card": "K"},
    ],
)
def test_cd_3_5_holding_cards_only_a_drop_is_allowed(turn):
    assert_rejected(cloak_log(START + ["p1 take 1 d", "p2 examine 1", turn]), "CD-3.5", 4)


def test_cd_3_5_unknown_action_type():
    assert_rejected(cloak_log([{"seat": "p1", "type": "pass", "envelope": 1}]), "CD-3.5", 0)


def test_cd_7_1_drop_with_an_empty_hand_is_illegal():
    assert_rejected(cloak_log(START + ["p1 drop 3"]), "CD-7.1", 2)


def test_cd_3_2_place_draws_the_top_card_into_an_empty_envelope():
    r = replay(cloak_log(START + ["p1 place 3 X", "p2 place 4 Y"]))
    assert contents(r.final_state, 3) == "X" and contents(r.final_state, 4) == "Y"
    assert r.final_state.pile == ["Z"]


def test_cd_3_2_place_into_a_non_empty_envelope_is_rejected():
    assert_rejected(cloak_log(START + ["p1 place 2 X"]), "CD-3.2", 2)


def test_cd_3_2_place_must_draw_the_top_card():
    error = assert_rejected(cloak_log(START + ["p1 place 3 Y"]), "CD-3.2", 2)
    assert "top card of the pile is 'X'" in error.message


def test_cd_3_2_place_with_an_empty_pile_is_rejected():
    turns = START + ["p1 place 3 X", "p2 place 4 Y", "p1 place 5 Z", "p2 place 6"]
    assert_rejected(cloak_log(turns), "CD-3.2", 5)


def test_cd_3_2_without_a_seed_or_pile_each_place_names_an_undrawn_card():
    ok = replay(cloak_log(START + ["p1 place 3 Z", "p2 place 4 X"], pile=None))
    assert ok.final_state.pile_size == 1
    assert_rejected(cloak_log(START + ["p1 place 3"], pile=None), "CD-3.2", 2)
    assert_rejected(cloak_log(START + ["p1 place 3 Z", "p2 place 4 Z"], pile=None), "CD-3.2", 3)


def test_cd_3_2_place_with_a_seed_fills_in_the_card():
    r = replay(cloak_log(START + ["p1 place 3", "p2 place 4", "p1 place 5"], pile="ZXY"))
    assert [a.get("card") for a in r.actions[2:]] == ["Z", "X", "Y"]


def test_cd_3_2_chance_options_offer_the_cards_a_place_could_draw():
    game = replay(cloak_log(START)).game
    unknown = replay(cloak_log(START + ["p1 place 3 Y"], pile=None)).final_state
    place = {"seat": "p2", "type": "place", "envelope": 4}
    assert [a["card"] for a in game.chance_options(unknown, place)] == ["X", "Z"]
    assert game.chance_options(unknown, {**place, "envelope": 3}) == [{**place, "envelope": 3}]
    known = replay(cloak_log(START + ["p1 place 3 X"], pile="XZY")).final_state
    assert game.chance_options(known, place) == [{**place, "card": "Z"}]
    examine = {"seat": "p2", "type": "examine", "envelope": 4}
    assert game.chance_options(known, examine) == [examine]


def test_cd_3_3_take_own_spy_and_one_more_card():
    r = replay(
        cloak_log(
            START
            + [
                "p1 place 3 X",
                "p2 examine 1",
                "p1 take 1 d",
                "p2 examine 1",
                "p1 drop 3",
                "p2 examine 1",
                "p1 take 3 d+X",
            ]
        )
    )
    state = r.final_state
    assert state.hands[0] == ["d", "X"] and contents(state, 3) == ""
    assert r.actions[-1] == {"seat": "p1", "type": "take", "envelope": 3, "spy": "d", "second": "X"}


def test_cd_3_3_take_both_own_spies():
    r = replay(cloak_log(START + ["p1 take 1 D+d"]))
    assert r.final_state.hands[0] == ["D", "d"] and contents(r.final_state, 1) == ""


def test_cd_3_3_three_cards_are_never_taken():
    three = {"seat": "p1", "type": "take", "envelope": 3, "spy": "d", "second": ["X", "E"]}
    turns = START + [
        "p1 place 3 X",
        "p2 take 2 E",
        "p1 take 1 d",
        "p2 drop 3",
        "p1 drop 3",
        "p2 examine 9",
        three,
    ]
    error = assert_rejected(cloak_log(turns), "CD-3.3", 8)
    assert "never more than 2 cards" in error.message


def test_cd_3_3_transfer_only_from_an_envelope_with_ones_own_spy():
    assert_rejected(cloak_log(START + ["p1 take 2 E"]), "CD-3.3", 2)  # an enemy spy
    assert_rejected(cloak_log(START + ["p1 take 2 D"]), "CD-3.3", 2)  # own spy, not in there
    assert_rejected(cloak_log(START + ["p1 take 3 D"]), "CD-3.3", 2)  # empty envelope
    assert_rejected(cloak_log(START + ["p1 take 1 X"]), "CD-3.3", 2)  # a document is no spy
    assert_rejected(cloak_log(START + [{"seat": "p1", "type": "take", "envelope": 1}]), "CD-3.3", 2)


def test_cd_3_3_second_card_must_be_in_the_envelope():
    assert_rejected(cloak_log(START + ["p1 take 1 D+X"]), "CD-3.3", 2)
    assert_rejected(cloak_log(START + ["p1 take 1 D+D"]), "CD-3.3", 2)


def test_cd_3_3_a_capture_carries_the_enemy_spy_along():
    turns = START + [
        "p1 take 1 d",
        "p2 examine 5",
        "p1 drop 2",
        "p2 examine 5",
        "p1 take 2 d+e",
        "p2 examine 5",
        "p1 drop 9",
    ]
    r = replay(cloak_log(turns))
    state = r.final_state
    assert contents(state, 2) == "E" and contents(state, 9) == "de"
    # e travelled with d: p2 can no longer take it from envelope 2, but from 9
    assert_rejected(cloak_log(turns + ["p2 take 2 e"]), "CD-3.3", 9)
    after = replay(cloak_log(turns + ["p2 take 9 e+d"]))
    assert after.final_state.hands[1] == ["e", "d"]


def test_cd_3_3_others_see_the_spy_and_hand_size_not_the_envelope_or_second_card():
    r = replay(
        cloak_log(
            START
            + [
                "p1 place 3 X",
                "p2 examine 1",
                "p1 take 1 d",
                "p2 examine 1",
                "p1 drop 3",
                "p2 examine 1",
                "p1 take 3 d+X",
            ]
        )
    )
    frames = list(r.frames("p2"))
    assert frames[-1]["action"] == {"seat": "p1", "type": "take", "spy": "d", "cards": 2, "turn": 9}
    assert frames[-1]["notation"] == "p1 take ? d+?"
    own = list(r.frames("p1"))[-1]["action"]
    assert own["envelope"] == 3 and own["second"] == "X" and own["saw"] == ["X", "d"]


def test_cd_3_4_examine_changes_nothing():
    r = replay(cloak_log(START + ["p1 examine 2"]))
    assert contents(r.final_state, 2) == "Ee" and r.final_state.hands == [[], []]


# --- CD-4 winning -------------------------------------------------------------------
def test_cd_4_1_win_with_documents_and_own_spy_on_examine():
    r = replay(cloak_log(WIN_ON_EXAMINE, result={"winner": "p1", "reason": "documents"}))
    assert r.status == "finished" and r.result == {"winner": "p1", "reason": "documents"}
    assert contents(r.final_state, 5) == "XYZd"


def test_cd_4_1_enemy_spy_present_is_no_win():
    r = replay(cloak_log(WIN_ON_EXAMINE[:15]))
    assert contents(r.final_state, 5) == "XYZde"
    assert r.status == "unfinished" and r.result is None


def test_cd_4_1_claimed_win_with_an_enemy_spy_present_is_rejected():
    error = assert_rejected(
        cloak_log(WIN_ON_EXAMINE[:15], result={"winner": "p1", "reason": "documents"}),
        "CD-7.4",
        None,
    )
    assert error.partial is not None and len(error.partial.actions) == 15


def test_cd_4_1_no_win_while_holding_cards():
    # p1 takes e's capture out with d, leaving X Y Z D ... but holds cards: no win
    turns = [
        "p1 drop 1",
        "p2 drop 2",
        "p1 place 3 X",
        "p2 place 4 Y",
        "p1 take 1 D",
        "p2 place 5 Z",
        "p1 drop 3",
        "p2 take 2 e",
        "p1 take 3 D+X",
        "p2 drop 4",
        "p1 drop 4",
        "p2 take 4 e+Y",
        "p1 take 4 D+X",
        "p2 drop 5",
        "p1 drop 5",
        "p2 examine 9",
        "p1 take 5 D+e",
    ]
    r = replay(cloak_log(turns))
    assert contents(r.final_state, 5) == "XYZ" and r.status == "unfinished"
    r = replay(cloak_log([*turns, "p2 examine 9", "p1 drop 5"]))
    assert r.status == "unfinished"  # D came back with e
    r = replay(cloak_log([*turns, "p2 examine 9", "p1 drop 8", "p2 examine 9", "p1 examine 5"]))
    assert r.status == "unfinished"  # no own spy in 5 any more
    assert contents(r.final_state, 8) == "De"


def test_cd_4_1_the_other_player_cannot_win_with_an_enemy_spy():
    turns = WIN_ON_EXAMINE[:15] + ["p2 take 5 e+d", "p1 examine 9", "p2 drop 9"]
    r = replay(cloak_log(turns))
    assert contents(r.final_state, 5) == "XYZ" and r.status == "unfinished"


def test_cd_4_1_wrong_winner_is_rejected():
    assert_rejected(
        cloak_log(WIN_ON_EXAMINE, result={"winner": "p2", "reason": "documents"}), "CD-7.4", None
    )


def test_cd_4_3_a_log_that_stops_early_is_unfinished():
    r = replay(cloak_log(WIN_ON_EXAMINE[:-1]))
    assert r.status == "unfinished" and r.result is None and not r.finished


# --- CD-6 optional rules -----------------------------------------------------------
AGENTS = {"double_agents": True}
AGENT_TURNS = START + [
    "p1 place 3 a",
    "p2 place 4 X",
    "p1 take 3 a",
    "p2 place 5 Y",
    "p1 drop 4",
    "p2 take 4 a+X",
    "p1 place 6 Z",
    "p2 drop 5",
    "p1 examine 6",
    "p2 take 5 a",
    "p1 examine 6",
    "p2 drop 6",
    "p1 take 6 a+Z",
    "p2 examine 1",
    "p1 drop 5",
]


def test_cd_6_1_double_agent_without_the_option_is_rejected():
    assert_rejected(cloak_log(START + ["p1 take 3 a"]), "CD-6.1", 2)


def test_cd_6_1_any_player_moves_a_double_agent():
    r = replay(cloak_log(AGENT_TURNS[:8], pile="aXYZbc", options=AGENTS))
    assert r.final_state.hands[1] == ["a", "X"]


def test_cd_6_1_a_double_agent_alone_does_not_win():
    r = replay(cloak_log(AGENT_TURNS, pile="aXYZbc", options=AGENTS))
    assert contents(r.final_state, 5) == "XYZa" and r.status == "unfinished"


def test_cd_4_2_double_agents_do_not_prevent_a_win():
    turns = AGENT_TURNS + ["p2 examine 1", "p1 take 1 d", "p2 examine 1", "p1 drop 5"]
    r = replay(cloak_log(turns, pile="aXYZbc", options=AGENTS))
    assert r.result == {"winner": "p1", "reason": "documents"}
    assert contents(r.final_state, 5) == "XYZad"


HAZARD_OPTIONS = {"hazards": True}
HAZARD_PILE = "K" + "XYZ" + HAZARD_LETTERS[1:]
# p1 places K, p2 starts a transfer (holds a card), p3 is empty-handed, p1 reveals K
HAZARD_TURNS = [
    "p1 drop 1",
    "p2 drop 2",
    "p3 drop 3",
    "p1 place 4 K",
    "p2 take 2 E",
    "p3 examine 7",
    "p1 hazard 4 K",
    "p2 drop 9",
    "p3 examine 12",
]


def hazard_game(turns=HAZARD_TURNS):
    return replay(cloak_log(turns, players=3, pile=HAZARD_PILE, options=HAZARD_OPTIONS))


def test_cd_6_2_hazard_without_the_option_is_rejected():
    assert_rejected(
        cloak_log(START + [{"seat": "p1", "type": "hazard", "envelope": 1, "card": "K"}]),
        "CD-6.2",
        2,
    )


@pytest.mark.parametrize("card", ["L", "X", "a", None, ["K"]])
def test_cd_6_2_hazard_must_be_a_hazard_card_in_the_envelope(card):
    turns = HAZARD_TURNS[:6] + [{"seat": "p1", "type": "hazard", "envelope": 4, "card": card}]
    assert_rejected(
        cloak_log(turns, players=3, pile=HAZARD_PILE, options=HAZARD_OPTIONS), "CD-6.2", 6
    )


def test_cd_6_2_hazard_goes_to_the_bottom_of_the_pile():
    state = hazard_game(HAZARD_TURNS[:7]).final_state
    assert contents(state, 4) == ""
    assert state.pile == list("XYZ" + HAZARD_LETTERS[1:] + "K")


def test_cd_6_2_empty_handed_players_tell_the_owner_their_next_envelope():
    r = hazard_game()
    p1_sees = [f["action"] for f in r.frames("p1")][1:]
    p2_sees = [f["action"] for f in r.frames("p2")][1:]
    # p3 held no cards at the reveal: its next envelope (12) is told to p1, not to p2
    assert p1_sees[8] == {"seat": "p3", "type": "examine", "envelope": 12, "told": True, "turn": 9}
    assert p2_sees[8] == {"seat": "p3", "type": "examine", "turn": 9}
    # p2 held a card at the reveal: no obligation, its drop stays secret
    assert p1_sees[7] == {"seat": "p2", "type": "drop", "cards": 1, "turn": 8}
    sheet = r.game.view(r.final_state, "p1")["check_sheet"]
    assert sheet[11]["since"] == [{"seat": "p3", "type": "examine", "told": True, "turn": 9}]


def test_cd_6_2_the_obligation_is_public_and_ends_with_the_next_turn():
    before = hazard_game(HAZARD_TURNS[:7])
    for viewer in (None, "p1", "p2", "p3"):
        assert before.game.view(before.final_state, viewer)["must_tell"] == {"p3": ["p1"]}
    after = hazard_game()
    assert after.game.view(after.final_state, None)["must_tell"] == {}
    assert after.game.view(after.final_state, "p2")["must_tell"] == {}


def test_cd_7_3_a_revealed_hazard_does_not_announce_the_envelope():
    r = hazard_game(HAZARD_TURNS[:7])
    shown = list(r.frames("p3"))[-1]["action"]
    assert shown == {"seat": "p1", "type": "hazard", "card": "K", "turn": 7}
    assert r.game.view(r.final_state, "p3")["hazards"] == [{"turn": 7, "seat": "p1", "card": "K"}]


def test_cd_6_2_hazard_with_cards_in_hand_is_rejected():
    turns = HAZARD_TURNS[:4] + [
        "p2 take 2 E",
        "p3 examine 4",
        "p1 examine 4",
        {"seat": "p2", "type": "hazard", "envelope": 4, "card": "K"},
    ]
    assert_rejected(
        cloak_log(turns, players=3, pile=HAZARD_PILE, options=HAZARD_OPTIONS), "CD-3.5", 7
    )


def test_cd_6_2_a_hazard_turn_can_win():
    # p2 brings K and Z next to p1's d X Y in envelope 4, then takes its spy e out;
    # p1 reveals K there, and the turn ends with a win (CD-7.2)
    turns = [
        "p1 drop 1",
        "p2 drop 2",
        "p1 place 3 X",
        "p2 place 4 Y",
        "p1 place 5 Z",
        "p2 place 6 K",
        "p1 take 1 d",
        "p2 take 2 e",
        "p1 drop 3",
        "p2 drop 6",
        "p1 take 3 d+X",
        "p2 take 6 e+K",
        "p1 drop 4",
        "p2 drop 4",
        "p1 examine 9",
        "p2 take 4 e",
        "p1 examine 9",
        "p2 drop 5",
        "p1 examine 9",
        "p2 take 5 e+Z",
        "p1 examine 9",
        "p2 drop 4",
        "p1 examine 9",
        "p2 take 4 e",
    ]
    pile = "XYZK" + HAZARD_LETTERS[1:]
    r = replay(cloak_log(turns, pile=pile, options=HAZARD_OPTIONS))
    assert r.status == "unfinished" and contents(r.final_state, 4) == "KXYZd"
    r = replay(cloak_log([*turns, "p1 hazard 4 K"], pile=pile, options=HAZARD_OPTIONS))
    assert r.result == {"winner": "p1", "reason": "documents"}
    assert contents(r.final_state, 4) == "XYZd" and r.final_state.pile[-1] == "K"


def test_cd_6_2_unknown_pile_keeps_a_returned_hazard_at_the_bottom():
    turns = ["p1 drop 1", "p2 drop 2", "p1 place 3 K", "p2 examine 9", "p1 hazard 3 K"]
    r = replay(cloak_log(turns, pile=None, options=HAZARD_OPTIONS))
    state = r.final_state
    assert state.pile == ["K"] and len(state.pile_unknown) == 14 and state.pile_size == 15


# --- CD-7 precise readings ------------------------------------------------------------
def test_cd_7_2_nothing_may_follow_a_win():
    assert_rejected(cloak_log(WIN_ON_EXAMINE + ["p2 examine 1"]), "CD-7.2", 17)


def test_cd_7_2_every_seat_learns_the_winning_envelope():
    r = replay(cloak_log(WIN_ON_EXAMINE))
    for viewer in ("p1", "p2", None):
        view = r.game.view(r.final_state, viewer)
        assert view["winner"] == "p1" and view["phase"] == "over" and view["to_act"] is None
        assert view["win"] == {
            "turn": 17,
            "seat": "p1",
            "envelope": 5,
            "contents": ["X", "Y", "Z", "d"],
        }
    last = list(r.frames("p2"))[-1]
    assert last["notation"] == "p1 examine 5 wins"
    sheet = r.game.view(r.final_state, "p2")["check_sheet"]
    assert sheet[4] == {"envelope": 5, "seen": ["X", "Y", "Z", "d"], "seen_turn": 17, "since": []}


def test_cd_7_4_unknown_extra_fields_are_ignored():
    log = cloak_log(START)
    log["actions"][0]["comment"] = "nervous"
    r = replay(log)
    assert r.actions[0] == {"seat": "p1", "type": "drop", "envelope": 1}


def test_cd_7_4_result_on_an_unfinished_game_is_rejected():
    assert_rejected(
        cloak_log(START, result={"winner": "p1", "reason": "documents"}), "CD-7.4", None
    )


def test_rejection_names_the_action():
    error = rejected(cloak_log(START + ["p1 place 2 X"]))
    assert str(error).startswith(
        "action 2 (Player 1 (spies D/d): place from the pile): CD-3.2: envelope 2 is not empty"
    )
    error = rejected(cloak_log(START + ["p1 take 2 e"]))
    assert str(error).startswith(
        "action 2 (Player 1 (spies D/d): take with a spy): CD-3.3: p1 can start a transfer only"
    )


def test_golden_log_with_every_option_replays_the_same():
    """A stored seeded game (3 document copies, double agents, hazards): it must keep
    validating with its result, with the seed alone, and without the seed."""
    log = json.loads((Path(__file__).parent / "data" / "cloak-all-options.json").read_text())
    r = replay(log)
    assert r.result == log["result"] == {"winner": "p2", "reason": "documents"}
    assert len(r.actions) == 86 and r.actions == log["actions"]
    view = r.game.view(r.final_state, None)
    assert view["win"] == {
        "turn": 86,
        "seat": "p2",
        "envelope": 9,
        "contents": ["E", "X", "Y", "Z", "e"],
    }
    assert sum(1 for entry in r.final_state.history if entry.told) == 12
    seed_only = {
        **log,
        "setup": {},
        "actions": [
            {k: v for k, v in a.items() if not (a["type"] == "place" and k == "card")}
            for a in log["actions"]
        ],
    }
    no_seed = {**log, "seed": None}
    for other in (seed_only, no_seed):
        assert replay(other).actions == r.actions
