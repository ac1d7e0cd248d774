"""The rating kernel against numbers computed by hand (``docs/rules/ratings.md``).

Each expected value is worked out in the comment above its assertion; the
assertions compare to 1e-9 because the kernel works in floats (EL-1.3).
"""

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ladder.kernel import (
    Change,
    LadderOptions,
    LadderState,
    OptionsError,
    RatingKernel,
    SeatPlayer,
    estimated_advantage,
    expected_score,
    rate_seats,
)

TOL = 1e-9


def kernel(ratings=None, games=None, tallies=None, **options) -> RatingKernel:
    return RatingKernel(
        LadderOptions(**options),
        LadderState(
            ratings={p: float(r) for p, r in (ratings or {}).items()},
            games=dict(games or {}),
            role_tallies={role: list(t) for role, t in (tallies or {}).items()},
        ),
    )


def by_player(changes: list[Change]) -> dict:
    return {c.player: c for c in changes}


def assert_sum_redoes(change: Change) -> None:
    """EL-7.1: the record alone redoes the sum, to the last digit."""
    assert change.after == change.before + change.k * change.weight * (
        change.score - change.expected
    )


# --- EL-1.1 options ----------------------------------------------------------------


def test_el_1_1_defaults():
    options = LadderOptions.from_json({})
    assert (options.initial, options.k, options.provisional_k, options.provisional_games) == (
        1500.0,
        32.0,
        64.0,
        10,
    )
    assert options.role_advantage == "estimated"


@pytest.mark.parametrize(
    "bad, words",
    [
        ({"k": "32"}, "k must be a number"),
        ({"k": 0}, "k must be positive"),
        ({"provisional_games": 2.5}, "provisional_games must be a whole number"),
        ({"role_advantage": "guessed"}, "role_advantage must be"),
        ({"role_advantage": {"p1": 10}}, "no role advantage applies to role 'p1'"),
        ({"role_advantage": {"cryptid": 35, "scientist": 35}}, "disagree"),
        ({"speed": 3}, "unknown ladder option(s): speed"),
    ],
)
def test_el_1_1_bad_options_are_named(bad, words):
    with pytest.raises(OptionsError) as error:
        LadderOptions.from_json(bad)
    assert words in str(error.value)


def test_el_1_1_options_round_trip_through_json():
    options = LadderOptions.from_json({"k": 24, "role_advantage": {"mrx": -40}})
    assert LadderOptions.from_json(options.to_json()) == options


# --- EL-1.4 provisional K ----------------------------------------------------------


def test_el_1_4_provisional_k_before_the_tenth_game():
    # A has played 9 rated matches (fewer than 10: K = 64), B exactly 10 (K = 32).
    # Equal ratings, no role advantage: E = 1 / (1 + 10^0) = 0.5 for both.
    # A wins: dA = 64 * (1 - 0.5) = +32 -> 1532;  dB = 32 * (0 - 0.5) = -16 -> 1484.
    k = kernel({"A": 1500, "B": 1500}, {"A": 9, "B": 10}, role_advantage="none")
    assert k.is_provisional("A") and not k.is_provisional("B")
    a, b = k.rate_two_seats("A", "cryptid", "B", "scientist", a_won=True)
    assert (a.k, a.expected, a.after) == (64.0, 0.5, 1532.0)
    assert (b.k, b.expected, b.after) == (32.0, 0.5, 1484.0)
    # A now has 10 rated matches: no longer provisional, K 32 from here on.
    assert not k.is_provisional("A")
    assert k.state.games == {"A": 10, "B": 11}


def test_el_1_4_a_new_player_starts_at_initial_with_provisional_k():
    # Nobody has played: both 1500, K 64. E = 0.5. B wins:
    # dA = 64 * (0 - 0.5) = -32 -> 1468; dB = 64 * (1 - 0.5) = +32 -> 1532.
    k = kernel(role_advantage="none")
    a, b = k.rate_two_seats("A", "cryptid", "B", "scientist", a_won=False)
    assert (a.before, a.k, a.after) == (1500.0, 64.0, 1468.0)
    assert (b.before, b.k, b.after) == (1500.0, 64.0, 1532.0)


