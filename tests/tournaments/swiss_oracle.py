"""An independent judge of two-seat Swiss rounds, for the tests.

It recomputes from the raw history (games, byes) everything the criteria of
``tournaments.pairing`` speak of — points, meetings, role counts and streaks,
due roles, score groups — with plain code that shares nothing with the module,
and measures any pairing of a round by the criteria in their order. Brute force
over every pairing of a small field (:func:`every_pairing`) then says what the
best pairing of the round achieves, so a test can tell whether the module's
pairing is as good, and whether each claim of its explanations is true.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from tournaments.pairing import Entrant, History, Table

FIRST, SECOND = 0, 1
CLAIM_WORDS = {1: "mild", 2: "strong", 3: "absolute"}


@dataclass(frozen=True)
class RoleHistory:
    roles: tuple[int, ...]  # the single-role games played, in round order (0 first, 1 second)
    rounds: tuple[int, ...]

    @property
    def counts(self) -> tuple[int, int]:
        return self.roles.count(FIRST), self.roles.count(SECOND)

    @property
    def difference(self) -> int:
        first, second = self.counts
        return first - second

    def breaks(self, role: int) -> bool:
        """Rule 3: after ``role``, a difference past two or three in a row."""
        after = self.difference + (1 if role == FIRST else -1)
        return abs(after) > 2 or self.roles[-2:] == (role, role)

    def third_in_a_row(self, role: int) -> bool:
        return self.roles[-2:] == (role, role)

    def due(self) -> tuple[int | None, int]:
        """(due role, claim): 3 absolute, 2 strong, 1 mild, 0 none."""
        d = self.difference
        if d >= 2:
            return SECOND, 3
        if d <= -2:
            return FIRST, 3
        if len(self.roles) >= 2 and self.roles[-1] == self.roles[-2]:
            return 1 - self.roles[-1], 3
        if d == 1:
            return SECOND, 2
        if d == -1:
            return FIRST, 2
        if self.roles:
            return 1 - self.roles[-1], 1
        return None, 0

    def parity_excess(self, role: int) -> int:
        after = self.difference + (1 if role == FIRST else -1)
        return max(0, abs(after) - 1)


class Round:
    """The facts of the round about to be paired, recomputed from the raw history."""

    def __init__(
        self,
        field: Sequence[Entrant],
        history: History,
        roles: tuple[str, str],
        forbidden=(),
        strict: bool = False,
    ):
        self.field = list(field)
        self.ids = [e.id for e in field]
        self.roles = roles
        self.strict = strict
        self.forbidden = {frozenset(p) for p in forbidden}
        self.points: dict = defaultdict(float)
        met_in: dict = defaultdict(set)  # pair -> rounds (a double round is one meeting)
        self.byes: Counter = Counter()
        by_round: dict = defaultdict(dict)
        for game in history.games:
            players = [p for _s, p in game.seats]
            for p, pts in game.points.items():
                self.points[p] += pts
            met_in[frozenset(players)].add(game.round)
            if not game.forfeit:
                for seat, p in game.seats:
                    by_round[p][game.round] = roles.index(seat)
        self.met = Counter({pair: len(rounds) for pair, rounds in met_in.items()})
        for bye in history.byes:
            self.points[bye.player] += bye.points
            self.byes[bye.player] += 1
        self.history = {
            p: RoleHistory(
                tuple(r for _n, r in sorted(by_round[p].items())), tuple(sorted(by_round[p]))
            )
            for p in self.ids
        }
        # Score groups among this round's players, highest first; rank by points, rating, seed.
        scores = sorted({self.points[p] for p in self.ids}, reverse=True)
        self.group = {p: scores.index(self.points[p]) for p in self.ids}
        seed = {e.id: i for i, e in enumerate(field)}
        rating = {e.id: e.rating for e in field}
        ranked = sorted(self.ids, key=lambda p: (-self.points[p], -rating[p], seed[p]))
        self.rank = {p: i + 1 for i, p in enumerate(ranked)}
        members: dict = defaultdict(list)
        for p in ranked:
            members[self.group[p]].append(p)
        self.members = dict(members)
        self.name = {e.id: e.name for e in field}
        fewest = min(self.byes[p] for p in self.ids)
        self.may_have_bye = {p for p in self.ids if self.byes[p] == fewest}
        self._pairs: dict = {}

    # --- measuring one pair or one whole pairing ---------------------------------------

    def role_costs(self, first, second) -> tuple[int, int, int, int]:
        """(breaks, parity excess, due roles missed, strong claims missed)."""
        breaks = parity = missed = strong = 0
        for p, role in ((first, FIRST), (second, SECOND)):
            h = self.history[p]
            breaks += h.breaks(role)
            parity += h.parity_excess(role) if self.strict else 0
            due, claim = h.due()
            if due is not None and due != role:
                missed += 1
                strong += claim >= 2
        return breaks, parity, missed, strong

    def measure(self, pairs, bye, oriented: bool = False) -> tuple:
        """The criteria of a pairing, in order: (repeats, role breaks, bye group distance,
        parity excess, crossings per boundary, squared score gaps, missed due roles,
        missed strong claims). ``oriented``: each pair is (first role, second role) as
        seated; otherwise each pair counts its better orientation."""
        repeats = gaps = 0
        role_total = [0, 0, 0, 0]
        crossings = [0] * (len(self.members) - 1)
        for a, b in pairs:
            met, best, gap, top, bottom = self._pair(a, b)
            costs = self.role_costs(a, b) if oriented else best
            repeats += met
            gaps += gap
            for k in range(4):
                role_total[k] += costs[k]
            for h in range(top, bottom):
                crossings[h] += 1
        lowest = max(self.group[p] for p in self.may_have_bye)
        return (
            repeats,
            role_total[0],
            0 if bye is None else lowest - self.group[bye],
            role_total[1],
            tuple(crossings),
            gaps,
            role_total[2],
            role_total[3],
        )

    def _pair(self, a, b) -> tuple:
        """(meetings, better role costs, squared score gap, top and bottom group) of a
        pair, remembered: the brute force meets each pair many times."""
        key = (a, b) if self.rank[a] < self.rank[b] else (b, a)
        cached = self._pairs.get(key)
        if cached is None:
            groups = sorted((self.group[a], self.group[b]))
            cached = (
                self.met[frozenset(key)],
                min(self.role_costs(a, b), self.role_costs(b, a)),
                round(abs(self.points[a] - self.points[b]) * 100) ** 2,
                *groups,
            )
            self._pairs[key] = cached
        return cached

    def every_pairing(self) -> Iterator[tuple[list[tuple], object]]:
        """Every legal pairing: (pairs, bye) with no forbidden pair and the bye only to a
        player with the fewest byes. Plain recursion: the oracle, not the code under test."""

        def split(players: list) -> Iterator[list[tuple]]:
            if not players:
                yield []
                return
            first, rest = players[0], players[1:]
            for i, partner in enumerate(rest):
                if frozenset((first, partner)) in self.forbidden:
                    continue
                for more in split(rest[:i] + rest[i + 1 :]):
                    yield [(first, partner), *more]

        if len(self.ids) % 2:
            for bye in self.ids:
                if bye in self.may_have_bye:
                    for pairs in split([p for p in self.ids if p != bye]):
                        yield pairs, bye
        else:
            for pairs in split(list(self.ids)):
                yield pairs, None

    def measured(self) -> list[tuple[tuple, list[tuple], object]]:
        return [(self.measure(pairs, bye), pairs, bye) for pairs, bye in self.every_pairing()]

    @staticmethod
    def seated(tables: Sequence[Table]) -> tuple[list[tuple], object]:
        """The module's pairing as (first role, second role) pairs and the bye."""
        pairs, bye = [], None
        for table in tables:
            if table.is_bye:
                bye = table.players[0]
            else:
                ((first, second),) = [tuple(p for _s, p in game) for game in table.games[:1]]
                pairs.append((first, second))
        return pairs, bye
