"""The game facts every game answers (engine.core.game: seating, sides, outcomes, rating).

The rest of Lantern asks these instead of naming games or seats: the ladder (rating
shape, team shares), tournaments (player counts, seats, sides), the recorder and the
demo (player counts), the upload (each seat's outcome), the replay page (renderer).
"""

from __future__ import annotations

import pytest

import engine
from engine import FREE_FOR_ALL, ONE_AGAINST_TEAM, TWO_SEATS
from engine.games.misterx import game as mx_game
from engine.games.misterx import state as mx_state
from engine.games.misterx.board import resolve_board

CRYPTID, MISTER_X, CLOAK = (
    engine.get_game(g) for g in ("cryptid-urban-legends", "mister-x", "cloak-and-dagger")
)


def test_cul_1_1_two_seats_each_its_own_side():
    assert CRYPTID.player_counts({}) == [2]
    assert CRYPTID.seat_ids({}, 2) == ["cryptid", "scientist"]
    assert [CRYPTID.side_of(s) for s in ("cryptid", "scientist")] == ["cryptid", "scientist"]
    assert not CRYPTID.may_hold_together(["cryptid", "scientist"])
    assert CRYPTID.outcomes({"winner": "scientist"}, ["cryptid", "scientist"]) == {
        "cryptid": "loss",
        "scientist": "win",
    }
    assert CRYPTID.rating == engine.RatingShape(TWO_SEATS, ("cryptid", "scientist"))


def test_mx_1_4_mister_x_against_a_team_of_detective_seats():
    options = MISTER_X.normalize_options({})
    assert MISTER_X.player_counts(options) == [2, 3, 4, 5, 6]
    assert MISTER_X.seat_ids(options, 4) == ["mrx", "det1", "det2", "det3"]
    assert {MISTER_X.side_of(s) for s in ("det1", "det2", "det5")} == {"detectives"}
    assert MISTER_X.side_of("mrx") == "mrx"
    # log-format: a detective player may hold several detective seats, never Mister X too.
    assert MISTER_X.may_hold_together(["det1", "det3"])
    assert not MISTER_X.may_hold_together(["mrx", "det1"])
    seats = ["mrx", "det1", "det2"]
    # What games.services.winning_seats did: the team wins as its seats.
    assert MISTER_X.outcomes({"winner": "detectives"}, seats) == {
        "mrx": "loss",
        "det1": "win",
        "det2": "win",
    }
    assert MISTER_X.outcomes({"winner": "mrx"}, seats) == {
        "mrx": "win",
        "det1": "loss",
        "det2": "loss",
    }
    assert MISTER_X.rating.kind == ONE_AGAINST_TEAM
    assert MISTER_X.rating.roles == ("mrx", "detectives")


def test_mx_6_10_team_shares_are_the_boards_pawns_dealt_as_the_engine_deals_them(monkeypatch):
    board = resolve_board(mx_state.DEFAULT_BOARD)
    assert MISTER_X.team_total({}) == len(board.pawns) == 5
    # The default shares are the engine's own (state.default_shares), not a number of its own:
    # a board with other pawns is dealt those.
    dealt: list[tuple] = []
    real = mx_state.default_shares

    def recording(pawns, seats):
        dealt.append((pawns, seats))
        return real(pawns, seats)

    monkeypatch.setattr(mx_game, "default_shares", recording)
    assert MISTER_X.team_shares({}, ["mrx", "det2", "det1"]) == {"det1": 3, "det2": 2}
    assert dealt == [(board.pawns, ["det1", "det2"])]
    # options.pawns wins over the default.
    assert MISTER_X.team_shares(
        {"pawns": {"det1": ["red"], "det2": ["blue", "green", "yellow", "black"]}},
        ["mrx", "det1", "det2"],
    ) == {"det1": 1, "det2": 4}


def test_cd_1_3_two_to_six_players_free_for_all():
    assert CLOAK.player_counts({}) == [2, 3, 4, 5, 6]
    assert CLOAK.seat_ids(CLOAK.normalize_options({}), 3) == ["p1", "p2", "p3"]
    assert not CLOAK.may_hold_together(["p1", "p2"])
    assert CLOAK.may_hold_together(["p1"])
    assert CLOAK.outcomes({"winner": "p2", "reason": "documents"}, ["p1", "p2", "p3"]) == {
        "p1": "loss",
        "p2": "win",
        "p3": "loss",
    }
    assert CLOAK.rating == engine.RatingShape(FREE_FOR_ALL)


@pytest.mark.parametrize("game", [CRYPTID, MISTER_X, CLOAK], ids=lambda g: g.id)
def test_every_count_the_game_offers_seats_that_many(game):
    options = game.normalize_options({})
    for count in game.player_counts(options):
        seats = game.seat_ids(options, count)
        assert len(seats) == count
        game.check_seats([{"seat": s, "player": f"p{i}"} for i, s in enumerate(seats)], options)
    assert game.renderer != "generic"  # each built-in game has its own board drawing


def test_log_seats_one_player_holds_only_seats_the_game_lets_them_hold_together():
    # log-format: "a player may hold several seats only where a game allows it".
    cryptid = engine.play(
        "cryptid-urban-legends", 1, ["greedy", "greedy"], players=["alice", "alice"]
    )
    with pytest.raises(engine.IllegalAction) as refused:
        engine.replay(cryptid)
    assert refused.value.rule == "LOG-SEATS"
    assert str(refused.value.message) == (
        "alice holds cryptid, scientist: in Cryptid: Urban Legends one player may not hold "
        "these seats together"
    )
    # Mister X: one detective player may control several detective seats, never Mister X too.
    both_detectives = engine.play("mister-x", 2, ["greedy"] * 3, players=["xavier", "dora", "dora"])
    assert engine.replay(both_detectives).status == "finished"
    with pytest.raises(engine.IllegalAction, match="xavier holds mrx, det2"):
        engine.replay(
            {
                **both_detectives,
                "seats": [
                    {"seat": "mrx", "player": "xavier"},
                    {"seat": "det1", "player": "dora"},
                    {"seat": "det2", "player": "xavier"},
                ],
            }
        )