def test_el_1_4_k_drops_after_provisional_games_in_a_stream():
    # provisional_games 3: matches 1..3 of a player use K 64, the 4th uses K 32.
    k = kernel(role_advantage="none", provisional_games=3)
    used = [
        k.rate_two_seats("A", "cryptid", "B", "scientist", a_won=i % 2 == 0)[0].k for i in range(5)
    ]
    assert used == [64.0, 64.0, 64.0, 32.0, 32.0]


def test_el_1_3_simultaneous_update_uses_ratings_before_the_match():
    # Both sides see the other's rating from before the match: A 1700, B 1300.
    # E_A = 1 / (1 + 10^((1300 - 1700) / 400)) = 1 / (1 + 10^-1) = 1 / 1.1 = 10/11.
    # A wins, K 32: dA = 32 * (1 - 10/11) = 32/11 = 2.909090...; B's opponent rating is
    # 1700 (not 1702.9...): E_B = 1/11, dB = 32 * (0 - 1/11) = -2.909090...
    k = kernel({"A": 1700, "B": 1300}, {"A": 10, "B": 10}, role_advantage="none")
    a, b = k.rate_two_seats("A", "cryptid", "B", "scientist", a_won=True)
    assert a.after == pytest.approx(1700 + 32 / 11, abs=TOL)
    assert b.after == pytest.approx(1300 - 32 / 11, abs=TOL)
    assert b.opponent_rating == 1700.0 and a.opponent_rating == 1300.0


# --- EL-2 / EL-3 role advantage (two seats) ---------------------------------------


def test_el_2_1_expected_score():
    # 400 points apart: 1 / (1 + 10^-1) = 10/11; 800 apart: 1 / (1 + 10^-2) = 100/101.
    assert expected_score(1900, 1500) == pytest.approx(10 / 11, abs=TOL)
    assert expected_score(1500, 2300) == pytest.approx(1 / 101, abs=TOL)
    # an advantage of 400 makes equal ratings 400 apart.
    assert expected_score(1500, 1500, 400) == pytest.approx(10 / 11, abs=TOL)


def test_el_3_1_none_gives_no_advantage_even_with_history():
    k = kernel(tallies={"cryptid": [9, 10]}, role_advantage="none")
    a, b = k.rate_two_seats("A", "cryptid", "B", "scientist", a_won=True)
    assert a.advantage == 0.0 and a.expected == 0.5


@pytest.mark.parametrize("fixed", [{"cryptid": 35}, {"scientist": -35}])
def test_el_3_2_fixed_advantage_balances_a_35_point_gap(fixed):
    # Cryptid 1500 with +35, scientist 1535 (-35):
    # E_cryptid = 1 / (1 + 10^((1535 - 1500 - 35) / 400)) = 1 / (1 + 10^0) = 0.5.
    # Cryptid wins, K 32 both: +16 -> 1516; scientist 32 * (0 - 0.5) = -16 -> 1519.
    k = kernel({"A": 1500, "B": 1535}, {"A": 10, "B": 10}, role_advantage=fixed)
    a, b = k.rate_two_seats("A", "cryptid", "B", "scientist", a_won=True)
    assert (a.advantage, b.advantage) == (35.0, -35.0)
    assert (a.expected, b.expected) == (0.5, 0.5)
    assert (a.after, b.after) == (1516.0, 1519.0)


