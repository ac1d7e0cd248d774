"""Pairing: round-robin, two-seat Swiss (whole events, hand-made rounds), Swiss tables.

The two-seat Swiss criteria are checked round by round against a brute-force
oracle in test_swiss_criteria.py.
"""

from __future__ import annotations

from collections import Counter

import pytest

from tournaments.pairing import (
    Bye,
    Entrant,
    History,
    PairingError,
    PlayedGame,
    pair_swiss,
    pair_swiss_tables,
    round_robin,
    table_sizes,
)

ROLES = ("cryptid", "scientist")


def entrants(n: int) -> list[Entrant]:
    return [Entrant(i, f"p{i}", 2000 - 10 * i) for i in range(n)]


def imbalance(history: History) -> Counter:
    d: Counter = Counter()
    for game in history.games:
        for seat, player in game.seats:
            d[player] += 1 if seat == ROLES[0] else -1
    return d


def play_round(history: History, tables, round_no: int, winners: list[bool]) -> None:
    for i, table in enumerate(tables):
        if table.is_bye:
            history.byes.append(Bye(round_no, table.players[0], 1.0))
            continue
        for game in table.games:
            first_wins = winners[(i + round_no) % len(winners)]
            win = game[0][1] if first_wins else game[1][1]
            history.games.append(PlayedGame(round_no, game, {p: float(p == win) for _s, p in game}))


# --- round-robin ---------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8, 11, 16, 37])
def test_round_robin_meets_every_pair_exactly_once(n: int) -> None:
    schedule = round_robin(entrants(n), ROLES)
    assert len(schedule) == (n if n % 2 else n - 1)
    met: Counter = Counter()
    byes: Counter = Counter()
    role_diff: Counter = Counter()
    for rnd in schedule:
        seen = [p for t in rnd for p in t.players]
        assert sorted(seen) == list(range(n)), "everyone exactly once per round"
        for table in rnd:
            if table.is_bye:
                byes[table.players[0]] += 1
                continue
            met[frozenset(table.players)] += 1
            (_r0, first), (_r1, second) = table.games[0]
            role_diff[first] += 1
            role_diff[second] -= 1
    assert len(met) == n * (n - 1) // 2
    assert set(met.values()) == {1}
    # Odd counts: everyone sits out exactly once; even: no byes.
    assert byes == (Counter(range(n)) if n % 2 else Counter())
    # Berger order: every player's roles end within one of each other.
    assert all(abs(v) <= 1 for v in role_diff.values())


def test_round_robin_double_plays_both_roles_each_pairing() -> None:
    schedule = round_robin(entrants(4), ROLES, double=True)
    for rnd in schedule:
        for table in rnd:
            a, b = table.games
            assert a[0][1] == b[1][1] and a[1][1] == b[0][1]


# --- Swiss (the criteria themselves: test_swiss_criteria.py) --------------------------


def role_breaks(history: History) -> list[tuple[int, str]]:
    """Players whose roles differed by three or who took one role three times in a row."""
    seq: dict = {}
    for game in sorted(history.games, key=lambda g: g.round):
        for seat, player in game.seats:
            seq.setdefault(player, []).append(seat)
    broken = []
    for player, roles in seq.items():
        for i in range(len(roles)):
            d = sum(1 if r == ROLES[0] else -1 for r in roles[: i + 1])
            if abs(d) > 2 or (i >= 2 and roles[i] == roles[i - 1] == roles[i - 2]):
                broken.append((player, roles[i]))
    return broken


def test_swiss_37_players_8_rounds_no_repeats_no_role_breaks() -> None:
    field = entrants(37)
    history = History()
    for round_no in range(1, 9):
        tables = pair_swiss(field, history, roles=ROLES)
        play_round(history, tables, round_no, [True, False, False, True, True])
    assert max(history.meetings().values()) == 1
    assert role_breaks(history) == []
    assert max(abs(v) for v in imbalance(history).values()) <= 2
    assert set(history.bye_count().values()) == {1} and len(history.byes) == 8


def test_swiss_37_players_strict_role_parity_keeps_roles_within_one() -> None:
    field = entrants(37)
    history = History()
    for round_no in range(1, 9):
        tables = pair_swiss(field, history, roles=ROLES, strict_roles=True)
        play_round(history, tables, round_no, [True, False, False, True, True])
    assert max(history.meetings().values()) == 1
    assert max(abs(v) for v in imbalance(history).values()) <= 1
    assert set(history.bye_count().values()) == {1} and len(history.byes) == 8


def test_swiss_round_one_pairs_top_half_against_bottom_half_alternating_roles() -> None:
    tables = pair_swiss(entrants(8), History(), roles=ROLES)
    assert [t.players for t in tables] == [(0, 4), (1, 5), (2, 6), (3, 7)]
    firsts = [t.games[0][0][1] for t in tables]
    assert firsts == [0, 5, 2, 7]  # the higher seed takes cryptid on odd boards
    assert (
        "same score group (0 pts), top half v bottom half; first meeting" in tables[0].explanation
    )


