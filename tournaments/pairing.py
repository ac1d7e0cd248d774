"""Pairing an event's rounds: pure Python, no Django.

Three formats share one vocabulary (:class:`Entrant`, :class:`PlayedGame`,
:class:`Bye`, :class:`Table`):

* :func:`round_robin` — the circle method (Berger tables), a bye for odd counts;
* :func:`pair_swiss` — two-seat Swiss rounds: score groups, no repeat opponents
  while a legal pairing exists, at most one bye per player, the bye in the
  lowest score group, floats down when a group is odd, and roles balanced like
  colours in a chess Swiss (or both roles per pairing with ``double``);
* :func:`pair_swiss_tables` — tables of N players (Mister X, Cloak & Dagger)
  with seats rotated across rounds.

The two-seat Swiss pairing is one maximum-weight perfect matching
(``networkx.max_weight_matching``) over a graph whose edge weights encode a
lexicographic cost; see :data:`SWISS_COST_LEVELS`. Every table carries an
explanation of why it was made, in words an organiser can check.

Players are identified by opaque ids (``PlayerId``); the order of the entrant
list is the seed order and breaks every remaining tie, so pairing is
deterministic.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field

import networkx as nx

PlayerId = int | str
Seating = tuple[tuple[str, PlayerId], ...]  # (seat, player) in seat order


class PairingError(Exception):
    """No pairing satisfies the hard constraints (forbidden pairings, table sizes)."""


@dataclass(frozen=True)
class Entrant:
    id: PlayerId
    name: str
    rating: float = 0.0


@dataclass(frozen=True)
class PlayedGame:
    """One game of a past round: who sat where and the points each player took."""

    round: int
    seats: Seating
    points: dict[PlayerId, float]
    #: a game scored without being played: counts as a meeting for pairing,
    #: and as nothing for the opponent-based tie-breaks
    forfeit: bool = False

    @property
    def players(self) -> list[PlayerId]:
        return [player for _seat, player in self.seats]


@dataclass(frozen=True)
class Bye:
    round: int
    player: PlayerId
    points: float


@dataclass(frozen=True)
class Table:
    """One pairing of a round: a board of two, a table of N, or a bye."""

    board: int
    players: tuple[PlayerId, ...]
    #: the games to play: one seating, or two (roles swapped) with ``double``;
    #: empty for a bye
    games: tuple[Seating, ...]
    explanation: str

    @property
    def is_bye(self) -> bool:
        return not self.games


@dataclass
class History:
    """What the pairing of the next round needs to know about the past ones."""

    games: list[PlayedGame] = field(default_factory=list)
    byes: list[Bye] = field(default_factory=list)

    def points(self) -> dict[PlayerId, float]:
        total: dict[PlayerId, float] = defaultdict(float)
        for game in self.games:
            for player, pts in game.points.items():
                total[player] += pts
        for bye in self.byes:
            total[bye.player] += bye.points
        return total

    def meetings(self) -> dict[frozenset[PlayerId], int]:
        """Rounds in which each pair of players met (a double pairing counts once)."""
        rounds: dict[frozenset[PlayerId], set[int]] = defaultdict(set)
        for game in self.games:
            players = game.players
            for i, a in enumerate(players):
                for b in players[i + 1 :]:
                    if a != b:
                        rounds[frozenset((a, b))].add(game.round)
        return {pair: len(rs) for pair, rs in rounds.items()}

    def seat_counts(self, role_class: Callable[[str], str]) -> dict[PlayerId, Counter[str]]:
        counts: dict[PlayerId, Counter[str]] = defaultdict(Counter)
        for game in self.games:
            if game.forfeit:
                continue
            for seat, player in game.seats:
                counts[player][role_class(seat)] += 1
        return counts

    def last_roles(self, role_class: Callable[[str], str]) -> dict[PlayerId, str]:
        last: dict[PlayerId, tuple[int, str]] = {}
        for game in self.games:
            if game.forfeit:
                continue
            for seat, player in game.seats:
                # In a double round both roles are played; neither is "last".
                if player in last and last[player][0] == game.round:
                    last[player] = (game.round, "")
                elif player not in last or last[player][0] < game.round:
                    last[player] = (game.round, role_class(seat))
        return {player: role for player, (_r, role) in last.items() if role}

    def bye_count(self) -> Counter[PlayerId]:
        return Counter(bye.player for bye in self.byes)


def fmt_points(value: float) -> str:
    """``3`` or ``2.5``: points as organisers write them."""
    return f"{value:g}"


def fmt_pts(value: float) -> str:
    """``1 pt``, ``2.5 pts``."""
    return f"{fmt_points(value)} pt" + ("" if value == 1 else "s")


def _identity(seat: str) -> str:
    return seat


# --------------------------------------------------------------------------------------
# Round-robin
# --------------------------------------------------------------------------------------


def round_robin(
    entrants: Sequence[Entrant],
    roles: tuple[str, str],
    *,
    double: bool = False,
) -> list[list[Table]]:
    """Every round of a round-robin, by the circle method, in Berger-table order.

    With an odd count a phantom joins the circle; whoever meets it has the bye.
    The rounds of the circle method are played in the order ``0, n/2, 2·n/2, …``
    (mod n−1), as Berger tables do, so that players alternate between the two
    rows of the circle and therefore between the two roles; the fixed player
    alternates by round. Each player's roles end within one of each other.
    """
    if len(entrants) < 2:
        raise PairingError("a round-robin needs at least two players")
    circle: list[Entrant | None] = list(entrants)
    if len(circle) % 2:
        circle.append(None)
    n = len(circle)
    fixed, others = circle[-1], circle[:-1]
    schedule: list[list[Table]] = []
    for round_index in range(n - 1):
        shift = (round_index * (n // 2)) % (n - 1)
        ring = others[shift:] + others[:shift]
        # (first, second): first takes roles[0]. The fixed player alternates.
        pairs = [(ring[0], fixed) if round_index % 2 == 0 else (fixed, ring[0])]
        pairs += [(ring[k], ring[n - 1 - k]) for k in range(1, n // 2)]
        tables: list[Table] = []
        bye_tables: list[Table] = []
        for first, second in pairs:
            if first is None or second is None:
                player = second if first is None else first
                assert player is not None
                bye_tables.append(
                    Table(0, (player.id,), (), f"bye: {player.name} sits out round "
                          f"{round_index + 1} of the circle (odd number of players)")
                )
                continue
            games: tuple[Seating, ...] = (((roles[0], first.id), (roles[1], second.id)),)
            explanation = (
                f"round-robin (circle method, Berger order): {first.name} meets "
                f"{second.name} in round {round_index + 1}; "
            )
            if double:
                games += (((roles[0], second.id), (roles[1], first.id)),)
                explanation += "both roles are played"
            else:
                explanation += (
                    f"{first.name} takes {roles[0]}, {second.name} takes {roles[1]} "
                    "(Berger tables alternate roles)"
                )
            tables.append(Table(0, (first.id, second.id), games, explanation))
        numbered = [
            Table(i + 1, t.players, t.games, t.explanation)
            for i, t in enumerate(tables + bye_tables)
        ]
        schedule.append(numbered)
    return schedule


# --------------------------------------------------------------------------------------
# Swiss, two seats
# --------------------------------------------------------------------------------------

#: The cost of pairing two players (or giving one the bye), compared level by
#: level: a pairing is better than another when it is better at the first level
#: where they differ. Each level is an integer per edge; the levels are packed
#: into one integer weight with a base larger than any total of the levels
#: below, so networkx's maximum-weight perfect matching minimises them in order.
SWISS_COST_LEVELS: tuple[tuple[str, str], ...] = (
    ("repeat", "the pair met before (per earlier meeting); a second bye counts as one"),
    ("role_excess", "a player's roles would differ by more than one"),
    ("bye_group", "the bye's score group lies this many groups above the lowest"),
    ("score_gap", "squared distance between the two players' score groups (a float)"),
    ("role_preference", "both players are due the same role"),
    ("order", "departure from top half v bottom half within a group; for a float, "
              "how far the floater is from the bottom of its group and its opponent "
              "from the top of theirs; for the bye, how far above the bottom of the "
              "lowest group the player stands"),
)

_BYE = "__bye__"


@dataclass
class _Standing:
    entrant: Entrant
    seed: int
    points: float
    rank: int = 0
    group: int = 0  # 0 = highest score group
    pos: int = 0  # position inside its group, 0 = top
    group_size: int = 0
    roles: Counter[str] = field(default_factory=Counter)
    last_role: str | None = None
    byes: int = 0

    def imbalance(self, roles: tuple[str, str]) -> int:
        return self.roles[roles[0]] - self.roles[roles[1]]

    def due(self, roles: tuple[str, str]) -> str | None:
        """The role this player should play next, if any."""
        d = self.imbalance(roles)
        if d > 0:
            return roles[1]
        if d < 0:
            return roles[0]
        if self.last_role in roles:
            return roles[1] if self.last_role == roles[0] else roles[0]
        return None


def _standings(entrants: Sequence[Entrant], history: History,
               role_class: Callable[[str], str]) -> dict[PlayerId, _Standing]:
    points = history.points()
    seat_counts = history.seat_counts(role_class)
    last = history.last_roles(role_class)
    byes = history.bye_count()
    rows = [
        _Standing(e, seed, points.get(e.id, 0.0), roles=seat_counts.get(e.id, Counter()),
                  last_role=last.get(e.id), byes=byes.get(e.id, 0))
        for seed, e in enumerate(entrants)
    ]
    rows.sort(key=lambda r: (-r.points, -r.entrant.rating, r.seed))
    groups = sorted({r.points for r in rows}, reverse=True)
    by_group: dict[float, list[_Standing]] = defaultdict(list)
    for rank, row in enumerate(rows):
        row.rank = rank + 1
        row.group = groups.index(row.points)
        by_group[row.points].append(row)
    for members in by_group.values():
        for pos, row in enumerate(members):
            row.pos, row.group_size = pos, len(members)
    return {r.entrant.id: r for r in rows}


def _role_excess(a: _Standing, b: _Standing, roles: tuple[str, str], a_first: bool) -> int:
    da, db = a.imbalance(roles), b.imbalance(roles)
    da, db = (da + 1, db - 1) if a_first else (da - 1, db + 1)
    return max(0, abs(da) - 1) + max(0, abs(db) - 1)


def _pair_costs(a: _Standing, b: _Standing, meetings: int, roles: tuple[str, str],
                double: bool) -> tuple[int, ...]:
    hi, lo = (a, b) if a.rank < b.rank else (b, a)
    excess = 0 if double else min(_role_excess(a, b, roles, True),
                                  _role_excess(a, b, roles, False))
    clash = 0
    if not double:
        due_a, due_b = a.due(roles), b.due(roles)
        clash = int(due_a is not None and due_a == due_b)
    if hi.group == lo.group:
        order = abs((lo.pos - hi.pos) - hi.group_size // 2)
    else:
        order = (hi.group_size - 1 - hi.pos) + lo.pos
    gap = (lo.group - hi.group) ** 2
    return (meetings, excess, 0, gap, clash, order)


def _bye_costs(p: _Standing, lowest_group: int) -> tuple[int, ...]:
    return (p.byes, 0, lowest_group - p.group, 0, 0, p.group_size - 1 - p.pos)


def _pack(costs: dict[tuple[str, str], tuple[int, ...]], matched_edges: int) -> dict:
    """Integer weights whose maximum-weight perfect matching minimises the cost levels
    lexicographically."""
    levels = len(SWISS_COST_LEVELS)
    bounds = [matched_edges * max((c[k] for c in costs.values()), default=0) + 1
              for k in range(levels)]
    multipliers = [1] * levels
    for k in range(levels - 2, -1, -1):
        multipliers[k] = multipliers[k + 1] * bounds[k + 1]
    packed = {edge: sum(c[k] * multipliers[k] for k in range(levels))
              for edge, c in costs.items()}
    top = max(packed.values(), default=0) + 1
    return {edge: top - value for edge, value in packed.items()}


def pair_swiss(
    entrants: Sequence[Entrant],
    history: History,
    *,
    roles: tuple[str, str],
    double: bool = False,
    forbidden: Collection[frozenset[PlayerId]] = (),
    role_class: Callable[[str], str] = _identity,
) -> list[Table]:
    """Pair the next Swiss round of a two-seat game.

    ``entrants`` are the players taking part in this round, in seed order.
    ``forbidden`` pairs are never paired (a :class:`PairingError` when that leaves
    no pairing). Everything else is a cost (:data:`SWISS_COST_LEVELS`): a repeat
    or a second bye happens only when no pairing avoids it.
    """
    if len(entrants) < 2:
        raise PairingError("a Swiss round needs at least two players")
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise PairingError("a player is entered twice")
    rows = _standings(entrants, history, role_class)
    meetings = history.meetings()
    forbidden_pairs = {frozenset(p) for p in forbidden}
    lowest = max(r.group for r in rows.values())

    costs: dict[tuple[str, str], tuple[int, ...]] = {}
    key = {pid: f"p{rows[pid].seed}" for pid in ids}
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            if frozenset((a, b)) in forbidden_pairs:
                continue
            costs[(key[a], key[b])] = _pair_costs(
                rows[a], rows[b], meetings.get(frozenset((a, b)), 0), roles, double)
    if len(ids) % 2:
        fewest = min(r.byes for r in rows.values())
        for pid in ids:
            # At most one bye per player: only those with the fewest byes may get it.
            if rows[pid].byes == fewest:
                costs[(key[pid], _BYE)] = _bye_costs(rows[pid], lowest)
    node_count = len(ids) + len(ids) % 2
    weights = _pack(costs, node_count // 2)
    graph = nx.Graph()
    graph.add_nodes_from(sorted(key.values()))
    for (u, v), w in weights.items():
        graph.add_edge(u, v, weight=w)
    matching = nx.max_weight_matching(graph, maxcardinality=True, weight="weight")
    if len(matching) * 2 != node_count:
        matched = {n for edge in matching for n in edge}
        by_key = {k: pid for pid, k in key.items()}
        left = sorted(rows[by_key[k]].entrant.name for k in key.values() if k not in matched)
        raise PairingError(
            "no pairing exists that respects the forbidden pairings; left unpaired: "
            + ", ".join(left))

    by_key = {k: pid for pid, k in key.items()}
    boards: list[tuple[_Standing, _Standing, tuple[int, ...]]] = []
    bye_row: _Standing | None = None
    for u, v in matching:
        if _BYE in (u, v):
            bye_row = rows[by_key[v if u == _BYE else u]]
            continue
        a, b = rows[by_key[u]], rows[by_key[v]]
        hi, lo = (a, b) if a.rank < b.rank else (b, a)
        c = costs.get((u, v)) or costs[(v, u)]
        boards.append((hi, lo, c))
    boards.sort(key=lambda t: (t[0].group, min(t[0].rank, t[1].rank)))

    any_repeat_free = all(c[0] == 0 for _h, _l, c in boards) and (
        bye_row is None or bye_row.byes == 0)
    tables: list[Table] = []
    for board, (hi, lo, c) in enumerate(boards, start=1):
        games, role_text = _assign_roles(hi, lo, roles, double, board)
        text = _explain_pair(hi, lo, c, role_text, any_repeat_free)
        tables.append(Table(board, (hi.entrant.id, lo.entrant.id), games, text))
    if bye_row is not None:
        tables.append(Table(len(tables) + 1, (bye_row.entrant.id,), (),
                            _explain_bye(bye_row, rows, lowest)))
    return tables


def _assign_roles(hi: _Standing, lo: _Standing, roles: tuple[str, str], double: bool,
                  board: int) -> tuple[tuple[Seating, ...], str]:
    """Who plays which role, as a chess Swiss gives colours: never more than one role
    ahead when avoidable, then both players' due roles, then the higher-ranked
    player's, then alternating by board in the first round."""
    if double:
        games = (((roles[0], hi.entrant.id), (roles[1], lo.entrant.id)),
                 ((roles[0], lo.entrant.id), (roles[1], hi.entrant.id)))
        return games, "double: each plays both roles"

    def badness(hi_first: bool) -> tuple[int, int, int, int]:
        excess = _role_excess(hi, lo, roles, hi_first)
        hi_role = roles[0] if hi_first else roles[1]
        lo_role = roles[1] if hi_first else roles[0]
        hi_due, lo_due = hi.due(roles), lo.due(roles)
        # A stronger preference (a larger imbalance) wins a clash; then rank.
        hi_miss = int(hi_due is not None and hi_due != hi_role)
        lo_miss = int(lo_due is not None and lo_due != lo_role)
        strength = abs(hi.imbalance(roles)) * hi_miss + abs(lo.imbalance(roles)) * lo_miss
        no_pref_parity = int(hi_due is None and lo_due is None and hi_first != (board % 2 == 1))
        return (excess, hi_miss + lo_miss, strength * 2 + hi_miss, no_pref_parity)

    hi_first = badness(True) <= badness(False)
    first, second = (hi, lo) if hi_first else (lo, hi)
    games = (((roles[0], first.entrant.id), (roles[1], second.entrant.id)),)

    def so_far(r: _Standing) -> str:
        return f"{roles[0]} {r.roles[roles[0]]}, {roles[1]} {r.roles[roles[1]]} so far"

    parts = []
    for r, role in ((first, roles[0]), (second, roles[1])):
        due = r.due(roles)
        why = ("as due" if due == role else "no role due" if due is None
               else f"though due {due}")
        parts.append(f"{r.entrant.name} takes {role} ({so_far(r)}; {why})")
    return games, "; ".join(parts)