def test_el_3_2_fixed_advantage_at_equal_ratings():
    # Both 1500, cryptid +35: E_cryptid = 1 / (1 + 10^(-35/400)) = 1 / (1 + 10^-0.0875)
    #   10^-0.0875 = 0.817523038 -> E = 1 / 1.817523038 = 0.550199353.
    # Winning with the weaker role is worth more: the scientist wins,
    #   E_sci = 1 / (1 + 10^(+0.0875)) = 1 / (1 + 1.223206) = 0.449800647,
    #   dSci = 32 * (1 - 0.449800647) = 32 * 0.550199353 = +17.606379;
    #   dCry = 32 * (0 - 0.550199353) = -17.606379.
    # (A cryptid win would give only 32 * (1 - 0.550199353) = +14.393621.)
    k = kernel({"A": 1500, "B": 1500}, {"A": 10, "B": 10}, role_advantage={"cryptid": 35})
    a, b = k.rate_two_seats("A", "cryptid", "B", "scientist", a_won=False)
    assert a.expected == pytest.approx(0.550199353, abs=1e-9)
    assert b.expected == pytest.approx(0.449800647, abs=1e-9)
    assert b.after - 1500 == pytest.approx(17.606379, abs=1e-6)
    assert a.after - 1500 == pytest.approx(-17.606379, abs=1e-6)


def test_el_3_3_estimated_from_seven_cryptid_wins_in_ten():
    # Before the match: cryptid won 7 of 10. p = (7 + 1) / (10 + 2) = 2/3,
    # adv(cryptid) = 400 * log10((2/3) / (1/3)) = 400 * log10(2) = 120.411998...
    # Equal ratings 1500: E_cryptid = 1 / (1 + 10^(-120.412/400)) = 1 / (1 + 1/2) = 2/3.
    # The scientist wins (K 32): dSci = 32 * (1 - 1/3) = +21.3333 -> 1521.3333;
    #                            dCry = 32 * (0 - 2/3) = -21.3333 -> 1478.6667.
    k = kernel({"C": 1500, "S": 1500}, {"C": 10, "S": 10}, tallies={"cryptid": [7, 10]})
    c, s = k.rate_two_seats("C", "cryptid", "S", "scientist", a_won=False)
    assert c.advantage == pytest.approx(400 * math.log10(2), abs=TOL)
    assert s.advantage == pytest.approx(-120.41199826559, abs=1e-9)
    assert c.expected == pytest.approx(2 / 3, abs=TOL)
    assert s.after == pytest.approx(1500 + 64 / 3, abs=TOL)
    assert c.after == pytest.approx(1500 - 64 / 3, abs=TOL)
    # The match counts for the next one: 7 of 11 -> p = 8/13, adv = 400 * log10(8/5)
    #   = 400 * 0.2041200 = 81.647993.
    assert k.state.role_tallies == {"cryptid": [7, 11]}
    assert k.role_advantage("cryptid", "scientist") == pytest.approx(81.647993, abs=1e-6)


def test_el_3_3_estimate_uses_only_matches_before_the_current_one():
    # Match 1: no history, p = (0 + 1) / (0 + 2) = 1/2 -> adv 0. The cryptid wins.
    # Match 2: 1 of 1, p = 2/3 -> adv = 400 * log10(2) = 120.412.
    # Match 3: 2 of 2 (the cryptid, now B, wins again), p = 3/4 -> adv = 400 * log10(3) = 190.849.
    k = kernel()
    first = k.rate_two_seats("A", "cryptid", "B", "scientist", a_won=True)
    second = k.rate_two_seats("B", "cryptid", "A", "scientist", a_won=True)
    third = k.rate_two_seats("A", "scientist", "B", "cryptid", a_won=False)
    assert first[0].advantage == 0.0
    assert second[0].advantage == pytest.approx(120.411998266, abs=1e-9)
    assert third[1].advantage == pytest.approx(190.848501888, abs=1e-9)
    assert third[0].advantage == pytest.approx(-190.848501888, abs=1e-9)
    assert estimated_advantage(2, 2) == pytest.approx(400 * math.log10(3), abs=TOL)


