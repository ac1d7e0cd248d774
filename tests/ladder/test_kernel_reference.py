"""The optimised kernel against a plain reference implementation of ``EL-*``.

``ladder.kernel`` is written for speed (locals, cached role sides, one pass per
loop). The reference below is written for reading: one step per rule, no caching,
every change through the one formula ``after = before + K * weight * (S - E)``.
Both must give the same floats to the last bit on thousands of random matches, in
every shape and with every kind of option — a speed-up may not move a digit.

Three choices of the kernel are part of what is compared (they are the ladder's
documented arithmetic, not shortcuts of the reference):

- the other side's expectation is ``1 - E`` (two seats, the detectives, and E_ji in a
  free-for-all), so a match's expectations add up to exactly 1 per pair;
- EL-3.3's p / (1 - p) is computed as (wins + 1) / (matches - wins + 1), which
  avoids rounding 1 - p (``estimated_advantage``);
- a free-for-all stores the sums ΣS and ΣE (the player page shows them), so
  ΔR = K / (N - 1) * (ΣS - ΣE) rather than a sum of per-pair differences.

``test_the_literal_formulas_agree_to_rounding`` checks that the last two differ
from EL-2.1 / EL-6.2 read literally only by float rounding.
"""

from __future__ import annotations

import math
import random
import struct
from collections.abc import Hashable

import pytest

from ladder.kernel import Change, LadderOptions, LadderState, RatingKernel

MATCHES_PER_SHAPE = 3000


class ReferenceLadder:
    """EL-1 .. EL-6 step by step, for one ladder."""

    def __init__(self, options: LadderOptions) -> None:
        self.options = options
        self.ratings: dict[Hashable, float] = {}
        self.games: dict[Hashable, int] = {}
        self.tallies: dict[str, list[int]] = {}  # EL-3.3: role -> [wins, matches]

    def rating(self, player: Hashable) -> float:  # EL-1.1: initial until rated
        return self.ratings.get(player, self.options.initial)

    def k(self, player: Hashable) -> float:  # EL-1.4
        if self.games.get(player, 0) < self.options.provisional_games:
            return self.options.provisional_k
        return self.options.k

    def advantage(self, role: str, opponent_role: str, tallied_role: str) -> float:
        """EL-3: the advantage of ``role`` over ``opponent_role`` before this match;
        ``tallied_role`` (cryptid, mrx) is the one of the two whose wins are counted."""
        mode = self.options.role_advantage
        if mode == "none":  # EL-3.1
            return 0.0
        if mode == "estimated":  # EL-3.3, from the matches before this one
            if tallied_role not in self.tallies:
                return 0.0  # no history yet: p = 1/2, adv = 0
            wins, matches = self.tallies[tallied_role]
            sign = 1.0 if role == tallied_role else -1.0
            return sign * 400.0 * math.log10((wins + 1) / (matches - wins + 1))
        if role in mode:  # EL-3.2: the number given, or the other side's negated
            return mode[role]
        if opponent_role in mode:
            return -mode[opponent_role]
        return 0.0

    def tally(self, tallied_role: str, tallied_role_won: bool) -> None:
        wins, matches = self.tallies.get(tallied_role, [0, 0])
        self.tallies[tallied_role] = [wins + (1 if tallied_role_won else 0), matches + 1]

    @staticmethod
    def expected(rating: float, opponent: float, advantage: float) -> float:  # EL-2.1
        return 1.0 / (1.0 + 10.0 ** ((opponent - rating - advantage) / 400.0))

    def record(self, player, role, before, expected, score, k, weight, advantage, opponent, won):
        after = before + k * weight * (score - expected)
        return (player, role, before, after, expected, score, k, weight, advantage, opponent, won)

    def commit(self, records: list[tuple]) -> list[tuple]:
        """EL-1.3: every change was computed from the ratings before the match."""
        for player, _, _, after, *_ in records:
            self.ratings[player] = after
            self.games[player] = self.games.get(player, 0) + 1
        return records

    def two_seats(self, a, b, a_won: bool) -> list[tuple]:  # EL-4, a plays cryptid
        r_a, r_b = self.rating(a), self.rating(b)
        adv = self.advantage("cryptid", "scientist", "cryptid")
        e_a = self.expected(r_a, r_b, adv)
        e_b = 1.0 - e_a
        s_a = 1.0 if a_won else 0.0
        s_b = 1.0 - s_a
        records = [
            self.record(a, "cryptid", r_a, e_a, s_a, self.k(a), 1.0, adv, r_b, a_won),
            self.record(b, "scientist", r_b, e_b, s_b, self.k(b), 1.0, -adv, r_a, not a_won),
        ]
        self.tally("cryptid", a_won)
        return self.commit(records)

    def one_against_team(
        self, solo, team: list[tuple[Hashable, int]], solo_won: bool
    ) -> list[tuple]:
        team_rating = 0.0  # EL-5.1
        for player, pawns in team:
            team_rating += pawns / 5 * self.rating(player)
        adv = self.advantage("mrx", "detectives", "mrx")
        r_solo = self.rating(solo)
        e_solo = self.expected(r_solo, team_rating, adv)  # EL-5.2
        s_solo = 1.0 if solo_won else 0.0
        records = [
            self.record(
                solo, "mrx", r_solo, e_solo, s_solo, self.k(solo), 1.0, adv, team_rating, solo_won
            )
        ]
        for player, pawns in team:  # EL-5.3
            records.append(
                self.record(
                    player,
                    "detectives",
                    self.rating(player),
                    1.0 - e_solo,
                    1.0 - s_solo,
                    self.k(player),
                    pawns / 5,
                    -adv,
                    r_solo,
                    not solo_won,
                )
            )
        self.tally("mrx", solo_won)
        return self.commit(records)

    def free_for_all(self, players: list[Hashable], winner: Hashable | None) -> list[tuple]:
        before = [self.rating(p) for p in players]
        n = len(players)
        records = []
        for i, player in enumerate(players):  # EL-6.1, summed over j in seat order
            score = expected = 0.0
            for j in range(n):
                if j == i:
                    continue
                if i < j:
                    expected += self.expected(before[i], before[j], 0.0)
                else:  # the pair was computed from seat j's side: E_ij = 1 - E_ji
                    expected += 1.0 - self.expected(before[j], before[i], 0.0)
                score += 1.0 if player == winner else 0.0 if players[j] == winner else 0.5
            records.append(
                self.record(
                    player,
                    "",
                    before[i],
                    expected,
                    score,
                    self.k(player),
                    1.0 / (n - 1),
                    0.0,
                    None,
                    player == winner,
                )
            )
        return self.commit(records)