def _explain_pair(hi: _Standing, lo: _Standing, costs: tuple[int, ...], role_text: str,
                  repeat_free: bool) -> str:
    def who(r: _Standing) -> str:
        return f"{r.entrant.name} (#{r.rank}, {fmt_pts(r.points)})"

    if hi.group == lo.group:
        half = "top half v bottom half" if costs[5] == 0 else \
            "nearest to top half v bottom half that the other constraints allow"
        grouping = f"same score group ({fmt_pts(hi.points)}), {half}"
    else:
        grouping = (f"{hi.entrant.name} floats down from the {fmt_points(hi.points)}-point "
                    f"group to meet {lo.entrant.name} of the {fmt_points(lo.points)}-point "
                    "group (its group could not be paired wholly within itself: an odd "
                    "count, earlier meetings or roles)")
    if costs[0] == 0:
        meeting = "first meeting"
    else:
        meeting = (f"meeting number {costs[0] + 1}: no pairing of this round avoids every "
                   "repeat" if not repeat_free else f"meeting number {costs[0] + 1}")
    excess = "; a role imbalance of two could not be avoided" if costs[1] else ""
    return f"{who(hi)} v {who(lo)}: {grouping}; {meeting}; {role_text}{excess}"


def _explain_bye(r: _Standing, rows: dict[PlayerId, _Standing], lowest: int) -> str:
    lowest_points = min(x.points for x in rows.values())
    where = (f"the lowest score group ({fmt_pts(lowest_points)})" if r.group == lowest
             else f"the {fmt_points(r.points)}-point group, the lowest from which a bye "
                  "left the rest pairable")
    previous = ("has had no bye" if r.byes == 0
                else f"every player has had a bye already; this is {r.entrant.name}'s "
                     f"number {r.byes + 1}")
    return (f"bye: odd number of players; {r.entrant.name} (#{r.rank}, "
            f"{fmt_pts(r.points)}) is in {where}, ranked lowest there among players "
            f"who could take it, and {previous}")


