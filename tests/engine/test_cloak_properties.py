"""Cloak & Dagger properties over generated games, bots, the command line and notation.

Example counts follow the hypothesis profile (moderate by default);
``LANTERN_SLOW=1`` adds the many-games sweeps (marker ``slow``).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import ENGINE_ERROR, IllegalAction, get_game, play, replay
from engine.cli import main as cli_main
from engine.core.rng import Rng
from engine.games.cloak.notation import notation, parse
from engine.games.cloak.state import SPY_PAIRS, deck

GAME = get_game("cloak-and-dagger")
SLOW = os.environ.get("LANTERN_SLOW", "").lower() in {"1", "true", "yes"}
slow = pytest.mark.skipif(not SLOW, reason="set LANTERN_SLOW=1 for the many-games sweeps")

options_strategy = st.fixed_dictionaries(
    {
        "document_copies": st.sampled_from([1, 3]),
        "double_agents": st.booleans(),
        "hazards": st.booleans(),
    }
)

CANDIDATE_CARDS = [None, "D", "d", "E", "e", "F", "X", "Y", "Z", "a", "b", "K", "L"]


def candidate_action(data: Any, seat: str) -> dict[str, Any]:
    """Any action of roughly the right shape: legal or not."""
    kind = data.draw(st.sampled_from(["examine", "place", "take", "drop", "hazard"]))
    action: dict[str, Any] = {"seat": seat, "type": kind, "envelope": data.draw(st.integers(0, 21))}
    if kind == "take":
        action["spy"] = data.draw(st.sampled_from(CANDIDATE_CARDS[1:]))
        action["second"] = data.draw(st.sampled_from(CANDIDATE_CARDS))
    elif kind == "hazard":
        action["card"] = data.draw(st.sampled_from(CANDIDATE_CARDS[1:]))
    return action


def all_cards(state: Any) -> Counter:
    cards = Counter(state.pile) + Counter(state.pile_unknown or [])
    for cards_here in state.envelopes + state.hands:
        cards.update(cards_here)
    return cards


def log_of(
    options: dict[str, Any],
    players: int,
    seed: int | None,
    setup: dict[str, Any],
    actions: list[dict[str, Any]],
) -> dict[str, Any]:
    return {
        "format": "lantern-log/1",
        "game": "cloak-and-dagger",
        "options": options,
        "seats": [{"seat": f"p{i + 1}", "player": f"x{i}"} for i in range(players)],
        "seed": seed,
        "setup": setup,
        "actions": actions,
    }


@given(
    options=options_strategy, players=st.integers(2, 6), seed=st.integers(0, 2**32), data=st.data()
)
def test_apply_accepts_exactly_the_legal_actions(options, players, seed, data):
    seats = GAME.seat_ids(options, players)
    state = GAME.initial_state(options, seats, {}, Rng(seed))
    expected_cards = Counter(deck(options)) + Counter("".join(SPY_PAIRS[:players]))
    recorded = []
    for _ in range(data.draw(st.integers(0, 60))):
        if GAME.is_over(state):
            break
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_actions(state, seat)
        assert legal, "a seat to act always has a legal action (examine or drop)"
        candidate = candidate_action(data, seat)
        trial = GAME.clone(state)
        try:
            GAME.apply(trial, candidate)
            accepted = True
        except IllegalAction as exc:
            accepted = False
            assert exc.rule.startswith("CD-"), exc.rule
        assert accepted == (candidate in legal), candidate
        # someone not to act is always turned away
        other = seats[(seats.index(seat) + 1) % players]
        with pytest.raises(IllegalAction):
            GAME.apply(GAME.clone(state), {**legal[0], "seat": other})
        action = legal[data.draw(st.integers(0, len(legal) - 1))]
        for completed in GAME.chance_options(state, action):  # what a recorder would offer
            assert GAME.apply(GAME.clone(state), dict(completed)) == {**action, **completed}
        recorded.append(GAME.apply(state, dict(action)))
        assert all_cards(state) == expected_cards
        assert GAME.legal_actions(state, seat) == []
        assert GAME.to_act(state) == ([] if GAME.is_over(state) else [other])  # CD-1.3

    # the recorded log replays to the same state with the seed, without it (outcomes
    # written down), and with the seed alone (outcomes left out)
    truth = GAME.view(state, None)
    setup = GAME.setup_record(GAME.initial_state(options, seats, {}, Rng(seed)))
    stripped = [
        {k: v for k, v in a.items() if not (a["type"] == "place" and k == "card")} for a in recorded
    ]
    for log in (
        log_of(options, players, seed, setup, recorded),
        log_of(options, players, None, setup, recorded),
        log_of(options, players, seed, {}, stripped),
    ):
        r = replay(json.loads(json.dumps(log)))
        assert r.actions == recorded
        assert GAME.view(r.final_state, None) == truth
    for action in recorded:
        assert parse(notation(action)) == action


@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), options=options_strategy)
def test_bot_games_replay_and_every_frame_is_json(seed, players, options):
    bots = ["greedy", "random"] * 3
    log = play("cloak-and-dagger", seed, bots[:players], options=options, max_actions=120)
    r = replay(json.loads(json.dumps(log)))
    assert r.result == log["result"]
    assert r.status == ("finished" if log["result"] else "unfinished")
    for viewer in [None, *r.seats]:
        for frame in r.frames(viewer):
            json.dumps(frame)


def greedy_share(games_per_count: int, max_actions: int = 1000) -> dict[int, float]:
    share = {}
    for players in range(2, 7):
        won = sum(
            play("cloak-and-dagger", seed, ["greedy"] * players, max_actions=max_actions)["result"]
            is not None
            for seed in range(games_per_count)
        )
        share[players] = won / games_per_count
    return share


@pytest.mark.parametrize(
    "games, least", [(20, 0.9), pytest.param(300, 0.95, marks=[pytest.mark.slow, slow])]
)
def test_greedy_games_mostly_end_with_a_winner(games, least):
    share = greedy_share(games)
    print(f"greedy games with a winner ({games} per player count): {share}")
    assert all(value >= least for value in share.values()), share


@pytest.mark.slow
@slow
def test_many_mixed_bot_games_replay():
    for seed in range(1000):
        test_bot_games_replay_and_every_frame_is_json.hypothesis.inner_test(
            seed=seed,
            players=2 + seed % 5,
            options={
                "document_copies": [1, 3][seed % 2],
                "double_agents": seed % 3 == 0,
                "hazards": seed % 4 == 0,
            },
        )


def test_cd_4_3_the_move_cap_leaves_a_game_unfinished():
    log = play("cloak-and-dagger", 3, ["random"] * 4, max_actions=40)
    assert len(log["actions"]) == 40 and log["result"] is None
    assert replay(log).status == "unfinished"


def test_play_command_line(capsys):
    argv = [
        "play",
        "--game",
        "cloak-and-dagger",
        "--players",
        "4",
        "--seed",
        "11",
        "--bots",
        "greedy,random,random,random",
    ]
    assert cli_main(argv) == 0
    log = json.loads(capsys.readouterr().out)
    assert [s["seat"] for s in log["seats"]] == ["p1", "p2", "p3", "p4"]
    assert log["meta"]["bots"] == {"p1": "greedy", "p2": "random", "p3": "random", "p4": "random"}
    r = replay(log)
    assert r.result == log["result"] and r.status == "finished"
    # the same seed plays the same game
    assert cli_main(argv) == 0
    assert json.loads(capsys.readouterr().out) == log


def test_schema_covers_the_game():
    schema = GAME.json_schema()
    assert [a["properties"]["type"]["const"] for a in schema["actions"]] == [
        "examine",
        "place",
        "take",
        "drop",
        "hazard",
    ]
    jsonschema = pytest.importorskip("jsonschema")
    from engine import log_schema

    log = play("cloak-and-dagger", 5, ["greedy"] * 3, options={"hazards": True})
    jsonschema.validate(log, log_schema())


def test_render_text_shows_the_envelopes():
    log = play("cloak-and-dagger", 2, ["greedy"] * 2)
    text = GAME.render_text(replay(log).final_state)
    assert text.startswith("Cloak & Dagger, Player") and "has won" in text and "envelope" in text
    japanese = GAME.render_text(replay(log).final_state, "ja")
    assert "の勝利" in japanese and "封筒" in japanese and "envelope" not in japanese
    russian = GAME.render_text(replay(log).final_state, "ru")
    assert "победил: Игрок" in russian and "конверт" in russian and "envelope" not in russian


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 25),
    st.floats(allow_nan=False),
    st.sampled_from(["", "X", "d", "D", "a", "K", "p1", "take", "drop"]),
    st.lists(st.sampled_from(["X", "d"]), max_size=3),
    st.dictionaries(st.sampled_from(["x", "envelope"]), st.integers(0, 3), max_size=2),
)
FIELDS = ["seat", "type", "envelope", "spy", "second", "card"]


@given(seed=st.integers(0, 2**16), data=st.data())
def test_mutated_logs_are_accepted_or_rejected_with_a_rule(seed, data):
    """Bad input gets a clear rejection citing a rule, never an engine error, and never
    blames an action before the damage; a change that happens to be legal replays."""
    options = {"document_copies": 1, "double_agents": seed % 2 == 0, "hazards": seed % 3 == 0}
    log = play(
        "cloak-and-dagger", seed, ["greedy", "random", "greedy"], options=options, max_actions=80
    )
    actions = log["actions"]
    index = data.draw(st.integers(0, len(actions) - 1))
    how = data.draw(st.sampled_from(["set", "delete", "remove", "insert", "seedless"]))
    if how == "set":
        actions[index][data.draw(st.sampled_from(FIELDS))] = data.draw(JUNK)
    elif how == "delete":
        actions[index].pop(data.draw(st.sampled_from(FIELDS)), None)
    elif how == "remove":
        del actions[index]
    elif how == "insert":
        actions.insert(
            index,
            {
                "seat": data.draw(st.sampled_from(["p1", "p2", "p3"])),
                "type": data.draw(st.sampled_from(["examine", "drop", "place"])),
                "envelope": data.draw(st.integers(1, 20)),
            },
        )
    else:  # no seed, and the cards of one place forgotten
        log["seed"] = None
        if actions[index]["type"] == "place":
            del actions[index]["card"]
    try:
        replay(json.loads(json.dumps(log)))
    except IllegalAction as exc:
        assert exc.rule != ENGINE_ERROR, str(exc)
        assert exc.rule.startswith(("CD-", "LOG-")), str(exc)
        assert exc.index is None or exc.index >= index, str(exc)
