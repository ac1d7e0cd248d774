"""engine.Session: a game stepped one action at a time, each seat offered and told only
what it knows (picks it opens first, chance it never names), and the public viewer."""

from __future__ import annotations

import json

import pytest

from engine import PUBLIC, IllegalAction, Session, get_game, play, replay
from engine.games.cloak.state import ENVELOPES

CLOAK = get_game("cloak-and-dagger")


def cloak(seed: int = 5, pile: list[str] | None = None) -> Session:
    setup = {} if pile is None else {"pile": pile}
    return Session(
        CLOAK, CLOAK.normalize_options({}), ["p1", "p2"], setup, seed if pile is None else None
    )


def test_a_session_from_a_log_ends_where_the_replay_does():
    log = play("mister-x", 3, ["greedy", "greedy", "greedy"])
    session = replay(log).session_at_end()
    assert session.actions == replay(log).actions and session.result == log["result"]
    assert session.log()["actions"] == log["actions"]


def test_a_cloak_seat_picks_an_envelope_before_it_learns_what_it_may_do_there():
    session = cloak()
    session.step({"seat": "p1", "type": "drop", "envelope": 1}, "p1")
    session.step({"seat": "p2", "type": "drop", "envelope": 2}, "p2")
    picks = session.legal_actions("p1", "p1")
    assert picks == [{"seat": "p1", "type": "open", "envelope": n} for n in range(1, ENVELOPES + 1)]
    # The all-seeing recorder is offered everything at once.
    assert {a["type"] for a in session.legal_actions("p1")} >= {"examine", "place", "take"}
    with pytest.raises(IllegalAction) as refused:
        session.step({"seat": "p1", "type": "place", "envelope": 2}, "p1")
    assert refused.value.rule == "CD-3" and "2" not in refused.value.message
    assert session.step({"seat": "p1", "type": "open", "envelope": 2}, "p1") is None
    assert session.view("p1")["opened"] == {"p1": {"envelope": 2, "contents": ["E", "e"]}}
    assert "opened" not in session.view("p2") and "opened" not in session.view(PUBLIC)
    assert {a["envelope"] for a in session.legal_actions("p1", "p1")} == {2}
    for other in (
        {"seat": "p1", "type": "open", "envelope": 3},
        {"seat": "p1", "type": "examine", "envelope": 3},
    ):
        with pytest.raises(IllegalAction, match="its turn is played there"):
            session.step(other, "p1")
    # Inside the opened envelope the engine's own reasons are told: the seat sees it.
    with pytest.raises(IllegalAction, match="envelope 2 is not empty"):
        session.step({"seat": "p1", "type": "place", "envelope": 2}, "p1")
    assert session.step({"seat": "p1", "type": "examine", "envelope": 2}, "p1")
    assert session.opened == {}


def test_undo_keeps_a_seat_committed_to_the_envelope_it_looked_into():
    session = cloak()
    session.step({"seat": "p1", "type": "drop", "envelope": 1})
    session.step({"seat": "p2", "type": "drop", "envelope": 2})
    session.step({"seat": "p1", "type": "open", "envelope": 2}, "p1")
    session.step({"seat": "p1", "type": "examine", "envelope": 2}, "p1")
    session.undo()
    assert session.opened == {"p1": {"seat": "p1", "type": "open", "envelope": 2}}
    with pytest.raises(IllegalAction, match="its turn is played there"):
        session.step({"seat": "p1", "type": "examine", "envelope": 5}, "p1")


@pytest.mark.parametrize("card", ["X", "Y", "Z"])
def test_a_dealt_card_named_by_a_seat_is_refused_the_same_whatever_it_is(card):
    answers = set()
    for pile in (["X", "Y", "Z"], ["Z", "X", "Y"]):
        session = cloak(pile=pile)
        session.seed = 1  # dealt: the pile is the server's (Session.deals)
        session.step({"seat": "p1", "type": "drop", "envelope": 1})
        session.step({"seat": "p2", "type": "drop", "envelope": 2})
        session.step({"seat": "p1", "type": "open", "envelope": 3}, "p1")
        with pytest.raises(IllegalAction) as refused:
            session.step({"seat": "p1", "type": "place", "envelope": 3, "card": card}, "p1")
        answers.add((refused.value.rule, refused.value.message))
    assert len(answers) == 1 and next(iter(answers))[0] == "CD-2.2"


def test_the_public_sees_what_is_announced_and_nothing_of_any_hand():
    log = play("cloak-and-dagger", 8, ["greedy", "greedy", "greedy"])
    session = replay(log).session_at_end()
    seen = session.view(PUBLIC)
    assert seen["viewer"] == PUBLIC and seen["hand"] == []
    assert all(
        entry["seen"] is None or entry["seen_turn"] == len(log["actions"])
        for entry in seen["check_sheet"]
    )
    for shown in session.history(PUBLIC):
        assert "saw" not in shown and ("second" not in shown)
        if shown["type"] in ("drop", "examine"):
            assert "envelope" not in shown or "win" in shown


@pytest.mark.parametrize(
    "game_id,bots", [("mister-x", ["greedy"] * 3), ("cryptid-urban-legends", ["greedy"] * 2)]
)
def test_the_public_view_of_the_other_games_shows_no_hand_and_no_hidden_city(game_id, bots):
    log = play(game_id, 4, bots)
    session = replay(log).session_at_end()
    text = json.dumps(session.view(PUBLIC))
    assert '"bag"' not in text and '"cards"' not in text and '"tickets"' not in text
    if game_id == "mister-x":
        assert "path" not in session.view(PUBLIC)["mrx"]
