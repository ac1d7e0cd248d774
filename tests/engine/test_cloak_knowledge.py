"""CD-5: each seat's view and check sheet hold only what that seat observed or was told.

Three independent checks over whole bot games, at every ply and for every seat:

* the seat's view is a function of the actions as that seat saw them
  (``frames(seat)``): folding those redacted actions alone rebuilds it;
* everything the check sheet shows was really seen — contents only for an
  envelope the seat chose (or the winning one), exactly as they were then, and
  events only where the number was announced or told to the seat;
* counterfactual games: renumber the envelopes the seat never learnt the number
  of (other players' secret choices); the seat's views must not change at all,
  nor the greedy bot's decisions, while the all-seeing views do.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from engine import play, replay
from engine.ai.cloak.bots import greedy_bot
from engine.core.rng import Rng
from engine.games.cloak.knowledge import Knowledge, setup_observation
from engine.games.cloak.state import ENVELOPE_NUMBERS
from engine.games.cloak.views import seat_view
from tests.engine.cloak_helpers import WIN_ON_EXAMINE, cloak_log

OPTION_SETS = [
    {},
    {"document_copies": 3},
    {"double_agents": True},
    {"hazards": True},
    {"document_copies": 3, "double_agents": True, "hazards": True},
]


def bot_games(count: int) -> list[dict[str, Any]]:
    """Bot games over every player count, bot mix and option set, some cut short."""
    logs = []
    for seed in range(count):
        players = 2 + seed % 5
        mix = ["greedy", "random"][seed % 2 :] + ["greedy", "random"][: seed % 2]
        bots = [mix[i % 2] for i in range(players)]
        options = OPTION_SETS[seed % len(OPTION_SETS)]
        logs.append(play("cloak-and-dagger", seed, bots, options=options, max_actions=150))
    return logs


GAMES = bot_games(20)
GAME_IDS = [f"seed{log['seed']}-{len(log['seats'])}p" for log in GAMES]


def known_numbers(r, seat: str) -> set[int]:
    """Envelope numbers ``seat`` learnt during the game: its own choices, announced
    places, numbers told by a hazard obligation, the winning envelope."""
    i = r.seats.index(seat)
    known = set()
    for entry in r.final_state.history:
        action = entry.action
        if entry.actor == i or action["type"] == "place" or i in entry.told or entry.win:
            known.add(action["envelope"])
    return known


def renumbered(log: dict[str, Any], seat_known: set[int], seed: int) -> tuple[dict, dict]:
    """``log`` with the envelopes outside ``seat_known`` shuffled among themselves."""
    hidden = [n for n in ENVELOPE_NUMBERS if n not in seat_known]
    shuffled = list(hidden)
    Rng(seed).shuffle(shuffled)
    mapping = dict(zip(hidden, shuffled, strict=True))
    other = copy.deepcopy(log)
    for action in other["actions"]:
        action["envelope"] = mapping.get(action["envelope"], action["envelope"])
    return other, mapping


@pytest.mark.parametrize("log", GAMES, ids=GAME_IDS)
def test_cd_5_seat_view_is_a_function_of_what_the_seat_saw(log):
    r = replay(log)
    for seat in r.seats:
        known = Knowledge(setup_observation(r.options, r.seats, r.seats.index(seat)))
        for frame in r.frames(seat):
            if frame["action"] is not None:
                known.observe(frame["action"])
            assert seat_view(known) == frame["view"], (seat, frame["ply"])
            json.dumps(frame)  # JSON-ready


@pytest.mark.parametrize("log", GAMES, ids=GAME_IDS)
def test_cd_5_check_sheet_shows_only_what_was_seen_or_told(log):
    r = replay(log)
    # the true contents of every envelope after each turn
    after: list[list[list[str]]] = []
    for ply, _action, state in r.states():
        if ply:
            after.append([sorted(state.envelopes[n]) for n in range(21)])
    history = r.final_state.history
    for ply, _action, state in r.states():
        for i, seat in enumerate(r.seats):
            view = r.game.view(state, seat)
            assert view["hand"] == sorted(state.hands[i])
            for row in view["check_sheet"]:
                n, turn = row["envelope"], row["seen_turn"]
                if row["seen"] is None:
                    assert turn is None
                else:
                    entry = history[turn - 1]
                    assert turn <= ply and entry.action["envelope"] == n
                    assert entry.actor == i or entry.win is not None
                    assert row["seen"] == after[turn - 1][n]
                for event in row["since"]:
                    entry = history[event["turn"] - 1]
                    assert event["turn"] > (turn or 0) and entry.action["envelope"] == n
                    assert (
                        entry.action["type"] == "place" or i in entry.told or event.get("deduced")
                    )
                    assert (event["seat"], event["type"]) == (
                        entry.action["seat"],
                        entry.action["type"],
                    )


@pytest.mark.parametrize("log", GAMES, ids=GAME_IDS)
def test_cd_5_others_secrets_stay_out_of_action_views(log):
    r = replay(log)
    for seat in r.seats:
        i = r.seats.index(seat)
        for frame, entry in zip(list(r.frames(seat))[1:], r.final_state.history, strict=True):
            shown = frame["action"]
            if entry.actor == i:
                assert shown["saw"] == sorted(entry.saw)
                continue
            assert "saw" not in shown and "second" not in shown
            if "envelope" in shown:
                assert entry.action["type"] == "place" or i in entry.told or entry.win
            if entry.action["type"] == "place":
                assert "card" not in shown


def opening(log: dict[str, Any], turns: int = 30) -> dict[str, Any]:
    """The first ``turns`` turns of ``log`` (an unfinished log): fewer envelopes known."""
    return {**log, "actions": log["actions"][:turns], "result": None}


@pytest.mark.parametrize(
    "log",
    GAMES + [opening(log) for log in GAMES],
    ids=GAME_IDS + [f"{i}-opening" for i in GAME_IDS],
)
def test_cd_5_renumbering_what_a_seat_never_learnt_changes_nothing_it_sees(log):
    r = replay(log)
    for seat in r.seats:
        other_log, mapping = renumbered(log, known_numbers(r, seat), log["seed"])
        other = replay(other_log)
        assert other.status == r.status and other.result == r.result
        mine = [frame["view"] for frame in r.frames(seat)]
        theirs = [frame["view"] for frame in other.frames(seat)]
        assert mine == theirs
        # ... nor what the greedy bot would decide in its place: the envelope it
        # chooses, and what it does there when it finds the same cards inside
        for (ply, _a, state), (_p, _b, twin) in zip(r.states(), other.states(), strict=True):
            if r.game.to_act(state) == [seat]:
                decided = greedy_bot(r.game, state, seat, Rng(ply))
                twin_decided = greedy_bot(other.game, twin, seat, Rng(ply))
                n = decided["envelope"]
                assert twin_decided["envelope"] == n
                if state.envelopes[n] == twin.envelopes[n]:
                    assert decided == twin_decided


def test_cd_5_renumbering_is_visible_to_the_all_seeing_view():
    """The counterfactual games do differ: for most games, renumbering what some seat
    never learnt changes what the all-seeing view shows."""
    differing = 0
    for log in GAMES:
        r = replay(log)
        truth = [f["view"] for f in r.frames(None)]
        for seat in r.seats:
            other = replay(renumbered(log, known_numbers(r, seat), log["seed"])[0])
            if [f["view"] for f in other.frames(None)] != truth:
                differing += 1
                break
    assert differing >= len(GAMES) // 2


def test_cd_5_a_leak_would_be_caught():
    """Renumbering an envelope p2 *did* learn (p1's announced place) changes p2's view."""
    log = cloak_log(WIN_ON_EXAMINE)
    r = replay(log)
    leak, _ = renumbered(log, known_numbers(r, "p2") - {3}, seed=5)
    assert [f["view"] for f in replay(leak).frames("p2")] != [f["view"] for f in r.frames("p2")]


def test_cd_5_place_card_is_private_to_the_placer():
    r = replay(cloak_log(["p1 drop 1", "p2 drop 2", "p1 place 3 X"]))
    p1 = r.game.view(r.final_state, "p1")["check_sheet"][2]
    p2 = r.game.view(r.final_state, "p2")["check_sheet"][2]
    assert p1 == {"envelope": 3, "seen": ["X"], "seen_turn": 3, "since": []}
    assert p2 == {
        "envelope": 3,
        "seen": None,
        "seen_turn": None,
        "since": [{"seat": "p1", "type": "place", "turn": 3}],
    }
    assert list(r.frames("p2"))[-1]["notation"] == "p1 place 3 ?"


def test_cd_5_check_sheet_keeps_last_seen_contents_and_events_since():
    turns = WIN_ON_EXAMINE[:11]  # p2 saw 4 at turn 10 (Y e), p1 dropped d X there at 11
    r = replay(cloak_log(turns))
    p2 = r.game.view(r.final_state, "p2")
    assert p2["check_sheet"][3] == {"envelope": 4, "seen": ["Y", "e"], "seen_turn": 10, "since": []}
    assert p2["hand_sizes"] == {"p1": 0, "p2": 0}
    assert p2["spies_shown"] == [
        {"turn": 5, "seat": "p1", "spy": "d", "cards": 1},
        {"turn": 8, "seat": "p2", "spy": "e", "cards": 1},
        {"turn": 9, "seat": "p1", "spy": "d", "cards": 2},
    ]
    p1 = r.game.view(r.final_state, "p1")
    assert p1["check_sheet"][3] == {
        "envelope": 4,
        "seen": ["X", "Y", "d", "e"],
        "seen_turn": 11,
        "since": [],
    }
    assert p1["check_sheet"][2]["seen"] == [] and p1["check_sheet"][0]["seen"] == ["D"]
    assert p1["pile_size"] == 0 and p1["hand"] == []


def test_cd_5_all_seeing_view_shows_the_true_contents():
    r = replay(cloak_log(WIN_ON_EXAMINE[:15]))
    view = r.game.view(r.final_state, None)
    assert view["envelopes"][4] == {"envelope": 5, "contents": ["X", "Y", "Z", "d", "e"]}
    assert view["envelopes"][0] == {"envelope": 1, "contents": ["D"]}
    assert view["hands"] == {"p1": [], "p2": []} and view["pile"] == []
    assert (view["round"], view["turn"], view["phase"], view["to_act"]) == (8, 16, "turn", "p2")


def test_cd_5_a_spy_shown_is_placed_where_it_was_certainly_seen():
    """Each spy letter exists once and moves only when shown or taken as a hidden second
    card: p1 saw E e in envelope 2, so p2 showing E there is certainly a take from 2 —
    but after that take's hidden second card, e could be anywhere."""
    turns = [
        "p1 drop 1",
        "p2 drop 2",
        "p1 examine 2",
        "p2 take 2 E+e",
        "p1 examine 9",
        "p2 drop 7",
        "p1 examine 9",
        "p2 take 7 e",
    ]
    r = replay(cloak_log(turns))
    sheet = r.game.view(r.final_state, "p1")["check_sheet"]
    assert sheet[1] == {
        "envelope": 2,
        "seen": ["E", "e"],
        "seen_turn": 3,
        "since": [
            {"seat": "p2", "type": "take", "spy": "E", "cards": 2, "deduced": True, "turn": 4}
        ],
    }
    assert not any(row["since"] for row in sheet if row["envelope"] != 2)
    # without the hidden second card, the later show of e is placed too
    turns = [
        "p1 drop 1",
        "p2 drop 2",
        "p1 examine 2",
        "p2 take 2 E",
        "p1 examine 9",
        "p2 drop 7",
        "p1 examine 9",
        "p2 take 2 e",
    ]
    r = replay(cloak_log(turns))
    since = r.game.view(r.final_state, "p1")["check_sheet"][1]["since"]
    assert [(event["spy"], event["turn"]) for event in since] == [("E", 4), ("e", 8)]