def test_el_4_1_two_seats_winner_scores_one_and_each_uses_their_own_k():
    # A 1600 (established, K 32) loses to B 1400 (provisional, K 64), no role advantage.
    # E_A = 1 / (1 + 10^((1400 - 1600) / 400)) = 1 / (1 + 10^-0.5) = 1 / 1.316227766 = 0.759746927
    # dA = 32 * (0 - 0.759746927) = -24.311901666; dB = 64 * (1 - 0.240253073) = +48.623803332
    k = kernel({"A": 1600, "B": 1400}, {"A": 10, "B": 2}, role_advantage="none")
    a, b = k.rate_two_seats("A", "cryptid", "B", "scientist", a_won=False)
    assert (a.score, b.score) == (0.0, 1.0) and (a.k, b.k) == (32.0, 64.0)
    assert a.expected == pytest.approx(0.759746927, abs=1e-9)
    assert a.after - 1600 == pytest.approx(-24.311901666, abs=1e-6)
    assert b.after - 1400 == pytest.approx(48.623803332, abs=1e-6)


# --- EL-5 one against a team (Mister X) --------------------------------------------


def test_el_5_2_mister_x_against_three_detective_players_2_2_1():
    # Detective players P 1500 (2 pawns), Q 1700 (2 pawns), R 1400 (1 pawn):
    #   w = 2/5, 2/5, 1/5;  T = 0.4*1500 + 0.4*1700 + 0.2*1400 = 600 + 680 + 280 = 1560.
    # Mister X X is 1560, provisional (5 games: K 64); detectives established (K 32).
    # No role advantage: E_mrx = 1 / (1 + 10^((1560 - 1560) / 400)) = 0.5.
    # The detectives win (S_mrx = 0, S_det = 1):
    #   dX = 64 * (0 - 0.5) = -32 -> 1528
    #   dP = 32 * 0.4 * (1 - (1 - 0.5)) = 6.4 -> 1506.4
    #   dQ = 32 * 0.4 * 0.5 = 6.4 -> 1706.4
    #   dR = 32 * 0.2 * 0.5 = 3.2 -> 1403.2
    k = kernel(
        {"X": 1560, "P": 1500, "Q": 1700, "R": 1400},
        {"X": 5, "P": 10, "Q": 12, "R": 40},
        role_advantage="none",
    )
    changes = by_player(
        k.rate_one_against_team(
            "X",
            [("P", 2), ("Q", 2), ("R", 1)],
            solo_won=False,
            solo_role="mrx",
            team_role="detectives",
        )
    )
    x, p, q, r = (changes[n] for n in "XPQR")
    assert (x.opponent_rating, x.expected, x.k, x.after) == (1560.0, 0.5, 64.0, 1528.0)
    assert (p.weight, q.weight, r.weight) == (0.4, 0.4, 0.2)
    assert (p.expected, p.score) == (0.5, 1.0)
    assert p.after == pytest.approx(1506.4, abs=TOL)
    assert q.after == pytest.approx(1706.4, abs=TOL)
    assert r.after == pytest.approx(1403.2, abs=TOL)
    assert all(c.won for c in (p, q, r)) and not x.won
    for change in changes.values():
        assert_sum_redoes(change)