# --------------------------------------------------------------------------------------
# Swiss, tables of N
# --------------------------------------------------------------------------------------

_TABLE_REPEAT = 10**6


def table_sizes(player_count: int, table_size: int, min_size: int) -> list[int]:
    """Tables of ``table_size``, the last ones one smaller when the count does not divide."""
    if player_count < min_size:
        raise PairingError(f"{player_count} players cannot fill a table of {min_size}")
    tables = -(-player_count // table_size)
    short = tables * table_size - player_count
    if short > tables or (short and table_size - 1 < min_size):
        raise PairingError(
            f"{player_count} players do not split into tables of {table_size} "
            f"(or {table_size - 1})")
    return [table_size] * (tables - short) + [table_size - 1] * short


def pair_swiss_tables(
    entrants: Sequence[Entrant],
    history: History,
    *,
    table_size: int,
    seat_names: Callable[[int], Sequence[str]],
    role_class: Callable[[str], str] = _identity,
    min_size: int = 2,
    forbidden: Collection[frozenset[PlayerId]] = (),
    max_passes: int = 30,
) -> list[Table]:
    """Pair the next Swiss round of an N-player game as tables.

    Tables are cut from the standings in order (the top ``table_size`` players
    at table 1, …; the last tables one smaller when the count does not divide),
    then players are swapped between tables while a swap lowers the table cost:
    forbidden pairs, then repeat meetings, then the spread of score groups at a
    table (sum of squared group distances). Seats are then assigned per table as a
    minimum-cost assignment (networkx matching) that rotates each player through
    the roles (``role_class``) and seats they have held least.
    """
    rows = _standings(entrants, history, role_class)
    ranked = sorted(rows.values(), key=lambda r: r.rank)
    sizes = table_sizes(len(ranked), table_size, min_size)
    meetings = history.meetings()
    forbidden_pairs = {frozenset(p) for p in forbidden}

    def pair_cost(a: _Standing, b: _Standing) -> int:
        pair = frozenset((a.entrant.id, b.entrant.id))
        if pair in forbidden_pairs:
            return _TABLE_REPEAT * 1000
        return meetings.get(pair, 0) * _TABLE_REPEAT + (a.group - b.group) ** 2

    def table_cost(members: list[_Standing]) -> int:
        return sum(pair_cost(a, b) for i, a in enumerate(members) for b in members[i + 1 :])

    tables: list[list[_Standing]] = []
    start = 0
    for size in sizes:
        tables.append(ranked[start : start + size])
        start += size
    swapped: list[str] = []
    for _ in range(max_passes):
        improved = False
        for ti in range(len(tables)):
            for tj in range(ti + 1, len(tables)):
                for i in range(len(tables[ti])):
                    for j in range(len(tables[tj])):
                        before = table_cost(tables[ti]) + table_cost(tables[tj])
                        a, b = tables[ti][i], tables[tj][j]
                        tables[ti][i], tables[tj][j] = b, a
                        after = table_cost(tables[ti]) + table_cost(tables[tj])
                        if after < before:
                            improved = True
                            swapped.append(f"{a.entrant.name} and {b.entrant.name}")
                        else:
                            tables[ti][i], tables[tj][j] = a, b
        if not improved:
            break
    if any(table_cost(t) >= _TABLE_REPEAT * 1000 for t in tables):
        raise PairingError("no table plan keeps the forbidden pairings apart")

    seat_counts = history.seat_counts(_identity)
    result: list[Table] = []
    for board, members in enumerate(tables, start=1):
        members.sort(key=lambda r: r.rank)
        seats = list(seat_names(len(members)))
        seating = _assign_seats(members, seats, role_class, seat_counts)
        repeats = sum(meetings.get(frozenset((a.entrant.id, b.entrant.id)), 0)
                      for i, a in enumerate(members) for b in members[i + 1 :])
        names = ", ".join(f"{r.entrant.name} (#{r.rank}, {fmt_pts(r.points)})"
                          for r in members)
        seat_text = "; ".join(
            f"{rows[p].entrant.name} sits {seat} (held {role_class(seat)} "
            f"{rows[p].roles[role_class(seat)]} times before)" for seat, p in seating)
        moved = [s for s in swapped if any(r.entrant.name in s for r in members)]
        text = (f"table of {len(members)} cut from the standings: {names}; "
                + (f"swaps to avoid repeat meetings or forbidden pairs: {', '.join(moved)}; "
                   if moved else "")
                + (f"{repeats} repeat meeting(s) could not be avoided; " if repeats
                   else "no one has met before; ")
                + seat_text)
        result.append(Table(board, tuple(r.entrant.id for r in members), (seating,), text))
    return result


def _assign_seats(members: list[_Standing], seats: list[str],
                  role_class: Callable[[str], str],
                  seat_counts: dict[PlayerId, Counter[str]]) -> Seating:
    """Seats for one table: fewest times in the seat's role first, then in the exact
    seat, then the higher-ranked player in the earlier seat; a maximum-weight
    perfect matching of players to seats."""
    graph = nx.Graph()
    costs: dict[tuple[str, str], int] = {}
    n = len(members)
    for i, r in enumerate(members):
        for j, seat in enumerate(seats):
            role_times = r.roles[role_class(seat)]
            seat_times = seat_counts.get(r.entrant.id, Counter())[seat]
            costs[(f"p{i}", f"s{j}")] = (role_times * (n + 1) + seat_times) * (n * n + 1) \
                + abs(i - j)
    top = max(costs.values()) + 1
    for (u, v), c in costs.items():
        graph.add_edge(u, v, weight=top - c)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    seat_of: dict[int, int] = {}
    for u, v in matching:
        p, s = (u, v) if u.startswith("p") else (v, u)
        seat_of[int(s[1:])] = int(p[1:])
    return tuple((seat, members[seat_of[j]].entrant.id) for j, seat in enumerate(seats))