def bits(record) -> tuple:
    """A record with every float as its bit pattern: equality to the last bit (and sign of 0)."""
    return tuple(struct.pack("<d", v) if isinstance(v, float) else v for v in record)


OPTION_SETS = [
    {},  # defaults: role advantage estimated
    {"role_advantage": "none", "provisional_games": 0},
    {
        "role_advantage": {"cryptid": 35.0, "mrx": -22.5},
        "k": 24.0,
        "provisional_k": 40.0,
        "provisional_games": 3,
    },
    {"role_advantage": {"scientist": 12.0, "detectives": 50.0}, "initial": 1200.0},
]


def random_stream(shape: str, rng: random.Random) -> list[tuple]:
    players = list(range(40))  # few players: many established, many pairs met often
    splits = [(5,), (3, 2), (2, 2, 1), (2, 1, 1, 1), (1, 1, 1, 1, 1), (1, 4), (1, 2, 2)]
    matches = []
    for _ in range(MATCHES_PER_SHAPE):
        if shape == "two_seats":
            a, b = rng.sample(players, 2)
            matches.append((a, b, rng.random() < 0.55))
        elif shape == "team":
            split = rng.choice(splits)
            who = rng.sample(players, len(split) + 1)
            matches.append((who[0], list(zip(who[1:], split, strict=True)), rng.random() < 0.4))
        else:
            who = rng.sample(players, rng.randint(2, 6))
            matches.append(
                (who, rng.choice([*who, None]) if rng.random() < 0.1 else rng.choice(who))
            )
    return matches


@pytest.mark.parametrize("options", OPTION_SETS, ids=["estimated", "none", "fixed", "fixed-other"])
@pytest.mark.parametrize("shape", ["two_seats", "team", "free_for_all"])
def test_kernel_equals_the_reference_to_the_last_bit(shape, options):
    rng = random.Random(f"{shape}-{sorted(options.items())}")
    ladder_options = LadderOptions.from_json(options)
    kernel, reference = RatingKernel(ladder_options), ReferenceLadder(ladder_options)
    for match in random_stream(shape, rng):
        if shape == "two_seats":
            a, b, a_won = match
            got = kernel.rate_two_seats(a, "cryptid", b, "scientist", a_won)
            want = reference.two_seats(a, b, a_won)
        elif shape == "team":
            got = kernel.rate_one_against_team(*match, "mrx", "detectives")
            want = reference.one_against_team(*match)
        else:
            got = kernel.rate_free_for_all(*match)
            want = reference.free_for_all(*match)
        assert all(type(change) is Change for change in got)
        assert [bits(c) for c in got] == [bits(r) for r in want], match
    assert kernel.state.ratings == reference.ratings and kernel.state.games == reference.games
    assert kernel.state.role_tallies == reference.tallies


def test_the_literal_formulas_agree_to_rounding():
    # EL-2.1 for both sides and EL-6.2 as a sum of per-pair differences: the kernel's
    # records differ from them by float rounding only (here well under 1e-9 points).
    rng = random.Random(62)
    kernel = RatingKernel(LadderOptions(), LadderState())
    for players, winner in random_stream("free_for_all", rng)[:1000]:
        before = [kernel.rating(p) for p in players]
        ks = [64.0 if kernel.state.games.get(p, 0) < 10 else 32.0 for p in players]
        n = len(players)
        for i, change in enumerate(kernel.rate_free_for_all(players, winner)):
            pairs = 0.0
            for j in range(n):
                if j != i:
                    s_ij = 1.0 if players[i] == winner else 0.0 if players[j] == winner else 0.5
                    pairs += s_ij - 1.0 / (1.0 + 10.0 ** ((before[j] - before[i]) / 400.0))
            assert change.after == pytest.approx(before[i] + ks[i] / (n - 1) * pairs, abs=1e-9)