def test_el_5_3_team_changes_add_up_to_mister_x_with_equal_k_and_estimated_advantage():
    # Mister X has won 1 of 4 before: p = (1 + 1) / (4 + 2) = 1/3,
    #   adv(mrx) = 400 * log10((1/3) / (2/3)) = 400 * log10(1/2) = -120.412.
    # Same players as above, all K 32, T = 1560, X = 1560:
    #   E_mrx = 1 / (1 + 10^((1560 - 1560 + 120.412) / 400)) = 1 / (1 + 2) = 1/3.
    # Mister X wins: dX = 32 * (1 - 1/3) = +21.3333 -> 1581.3333
    #   dP = 32 * 0.4 * (0 - 2/3) = -8.5333;  dQ = -8.5333;  dR = 32 * 0.2 * (-2/3) = -4.2667
    #   sum = -21.3333 = -dX (EL-5.3).
    k = kernel(
        {"X": 1560, "P": 1500, "Q": 1700, "R": 1400},
        {"X": 10, "P": 10, "Q": 10, "R": 10},
        tallies={"mrx": [1, 4]},
    )
    changes = by_player(
        k.rate_one_against_team(
            "X",
            [("P", 2), ("Q", 2), ("R", 1)],
            solo_won=True,
            solo_role="mrx",
            team_role="detectives",
        )
    )
    x = changes["X"]
    assert x.advantage == pytest.approx(-120.411998266, abs=1e-9)
    assert changes["P"].advantage == pytest.approx(120.411998266, abs=1e-9)
    assert x.expected == pytest.approx(1 / 3, abs=TOL)
    assert x.after == pytest.approx(1560 + 64 / 3, abs=TOL)
    assert changes["P"].after == pytest.approx(1500 - 128 / 15, abs=TOL)
    assert changes["Q"].after == pytest.approx(1700 - 128 / 15, abs=TOL)
    assert changes["R"].after == pytest.approx(1400 - 64 / 15, abs=TOL)
    team_total = sum(c.after - c.before for c in changes.values() if c.role == "detectives")
    assert team_total == pytest.approx(-(x.after - x.before), abs=TOL)
    assert k.state.role_tallies == {"mrx": [2, 5]}


def test_el_5_1_seats_of_one_player_add_their_pawns():
    # ada holds det1 (1 pawn) and det3 (1 pawn): one detective player with 2 pawns.
    # All 1500, K 64, no advantage: T = 1500, E_mrx = 0.5, detectives win:
    #   ada: 64 * 2/5 * 0.5 = +12.8;  bo: 64 * 3/5 * 0.5 = +19.2;  X: 64 * -0.5 = -32.
    k = kernel(role_advantage="none")
    seats = [
        SeatPlayer("mrx", "X"),
        SeatPlayer("det1", "ada", 1),
        SeatPlayer("det2", "bo", 3),
        SeatPlayer("det3", "ada", 1),
    ]
    changes = by_player(rate_seats(k, "mister-x", seats, "detectives"))
    assert set(changes) == {"X", "ada", "bo"}
    assert changes["ada"].after == pytest.approx(1512.8, abs=TOL)
    assert changes["bo"].after == pytest.approx(1519.2, abs=TOL)
    assert changes["X"].after == 1468.0
    assert k.state.games == {"X": 1, "ada": 1, "bo": 1}


def test_el_5_1_pawns_must_add_up_to_five():
    k = kernel()
    with pytest.raises(ValueError, match="control 4 pawns, not 5"):
        k.rate_one_against_team(
            "X",
            [("P", 2), ("Q", 2)],
            solo_won=True,
            solo_role="mrx",
            team_role="detectives",
            total=5,
        )
    assert k.state.ratings == {} and k.state.games == {}


# --- EL-6 free-for-all (Cloak & Dagger) ----------------------------------------------


