"""Swiss rounds of N-player games: tables cut from the standings, seats rotated."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Sequence

import networkx as nx

from tournaments.pairing.explanations import Counted, clauses, listing, role_name, sentence
from tournaments.pairing.records import (
    Entrant,
    History,
    PairingError,
    PlayerId,
    Seating,
    Table,
    identity,
)
from tournaments.pairing.standing import Standing, rank_players
from tournaments.pairing.swiss_explanations import said_who

_TABLE_REPEAT = 10**6

SITS = Counted(
    "{player} sits {seat} (held {role} {count} time before)",
    "{player} sits {seat} (held {role} {count} times before)",
)
REPEATS = Counted(
    "{count} repeat meeting could not be avoided", "{count} repeat meetings could not be avoided"
)


def table_sizes(player_count: int, table_size: int, min_size: int) -> list[int]:
    """Tables of ``table_size``, the last ones one smaller when the count does not divide."""
    if player_count < min_size:
        raise PairingError(f"{player_count} players cannot fill a table of {min_size}")
    tables = -(-player_count // table_size)
    short = tables * table_size - player_count
    if short > tables or (short and table_size - 1 < min_size):
        raise PairingError(
            f"{player_count} players do not split into tables of {table_size} (or {table_size - 1})"
        )
    return [table_size] * (tables - short) + [table_size - 1] * short


def pair_swiss_tables(
    entrants: Sequence[Entrant],
    history: History,
    *,
    table_size: int,
    seat_names: Callable[[int], Sequence[str]],
    role_class: Callable[[str], str] = identity,
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
    rows = rank_players(entrants, history, role_class)
    ranked = sorted(rows.values(), key=lambda r: r.rank)
    sizes = table_sizes(len(ranked), table_size, min_size)
    meetings = history.meetings()
    forbidden_pairs = {frozenset(p) for p in forbidden}

    def pair_cost(a: Standing, b: Standing) -> int:
        pair = frozenset((a.entrant.id, b.entrant.id))
        if pair in forbidden_pairs:
            return _TABLE_REPEAT * 1000
        return meetings.get(pair, 0) * _TABLE_REPEAT + (a.group - b.group) ** 2

    def table_cost(members: list[Standing]) -> int:
        return sum(pair_cost(a, b) for i, a in enumerate(members) for b in members[i + 1 :])

    tables: list[list[Standing]] = []
    start = 0
    for size in sizes:
        tables.append(ranked[start : start + size])
        start += size
    swapped: list[tuple[str, str]] = []
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
                            swapped.append((a.entrant.name, b.entrant.name))
                        else:
                            tables[ti][i], tables[tj][j] = a, b
        if not improved:
            break
    if any(table_cost(t) >= _TABLE_REPEAT * 1000 for t in tables):
        raise PairingError("no table plan keeps the forbidden pairings apart")

    seat_counts = history.seat_counts(identity)
    result: list[Table] = []
    for board, members in enumerate(tables, start=1):
        members.sort(key=lambda r: r.rank)
        seats = list(seat_names(len(members)))
        seating = _assign_seats(members, seats, role_class, seat_counts)
        repeats = sum(
            meetings.get(frozenset((a.entrant.id, b.entrant.id)), 0)
            for i, a in enumerate(members)
            for b in members[i + 1 :]
        )
        names = listing([said_who(r) for r in members])
        seat_text = clauses(
            [
                SITS(
                    rows[p].roles[role_class(seat)],
                    player=rows[p].entrant.name,
                    seat=role_name(seat, seats),
                    role=role_name(role_class(seat)),
                )
                for seat, p in seating
            ]
        )
        moved = [list(s) for s in swapped if any(r.entrant.name in s for r in members)]
        meetings = REPEATS(repeats) if repeats else sentence("no one has met before")
        values = {"size": len(members), "players": names, "meetings": meetings, "seats": seat_text}
        text = (
            sentence(
                "table of {size} cut from the standings: {players}; swaps to avoid "
                "repeat meetings or forbidden pairs: {swaps}; {meetings}; {seats}",
                swaps=listing(moved),
                **values,
            )
            if moved
            else sentence(
                "table of {size} cut from the standings: {players}; {meetings}; {seats}", **values
            )
        )
        result.append(Table(board, tuple(r.entrant.id for r in members), (seating,), text))
    return result


def _assign_seats(
    members: list[Standing],
    seats: list[str],
    role_class: Callable[[str], str],
    seat_counts: dict[PlayerId, Counter[str]],
) -> Seating:
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
            costs[(f"p{i}", f"s{j}")] = (role_times * (n + 1) + seat_times) * (n * n + 1) + abs(
                i - j
            )
    top = max(costs.values()) + 1
    for (u, v), c in costs.items():
        graph.add_edge(u, v, weight=top - c)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    seat_of: dict[int, int] = {}
    for u, v in matching:
        p, s = (u, v) if u.startswith("p") else (v, u)
        seat_of[int(s[1:])] = int(p[1:])
    return tuple((seat, members[seat_of[j]].entrant.id) for j, seat in enumerate(seats))
