"""The pure rating kernel: Elo exactly as ``docs/rules/ratings.md`` (``EL-*``).

No Django here: the kernel takes matches in rating order (``EL-1.3``: played_at,
then match id — the caller sorts) and keeps the running state of one ladder
(ratings, rated-match counts, role tallies). Each ``rate_*`` method returns one
:class:`Change` per player, which carries everything ``EL-7.1`` needs to redo the
sum by hand.

Every change, whatever the shape, is written as one formula::

    delta = K * weight * (score - expected)        after = before + delta

- two seats (``EL-4``): weight 1, score 1 or 0, expected = E(A over B) with A's
  role advantage;
- one against a team (``EL-5``): the lone player (Mister X) has weight 1 and
  expected E_solo against the team rating T; a team player has weight = their share
  of the team (Mister X: pawns / the board's pawns), expected 1 - E_solo, score S_team;
- free-for-all (``EL-6``): weight 1 / (N - 1), score = sum of the pairwise scores
  S_ij, expected = sum of the pairwise expectations E_ij (both over j != i).

Which shape rates a game, its roles and its team shares are the engine's
(:class:`engine.RatingShape`, ``Game.side_of``, ``Game.team_shares``): nothing here
names a game or a seat.

The kernel is written for streams of a million matches: plain floats, dict
look-ups, no per-match objects besides the returned changes.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from engine import FREE_FOR_ALL, ONE_AGAINST_TEAM, TWO_SEATS, RatingShape, all_games, get_game


def rating_shape(game: str) -> RatingShape | None:
    """How a ladder rates ``game`` (the engine says), None when no ladder does."""
    found = get_game(game)
    return None if found is None else found.rating


def rated_games() -> list[str]:
    """The ids of every game a ladder rates."""
    return sorted(game_id for game_id, game in all_games().items() if game.rating is not None)


def opposed_roles() -> dict[str, str]:
    """Roles whose advantage ``EL-3.3`` estimates, each with the role it plays against
    (every rated game's ``rating.roles``). The tally of a ladder is kept for the first."""
    return {
        game.rating.roles[0]: game.rating.roles[1]
        for game in all_games().values()
        if game.rating is not None and game.rating.roles is not None
    }


def _opponents_of() -> dict[str, str]:
    """Every role with an advantage, mapped to the role it plays against (both ways)."""
    opposed = opposed_roles()
    return {**opposed, **{other: role for role, other in opposed.items()}}


ROLE_ADVANTAGE_MODES = ("none", "estimated")


class Change(NamedTuple):
    """One player's rating change in one match (``EL-7.1``).

    ``after == before + k * weight * (score - expected)`` exactly (same float
    operations). ``advantage`` is the role advantage of this player's side
    (0.0 when none applies); ``opponent_rating`` is the rating the expectation was
    taken against (the other seat, the team rating T for Mister X, Mister X's rating
    for a detective) and ``None`` in a free-for-all, where it is one per pair.
    """

    player: Hashable
    role: str
    before: float
    after: float
    expected: float
    score: float
    k: float
    weight: float
    advantage: float
    opponent_rating: float | None
    won: bool


_change = tuple.__new__  # building a NamedTuple without its Python-level __new__ (speed)
_log10 = math.log10


class OptionsError(ValueError):
    """Ladder options that ``EL-1.1`` does not allow."""


@dataclass(frozen=True)
class LadderOptions:
    """Rating options of one ladder (``EL-1.1``), with its defaults."""

    initial: float = 1500.0
    k: float = 32.0
    provisional_k: float = 64.0
    provisional_games: int = 10
    #: ``"none"``, ``"estimated"``, or fixed numbers per role, e.g. ``{"cryptid": 35}``.
    role_advantage: str | Mapping[str, float] = "estimated"

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> LadderOptions:
        """Options from a JSON object; absent keys take the defaults, bad ones raise
        :class:`OptionsError` naming the key."""
        data = dict(data or {})
        unknown = set(data) - {
            "initial",
            "k",
            "provisional_k",
            "provisional_games",
            "role_advantage",
        }
        if unknown:
            raise OptionsError(f"EL-1.1: unknown ladder option(s): {', '.join(sorted(unknown))}")
        values: dict[str, Any] = {}
        for key in ("initial", "k", "provisional_k"):
            if key in data:
                value = data[key]
                if (
                    isinstance(value, bool)
                    or not isinstance(value, int | float)
                    or not math.isfinite(value)
                ):
                    raise OptionsError(f"EL-1.1: {key} must be a number, not {value!r}")
                if key != "initial" and value <= 0:
                    raise OptionsError(f"EL-1.1: {key} must be positive, not {value!r}")
                values[key] = float(value)
        if "provisional_games" in data:
            games = data["provisional_games"]
            if isinstance(games, bool) or not isinstance(games, int) or games < 0:
                raise OptionsError(
                    f"EL-1.1: provisional_games must be a whole number >= 0, not {games!r}"
                )
            values["provisional_games"] = games
        if "role_advantage" in data:
            values["role_advantage"] = _parse_role_advantage(data["role_advantage"])
        return cls(**values)

    def to_json(self) -> dict[str, Any]:
        advantage = self.role_advantage
        return {
            "initial": self.initial,
            "k": self.k,
            "provisional_k": self.provisional_k,
            "provisional_games": self.provisional_games,
            "role_advantage": advantage if isinstance(advantage, str) else dict(advantage),
        }


def _parse_role_advantage(value: Any) -> str | dict[str, float]:
    if isinstance(value, str):
        if value not in ROLE_ADVANTAGE_MODES:
            raise OptionsError(
                f'EL-1.1: role_advantage must be "none", "estimated" or numbers per role, not '
                f"{value!r}"
            )
        return value
    if not isinstance(value, Mapping) or not value:
        raise OptionsError(
            f"EL-1.1: role_advantage must be a mode or numbers per role, not {value!r}"
        )
    fixed: dict[str, float] = {}
    opponent_of = _opponents_of()
    for role, number in value.items():
        if role not in opponent_of:
            raise OptionsError(f"EL-3.2: no role advantage applies to role {role!r}")
        if (
            isinstance(number, bool)
            or not isinstance(number, int | float)
            or not math.isfinite(number)
        ):
            raise OptionsError(f"EL-3.2: the advantage of {role} must be a number, not {number!r}")
        fixed[role] = float(number)
    for role, number in fixed.items():
        other = opponent_of[role]
        if other in fixed and fixed[other] != -number:
            raise OptionsError(
                f"EL-3.2: {role} {number:g} and {other} {fixed[other]:g} disagree "
                "(one side's advantage is the other's negative)"
            )
    return fixed


def expected_score(rating: float, opponent: float, advantage: float = 0.0) -> float:
    """E(A over B) = 1 / (1 + 10^((R_B - R_A - adv_A) / 400))  (``EL-2.1``)."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating - advantage) / 400.0))


def estimated_advantage(wins: int, matches: int) -> float:
    """adv = 400 * log10(p / (1 - p)), p = (wins + 1) / (matches + 2)  (``EL-3.3``).

    p / (1 - p) simplifies to (wins + 1) / (matches - wins + 1), which avoids the
    rounding of 1 - p.
    """
    return 400.0 * math.log10((wins + 1) / (matches - wins + 1))


@dataclass
class LadderState:
    """The running state of one ladder: what the next match is rated against."""

    ratings: dict[Hashable, float] = field(default_factory=dict)
    #: rated matches each player has played in this ladder (EL-1.4)
    games: dict[Hashable, int] = field(default_factory=dict)
    #: per estimated role (an :func:`opposed_roles` key): [wins, matches] (EL-3.3)
    role_tallies: dict[str, list[int]] = field(default_factory=dict)


class RatingKernel:
    """Rates the matches of one ladder, one after another, in the order given.

    Hot paths keep options and state in locals: a full recompute streams every
    match of a ladder through here.
    """

    def __init__(
        self, options: LadderOptions | None = None, state: LadderState | None = None
    ) -> None:
        self.options = options = options or LadderOptions()
        self.state = state = state if state is not None else LadderState()
        self._ratings, self._games, self._tallies = state.ratings, state.games, state.role_tallies
        self._initial = options.initial
        self._k, self._provisional_k = options.k, options.provisional_k
        self._provisional_games = options.provisional_games
        advantage = options.role_advantage
        self._estimated = advantage == "estimated"
        self._fixed: Mapping[str, float] = advantage if isinstance(advantage, Mapping) else {}
        self._sides: dict[tuple[str, str], tuple[str | None, float, float]] = {}
        self._opposed = opposed_roles()

    # -- queries -----------------------------------------------------------------
    def rating(self, player: Hashable) -> float:
        return self._ratings.get(player, self._initial)

    def is_provisional(self, player: Hashable) -> bool:
        """Shown as provisional ("1532?") while K would still be provisional (EL-1.4)."""
        return self._games.get(player, 0) < self._provisional_games

    def role_advantage(self, role: str, opponent_role: str) -> float:
        """The advantage of ``role`` over ``opponent_role`` for the next match (EL-3)."""
        key, sign, fixed = self._side(role, opponent_role)
        if key is not None and self._estimated:
            tally = self._tallies.get(key)
            return sign * estimated_advantage(tally[0], tally[1]) if tally else 0.0
        return fixed

    def _side(self, role: str, opponent_role: str) -> tuple[str | None, float, float]:
        """(role tallied for EL-3.3 or None, +1/-1: whether ``role`` is that role or
        its opponent, fixed advantage of ``role``: EL-3.2, or 0.0 for EL-3.1).
        Worked out once per pair of roles: a ladder has one or two such pairs."""
        side = self._sides.get((role, opponent_role))
        if side is None:
            if role in self._opposed:
                key, sign = role, 1.0
            elif opponent_role in self._opposed:
                key, sign = opponent_role, -1.0
            else:
                key, sign = None, 1.0
            fixed = self._fixed
            if role in fixed:
                value = fixed[role]
            elif opponent_role in fixed:
                value = -fixed[opponent_role]
            else:
                value = 0.0
            side = self._sides[(role, opponent_role)] = (key, sign, value)
        return side

    def _advantage_and_tally(self, role: str, opponent_role: str, role_won: bool) -> float:
        """The advantage of ``role`` for this match; then counts the match for the
        next one's estimate (EL-3.3 uses matches *before* the current one)."""
        # The cached side is read here, not through _side(): one call per match, not two.
        key, sign, advantage = self._sides.get((role, opponent_role)) or self._side(
            role, opponent_role
        )
        if key is None:
            return advantage
        tallies = self._tallies
        tally = tallies.get(key)
        if tally is None:
            tally = tallies[key] = [0, 0]
        elif self._estimated:
            # 400 * log10(p / (1 - p)) with p = (wins + 1) / (matches + 2)
            advantage = sign * 400.0 * _log10((tally[0] + 1) / (tally[1] - tally[0] + 1))
        if role_won if sign > 0 else not role_won:
            tally[0] += 1
        tally[1] += 1
        return advantage

    # -- EL-4: two seats -----------------------------------------------------------
    def rate_two_seats(
        self, a: Hashable, role_a: str, b: Hashable, role_b: str, a_won: bool
    ) -> list[Change]:
        """Cryptid: Urban Legends (EL-4.1); seat A won when ``a_won``, else B."""
        if a == b:
            raise ValueError("EL-4: a player cannot hold both seats")
        ratings, games, initial = self._ratings, self._games, self._initial
        r_a = ratings.get(a, initial)
        r_b = ratings.get(b, initial)
        games_a = games.get(a, 0)
        games_b = games.get(b, 0)
        limit, k, provisional_k = self._provisional_games, self._k, self._provisional_k
        k_a = provisional_k if games_a < limit else k
        k_b = provisional_k if games_b < limit else k
        adv = self._advantage_and_tally(role_a, role_b, a_won)
        e_a = 1.0 / (1.0 + 10.0 ** ((r_b - r_a - adv) / 400.0))
        # E(B over A) with adv_B = -adv_A: 1 / (1 + 10^((R_A - R_B + adv) / 400)) = 1 - E_A.
        e_b = 1.0 - e_a
        # K * weight * (S - E) with weight 1: multiplying by 1.0 is exact, so it is left out.
        if a_won:
            after_a = r_a + k_a * (1.0 - e_a)
            after_b = r_b + k_b * (0.0 - e_b)
            s_a, s_b = 1.0, 0.0
        else:
            after_a = r_a + k_a * (0.0 - e_a)
            after_b = r_b + k_b * (1.0 - e_b)
            s_a, s_b = 0.0, 1.0
        ratings[a] = after_a
        ratings[b] = after_b
        games[a] = games_a + 1
        games[b] = games_b + 1
        return [
            _change(Change, (a, role_a, r_a, after_a, e_a, s_a, k_a, 1.0, adv, r_b, a_won)),
            _change(Change, (b, role_b, r_b, after_b, e_b, s_b, k_b, 1.0, -adv, r_a, not a_won)),
        ]

    # -- EL-5: one against a team --------------------------------------------------
    def rate_one_against_team(
        self,
        solo: Hashable,
        team: Sequence[tuple[Hashable, int]],
        solo_won: bool,
        solo_role: str,
        team_role: str,
        total: int | None = None,
    ) -> list[Change]:
        """One player (Mister X) against a team (the detective players) (EL-5); ``team``
        is (player, share) per team player, the shares (pawns controlled) adding up to
        ``total`` (the board's pawns; None: whatever they add up to). A team player's
        weight is their share / ``total``."""
        ratings, games, initial = self._ratings, self._games, self._initial
        if total is None:
            total = sum(share for _, share in team)
        shares_total = 0
        team_rating = 0.0
        # (player, weight w_i, rating before) per team player, in team order
        members = []
        for player, share in team:
            if share <= 0:
                raise ValueError(f"EL-5.1: team player {player!r} controls no pawn")
            shares_total += share
            weight = share / total
            rating = ratings.get(player, initial)
            team_rating += weight * rating
            members.append((player, weight, rating))
        if shares_total != total:
            raise ValueError(f"EL-5.1: the team players control {shares_total} pawns, not {total}")
        players = {player for player, _ in team}
        if len(players) != len(team):
            raise ValueError("EL-5.1: list each team player once, with all their pawns")
        if solo in players:
            raise ValueError(f"EL-5: the {solo_role} player cannot also be a {team_role} player")
        limit, k, provisional_k = self._provisional_games, self._k, self._provisional_k
        r_solo = ratings.get(solo, initial)
        games_solo = games.get(solo, 0)
        k_solo = provisional_k if games_solo < limit else k
        adv = self._advantage_and_tally(solo_role, team_role, solo_won)
        e_solo = 1.0 / (1.0 + 10.0 ** ((team_rating - r_solo - adv) / 400.0))
        s_solo = 1.0 if solo_won else 0.0
        # Mister X's weight is 1: multiplying by 1.0 is exact, so it is left out.
        after_solo = r_solo + k_solo * (s_solo - e_solo)
        changes = [
            _change(
                Change,
                (
                    solo,
                    solo_role,
                    r_solo,
                    after_solo,
                    e_solo,
                    s_solo,
                    k_solo,
                    1.0,
                    adv,
                    team_rating,
                    solo_won,
                ),
            )
        ]
        append = changes.append
        e_team = 1.0 - e_solo
        s_team = 1.0 - s_solo
        team_won = not solo_won
        team_adv = -adv
        for player, weight, rating in members:
            played = games.get(player, 0)
            k_player = provisional_k if played < limit else k
            after = rating + k_player * weight * (s_team - e_team)
            ratings[player] = after
            games[player] = played + 1
            append(
                _change(
                    Change,
                    (
                        player,
                        team_role,
                        rating,
                        after,
                        e_team,
                        s_team,
                        k_player,
                        weight,
                        team_adv,
                        r_solo,
                        team_won,
                    ),
                )
            )
        ratings[solo] = after_solo
        games[solo] = games_solo + 1
        return changes

    # -- EL-6: free-for-all with one winner ----------------------------------------
    def rate_free_for_all(
        self,
        players: Sequence[Hashable],
        winner: Hashable | None,
        roles: Sequence[str] | None = None,
    ) -> list[Change]:
        """Cloak & Dagger (EL-6): every pair is a game; the winner beats everyone,
        two losers draw. ``winner`` None (no one won) makes every pair a draw.
        ``roles`` (the seats, e.g. ``p1``) are recorded, never used in the sums."""
        n = len(players)
        if n < 2:
            raise ValueError("EL-6: a free-for-all needs at least two players")
        if len(set(players)) != n:
            raise ValueError("EL-6: a player holds one seat in a free-for-all")
        if winner is not None and winner not in players:
            raise ValueError(f"EL-6: the winner {winner!r} did not play")
        if roles is None:
            roles = _NO_ROLES * n
        elif len(roles) != n:
            raise ValueError(f"EL-6: {len(roles)} seat names for {n} players")
        ratings, games, initial = self._ratings, self._games, self._initial
        limit, k, provisional_k = self._provisional_games, self._k, self._provisional_k
        before = [ratings.get(p, initial) for p in players]
        expected = [0.0] * n
        # Sum E_ij over j in seat order for every i: the pair (i, j) is computed
        # once and adds E_ij to i and E_ji = 1 - E_ij to j. This loop is most of a
        # free-for-all's cost: every pair needs its own power of ten.
        for i in range(n - 1):
            r_i = before[i]
            total = expected[i]
            for j in range(i + 1, n):
                e = 1.0 / (1.0 + 10.0 ** ((before[j] - r_i) / 400.0))
                total += e
                expected[j] += 1.0 - e
            expected[i] = total
        weight = 1.0 / (n - 1)
        loser_score = (n - 2) / 2.0 if winner is not None else (n - 1) / 2.0
        winner_score = float(n - 1)
        changes = []
        append = changes.append
        for i, player in enumerate(players):
            won = player == winner
            score = winner_score if won else loser_score
            played = games.get(player, 0)
            k_player = provisional_k if played < limit else k
            r = before[i]
            after = r + k_player * weight * (score - expected[i])
            ratings[player] = after
            games[player] = played + 1
            append(
                _change(
                    Change,
                    (
                        player,
                        roles[i],
                        r,
                        after,
                        expected[i],
                        score,
                        k_player,
                        weight,
                        0.0,
                        None,
                        won,
                    ),
                )
            )
        return changes


#: the seat names of a free-for-all rated without them (recorded as "")
_NO_ROLES = ("",)


class SeatPlayer(NamedTuple):
    """One seat of a finished match as the ladder sees it."""

    seat: str  # the log's seat id
    player: Hashable
    share: int = 0  # a team seat's share of its team (EL-5.1: Mister X's pawns), else 0


def rate_seats(
    kernel: RatingKernel, game: str, seats: Sequence[SeatPlayer], winner: str | None
) -> list[Change]:
    """Rate one finished match from its seats and the result's ``winner`` (a seat, or a
    side such as Mister X's ``detectives``), in the shape the engine gives the game."""
    found = get_game(game)
    shape = None if found is None else found.rating
    if shape is None:
        raise ValueError(f"EL-1.1: no ladder rates the game {game!r}")
    kind = shape.kind
    if kind == TWO_SEATS:
        if len(seats) != 2:
            raise ValueError(f"EL-4: {game} has two seats, not {len(seats)}")
        a, b = seats
        if winner not in (a.seat, b.seat):
            raise ValueError(f"EL-4.1: the winner {winner!r} is not a seat of the match")
        return kernel.rate_two_seats(a.player, a.seat, b.player, b.seat, winner == a.seat)
    if kind == ONE_AGAINST_TEAM:
        solo_role, team_role = shape.roles
        side_of = found.side_of
        solo = [s for s in seats if side_of(s.seat) == solo_role]
        if len(solo) != 1:
            raise ValueError(f"EL-5: a {found.name} match has exactly one {solo_role} seat")
        if winner not in (solo_role, team_role):
            raise ValueError(f"EL-5: the winner must be {solo_role} or {team_role}, not {winner!r}")
        shares: dict[Hashable, int] = {}
        for seat in seats:
            if seat is not solo[0]:
                # One player may hold several team seats (Game.may_hold_together): their
                # shares add up.
                shares[seat.player] = shares.get(seat.player, 0) + seat.share
        return kernel.rate_one_against_team(
            solo[0].player, list(shares.items()), winner == solo_role, solo_role, team_role
        )
    if kind == FREE_FOR_ALL:
        by_seat = {s.seat: s.player for s in seats}
        if winner is not None and winner not in by_seat:
            raise ValueError(f"EL-6: the winner {winner!r} is not a seat of the match")
        return kernel.rate_free_for_all(
            [s.player for s in seats],
            by_seat[winner] if winner is not None else None,
            roles=[s.seat for s in seats],
        )
    raise ValueError(f"EL-1.1: no ladder rates the game {game!r}")