def test_el_6_2_six_player_cloak_and_dagger():
    # N = 6, weight 1/(N-1) = 1/5. Ratings: A 1900, B C D E 1500, F 1100; C wins.
    # K: A 32 (20 games), B 64 (3), C 32 (10), D 64 (9), E 32 (15), F 32 (30).
    # Pairwise E_ij = 1 / (1 + 10^((R_j - R_i) / 400)):
    #   400 above: 1 / (1 + 0.1) = 10/11;  800 above: 1 / (1 + 0.01) = 100/101;  equal: 1/2.
    # Expected sums (over the 5 opponents):
    #   A: 4 * 10/11 + 100/101 = (4040 + 1100) / 1111 = 5140/1111 = 4.6264626...
    #   B, C, D, E: 1/11 (vs A) + 3 * 1/2 + 10/11 (vs F) = 1 + 1.5 = 2.5
    #   F: 1/101 + 4 * 1/11 = (11 + 404) / 1111 = 415/1111 = 0.3735373...
    #   (check: 5140/1111 + 4 * 2.5 + 415/1111 = 5 + 10 = 15 = number of pairs)
    # Scores: the winner C beats all five: 5; every loser draws the 4 other losers: 4 * 1/2 = 2.
    # Changes dR = K / 5 * (S - E):
    #   A: 32/5 * (2 - 5140/1111) = 6.4 * (-2918/1111) = -18675.2/1111 = -16.8093609...
    #   B: 64/5 * (2 - 2.5) = 12.8 * -0.5 = -6.4
    #   C: 32/5 * (5 - 2.5) = 6.4 * 2.5 = +16
    #   D: 64/5 * (2 - 2.5) = -6.4
    #   E: 32/5 * (2 - 2.5) = -3.2
    #   F: 32/5 * (2 - 415/1111) = 6.4 * 1807/1111 = 11564.8/1111 = +10.4093609...
    k = kernel(
        {"A": 1900, "B": 1500, "C": 1500, "D": 1500, "E": 1500, "F": 1100},
        {"A": 20, "B": 3, "C": 10, "D": 9, "E": 15, "F": 30},
    )
    seats = [SeatPlayer(f"p{i + 1}", name) for i, name in enumerate("ABCDEF")]
    changes = by_player(rate_seats(k, "cloak-and-dagger", seats, "p3"))
    expected_sums = {"A": 5140 / 1111, "B": 2.5, "C": 2.5, "D": 2.5, "E": 2.5, "F": 415 / 1111}
    deltas = {"A": -18675.2 / 1111, "B": -6.4, "C": 16.0, "D": -6.4, "E": -3.2, "F": 11564.8 / 1111}
    for name, change in changes.items():
        assert change.expected == pytest.approx(expected_sums[name], abs=TOL), name
        assert change.after - change.before == pytest.approx(deltas[name], abs=TOL), name
        assert change.weight == 0.2
        assert change.score == (5.0 if name == "C" else 2.0)
        assert change.won == (name == "C")
        assert change.advantage == 0.0 and change.opponent_rating is None
        assert_sum_redoes(change)
    assert [changes[n].k for n in "ABCDEF"] == [32.0, 64.0, 32.0, 64.0, 32.0, 32.0]
    assert changes["C"].role == "p3"


def test_el_6_two_player_free_for_all_is_plain_elo():
    # N = 2: weight 1/1, the winner scores 1, the loser 0 (no other loser to draw).
    # 1700 beats 1300: E = 10/11, d = 32 * (1 - 10/11) = 32/11 = 2.90909...
    k = kernel({"A": 1700, "B": 1300}, {"A": 10, "B": 10})
    a, b = k.rate_free_for_all(["A", "B"], "A")
    assert (a.score, b.score) == (1.0, 0.0)
    assert a.after == pytest.approx(1700 + 32 / 11, abs=TOL)
    assert b.after == pytest.approx(1300 - 32 / 11, abs=TOL)


def test_el_6_1_without_a_winner_every_pair_draws():
    # 3 players at 1500, no winner: every pair 1/2 - 1/2, S = E = 1 for each: no change.
    k = kernel({"A": 1500, "B": 1500, "C": 1500}, {"A": 10, "B": 10, "C": 10})
    assert [c.after for c in k.rate_free_for_all(["A", "B", "C"], None)] == [1500.0] * 3


def test_el_6_rejects_a_winner_who_did_not_play():
    k = kernel()
    with pytest.raises(ValueError, match="did not play"):
        k.rate_free_for_all(["A", "B"], "Z")


def test_el_6_seat_names_must_match_the_players_and_change_nothing_when_not():
    k = kernel({"A": 1600}, {"A": 3})
    with pytest.raises(ValueError, match="2 seat names for 3 players"):
        k.rate_free_for_all(["A", "B", "C"], "A", roles=["p1", "p2"])
    assert k.state.ratings == {"A": 1600.0} and k.state.games == {"A": 3}


def test_unknown_game_is_not_rated():
    with pytest.raises(ValueError, match="no ladder rates the game 'chess'"):
        rate_seats(kernel(), "chess", [SeatPlayer("white", "A"), SeatPlayer("black", "B")], "white")