def test_swiss_odd_group_floats_its_lowest_player_down() -> None:
    # Round 1 of six: p0 (cryptid) beat p3, p1 (scientist) beat p4, p2 (cryptid) beat p5.
    history = History()
    for cryptid, scientist, winner in [(0, 3, 0), (4, 1, 1), (2, 5, 2)]:
        history.games.append(
            PlayedGame(
                1,
                (("cryptid", cryptid), ("scientist", scientist)),
                {cryptid: float(winner == cryptid), scientist: float(winner == scientist)},
            )
        )
    tables = pair_swiss(entrants(6), history, roles=ROLES)
    # The 1-point group {p0, p1, p2} is odd: p0 v p1 (top half v bottom half, and
    # their roles differ); p2, the lowest of the group, floats down to p3, the top of
    # the 0-point group; p4 v p5 remain.
    assert [t.players for t in tables] == [(0, 1), (2, 3), (4, 5)]
    assert "p2 floats down from the 1-point group to meet p3" in tables[1].explanation
    # Roles: everyone gets the role they are due.
    assert [t.games[0] for t in tables] == [
        (("cryptid", 1), ("scientist", 0)),
        (("cryptid", 3), ("scientist", 2)),
        (("cryptid", 5), ("scientist", 4)),
    ]


def test_forbidden_pairing_is_never_made_and_impossible_is_a_clear_error() -> None:
    forbidden = [frozenset((0, 4))]
    tables = pair_swiss(entrants(8), History(), roles=ROLES, forbidden=forbidden)
    assert all(frozenset(t.players) != frozenset((0, 4)) for t in tables)
    with pytest.raises(PairingError, match="forbidden pairings; left unpaired: p0, p1"):
        pair_swiss(entrants(2), History(), roles=ROLES, forbidden=[frozenset((0, 1))])


def test_double_plays_both_roles() -> None:
    tables = pair_swiss(entrants(4), History(), roles=ROLES, double=True)
    for table in tables:
        (first, second) = table.games
        assert [p for _s, p in first] == [p for _s, p in reversed(second)]


# --- Swiss tables ----------------------------------------------------------------------


def mrx_seats(n: int) -> list[str]:
    return ["mrx"] + [f"det{i}" for i in range(1, n)]


def mrx_role(seat: str) -> str:
    return "mrx" if seat == "mrx" else "detective"


@pytest.mark.parametrize(
    ("count", "size", "expected"),
    [
        (37, 4, [4] * 7 + [3] * 3),
        (12, 4, [4, 4, 4]),
        (7, 3, [3, 2, 2]),
        (5, 6, [5]),
    ],
)
def test_table_sizes(count: int, size: int, expected: list[int]) -> None:
    assert table_sizes(count, size, 2) == expected


def test_table_sizes_refuse_impossible_split() -> None:
    with pytest.raises(PairingError):
        table_sizes(1, 4, 2)


@pytest.mark.parametrize(("count", "size", "rounds"), [(16, 4, 3), (20, 3, 6), (9, 3, 4)])
def test_swiss_tables_avoid_repeats_and_rotate_mrx(count: int, size: int, rounds: int) -> None:
    # Each case has a repeat-free schedule (16 = 4x4 grid: rows, columns, a Latin
    # square; 9 = the affine plane of order 3, which uses all 4 rounds exactly).
    field = entrants(count)
    history = History()
    for round_no in range(1, rounds + 1):
        tables = pair_swiss_tables(
            field, history, table_size=size, seat_names=mrx_seats, role_class=mrx_role
        )
        assert sorted(p for t in tables for p in t.players) == list(range(count))
        for t in tables:
            (seating,) = t.games
            assert [s for s, _p in seating] == mrx_seats(len(t.players))
            winner_side = "mrx" if (round_no + t.board) % 2 else "detective"
            history.games.append(
                PlayedGame(
                    round_no, seating, {p: float(mrx_role(s) == winner_side) for s, p in seating}
                )
            )
    assert max(history.meetings().values()) == 1, "a repeat-free schedule exists"
    mrx_turns = Counter(p for g in history.games for s, p in g.seats if s == "mrx")
    fair_share = -(-len(history.games) // count)  # ceil(mrx seats / players)
    assert max(mrx_turns.values()) <= fair_share


def test_swiss_tables_explain_seats_and_keep_forbidden_apart() -> None:
    tables = pair_swiss_tables(
        entrants(8),
        History(),
        table_size=4,
        seat_names=lambda n: [f"p{i}" for i in range(1, n + 1)],
        forbidden=[frozenset((0, 1))],
    )
    assert all(not {0, 1} <= set(t.players) for t in tables)
    assert "swaps to avoid repeat meetings or forbidden pairs" in tables[0].explanation
    assert "sits p1 (held p1 0 times before)" in tables[0].explanation


def test_two_seat_mister_x_counts_roles_by_side_not_by_seat_name() -> None:
    # Mister X for two: seats mrx and det1, whose role class is "detectives". Round 1:
    # p0 and p2 were Mister X; in round 2 p1 and p3 are due mrx, p0 and p2 detectives.
    history = History(
        games=[
            PlayedGame(1, (("mrx", 0), ("det1", 1)), {0: 1.0, 1: 0.0}),
            PlayedGame(1, (("mrx", 2), ("det1", 3)), {2: 1.0, 3: 0.0}),
        ]
    )
    tables = pair_swiss(
        entrants(4),
        history,
        roles=("mrx", "det1"),
        role_class=lambda seat: "mrx" if seat == "mrx" else "detectives",
    )
    assert [t.games[0] for t in tables] == [
        (("mrx", 2), ("det1", 0)),  # both due detectives: the higher-ranked p0 has it
        (("mrx", 1), ("det1", 3)),  # both due mrx: p1 ranks higher
    ]
    assert "p0 takes det1 (mrx 1, det1 0 so far; as due (strong))" in tables[0].explanation
    assert (
        "p3 takes det1 (mrx 0, det1 1 so far; though due mrx (strong): p1 is due it too "
        "and ranks higher)" in tables[1].explanation
    )
