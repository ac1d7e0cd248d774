"""Where each player stands before a round: score group, rank and place in the group;
and, for two-seat games, their role history and the role they are due."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum

from tournaments.pairing.records import Entrant, History, PlayerId


class Claim(IntEnum):
    """How much a player wants their due role (the colour preferences of a chess Swiss)."""

    NONE = 0  # no game played yet
    MILD = 1  # an even difference: the role not played last
    STRONG = 2  # one role ahead: the other role
    ABSOLUTE = 3  # two ahead, or the same role twice running: the other breaks rule 3


@dataclass
class Standing:
    entrant: Entrant
    seed: int
    points: float
    rank: int = 0
    group: int = 0  # 0 = highest score group
    pos: int = 0  # position inside its group, 0 = top
    group_size: int = 0
    roles: Counter[str] = field(default_factory=Counter)
    byes: int = 0


@dataclass(frozen=True)
class RoleState:
    """A player's two-seat role history: 0 is the first role, 1 the second."""

    difference: int  # games in the first role minus games in the second
    played: tuple[tuple[int, int | None], ...]  # (round, role); None: both (double)

    @classmethod
    def of(cls, sequence: Sequence[tuple[int, str]], classes: tuple[str, str]) -> RoleState:
        played = tuple(
            (rnd, classes.index(role) if role in classes else None) for rnd, role in sequence
        )
        difference = sum(1 if role == 0 else -1 for _r, role in played if role is not None)
        return cls(difference, played)

    @property
    def streak(self) -> int | None:
        """The role of the last two games when it is the same role twice."""
        if len(self.played) >= 2 and self.played[-1][1] == self.played[-2][1]:
            return self.played[-1][1]
        return None

    @property
    def due(self) -> tuple[int | None, Claim]:
        """The role this player should play next, and how strongly."""
        d, streak = self.difference, self.streak
        if abs(d) >= 2:
            return (1 if d > 0 else 0), Claim.ABSOLUTE
        if streak is not None:
            return 1 - streak, Claim.ABSOLUTE
        if d:
            return (1 if d > 0 else 0), Claim.STRONG
        last = self.played[-1][1] if self.played else None
        return (None, Claim.NONE) if last is None else (1 - last, Claim.MILD)

    def breaks(self, role: int) -> bool:
        """Playing ``role`` passes a difference of 2 or makes three in a row."""
        return abs(self.after(role)) > 2 or self.streak == role

    def after(self, role: int) -> int:
        return self.difference + (1 if role == 0 else -1)


def role_costs(first: RoleState, second: RoleState, strict: bool) -> tuple[int, ...]:
    """(role_break, role_parity, due_role, strong_role) when ``first`` takes the first
    role and ``second`` the second."""
    breaks = parity = missed = strong = 0
    for state, role in ((first, 0), (second, 1)):
        breaks += state.breaks(role)
        if strict:
            parity += max(0, abs(state.after(role)) - 1)
        due, claim = state.due
        if due is not None and due != role:
            missed += 1
            strong += claim >= Claim.STRONG
    return breaks, parity, missed, strong


def rank_players(
    entrants: Sequence[Entrant], history: History, role_class: Callable[[str], str]
) -> dict[PlayerId, Standing]:
    points = history.points()
    seat_counts = history.seat_counts(role_class)
    byes = history.bye_count()
    rows = [
        Standing(
            e,
            seed,
            points.get(e.id, 0.0),
            roles=seat_counts.get(e.id, Counter()),
            byes=byes.get(e.id, 0),
        )
        for seed, e in enumerate(entrants)
    ]
    rows.sort(key=lambda r: (-r.points, -r.entrant.rating, r.seed))
    groups = sorted({r.points for r in rows}, reverse=True)
    by_group: dict[float, list[Standing]] = defaultdict(list)
    for rank, row in enumerate(rows):
        row.rank = rank + 1
        row.group = groups.index(row.points)
        by_group[row.points].append(row)
    for members in by_group.values():
        for pos, row in enumerate(members):
            row.pos, row.group_size = pos, len(members)
    return {r.entrant.id: r for r in rows}


def order_cost(hi: Standing, lo: Standing) -> int:
    if hi.group == lo.group:
        return abs((lo.pos - hi.pos) - hi.group_size // 2)
    return (hi.group_size - 1 - hi.pos) + lo.pos