# --- EL-7.1 every record redoes its sum, in every shape -----------------------------


def test_el_7_1_records_redo_their_sums_over_a_random_stream():
    rng = random.Random(7)
    kernels = {game: kernel() for game in ("cryptid-urban-legends", "mister-x", "cloak-and-dagger")}
    players = [f"u{i}" for i in range(30)]
    for _ in range(600):
        game = rng.choice(list(kernels))
        if game == "cryptid-urban-legends":
            a, b = rng.sample(players, 2)
            seats = [SeatPlayer("cryptid", a), SeatPlayer("scientist", b)]
            winner = rng.choice(["cryptid", "scientist"])
        elif game == "mister-x":
            who = rng.sample(players, 4)
            seats = [SeatPlayer("mrx", who[0])] + [
                SeatPlayer(f"det{i}", p, n)
                for i, (p, n) in enumerate(zip(who[1:], (2, 2, 1), strict=True), 1)
            ]
            winner = rng.choice(["mrx", "detectives"])
        else:
            who = rng.sample(players, rng.randint(2, 6))
            seats = [SeatPlayer(f"p{i + 1}", p) for i, p in enumerate(who)]
            winner = rng.choice(seats).seat
        for change in rate_seats(kernels[game], game, seats, winner):
            assert_sum_redoes(change)
            assert kernels[game].state.ratings[change.player] == change.after


# --- properties: with one K for everyone, no shape creates or destroys rating points ---

ratings_st = st.floats(min_value=600, max_value=2600, allow_nan=False)


@given(st.lists(ratings_st, min_size=2, max_size=6), st.data())
def test_el_6_free_for_all_conserves_points_with_equal_k(ratings, data):
    players = [f"u{i}" for i in range(len(ratings))]
    winner = data.draw(st.sampled_from([*players, None]))
    k = kernel(dict(zip(players, ratings, strict=True)), {p: 10 for p in players})
    changes = k.rate_free_for_all(players, winner)
    assert sum(c.after - c.before for c in changes) == pytest.approx(0.0, abs=1e-7)
    if winner is not None:  # S = N - 1 exceeds every sum of N - 1 expectations below 1
        assert all(c.after > c.before for c in changes if c.player == winner)


@given(
    ratings_st,
    st.lists(ratings_st, min_size=1, max_size=5),
    st.booleans(),
    st.floats(min_value=-300, max_value=300),
)
def test_el_5_3_team_changes_mirror_mister_x_with_equal_k(solo, team, solo_won, advantage):
    shares = [5 // len(team) + (1 if i < 5 % len(team) else 0) for i in range(len(team))]
    members = [f"d{i}" for i in range(len(team))]
    k = kernel(
        {"X": solo, **dict(zip(members, team, strict=True))},
        {"X": 10, **{m: 10 for m in members}},
        role_advantage={"mrx": advantage},
    )
    changes = k.rate_one_against_team(
        "X", list(zip(members, shares, strict=True)), solo_won, "mrx", "detectives"
    )
    assert sum(c.after - c.before for c in changes) == pytest.approx(0.0, abs=1e-7)
    assert all(c.weight == n / 5 for c, n in zip(changes[1:], shares, strict=True))


@given(ratings_st, ratings_st, st.booleans(), st.integers(0, 50), st.integers(0, 50))
def test_el_3_3_two_seats_conserve_points_and_reward_the_weaker_role(ra, rb, a_won, wins, more):
    k = kernel({"A": ra, "B": rb}, {"A": 10, "B": 10}, tallies={"cryptid": [wins, wins + more]})
    a, b = k.rate_two_seats("A", "cryptid", "B", "scientist", a_won)
    assert (a.after - a.before) + (b.after - b.before) == pytest.approx(0.0, abs=1e-9)
    # p = (wins + 1) / (matches + 2) > 1/2 exactly when the cryptid won more than it lost.
    assert (a.advantage > 0) == (wins > more) and a.advantage == -b.advantage
