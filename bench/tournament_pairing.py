"""Benchmark: pairing whole Swiss events with the pure pairing code (no database).

    .venv/bin/python bench/tournament_pairing.py [--players 33 101] [--rounds 8] [--repeat 3]

For each field size: a two-seat Swiss (networkx maximum-weight matching per
round), the same with strict role parity, and Mister X tables of 4. Results are
drawn from a seeded generator (the stronger seed wins 60 %, one game in ten is
drawn), so every run pairs the same event. Prints per event the CPU time of
this process for all rounds (best of ``--repeat``), the slowest round, and what
the pairing achieved — repeats, role breaks (a difference past two or three in
a row), the largest role difference, boards across score groups, the summed
score difference of the boards, and byes above the lowest group — so a
regression in either speed or quality shows.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import add_quick  # noqa: E402
from tournaments.pairing import (  # noqa: E402
    Bye,
    Entrant,
    History,
    PlayedGame,
    pair_swiss,
    pair_swiss_tables,
)
from tournaments.seating import layout_of  # noqa: E402

ROLES = ("cryptid", "scientist")


def play(
    players: int, rounds: int, pair: Callable[[list[Entrant], History], list]
) -> tuple[History, float, float, Counter]:
    """One event: (history, CPU seconds in all, slowest round, quality counts)."""
    rng = random.Random(players * 1000 + rounds)
    field = [Entrant(i, f"p{i}", 2400 - 5 * i) for i in range(players)]
    history = History()
    quality: Counter = Counter()
    slowest = total = 0.0
    for round_no in range(1, rounds + 1):
        points = history.points()
        t0 = time.process_time()
        paired = pair(field, history)
        spent = time.process_time() - t0
        total += spent
        slowest = max(slowest, spent)
        for table in paired:
            scores = [points.get(p, 0.0) for p in table.players]
            if table.is_bye:
                quality["bye above the lowest group"] += scores[0] > min(
                    points.get(e.id, 0.0) for e in field
                )
                history.byes.append(Bye(round_no, table.players[0], 1.0))
                continue
            quality["boards across groups"] += max(scores) != min(scores)
            quality["score difference"] += max(scores) - min(scores)
            for seating in table.games:
                ids = [p for _s, p in seating]
                if rng.random() < 0.1:
                    result = {p: 0.5 for p in ids}
                else:
                    winner = min(ids) if rng.random() < 0.6 else rng.choice(ids)
                    result = {p: float(p == winner) for p in ids}
                history.games.append(PlayedGame(round_no, seating, result))
    return history, total, slowest, quality


def two_seat_quality(history: History) -> str:
    sequence: dict = {}
    for game in history.games:
        for seat, player in game.seats:
            sequence.setdefault(player, []).append(seat)
    breaks = largest = 0
    for roles in sequence.values():
        d = 0
        for i, role in enumerate(roles):
            d += 1 if role == ROLES[0] else -1
            breaks += abs(d) > 2 or (i >= 2 and roles[i - 2] == roles[i - 1] == role)
            largest = max(largest, abs(d))
    repeats = sum(n - 1 for n in history.meetings().values())
    return f"repeats {repeats}, role breaks {breaks}, largest role difference {largest}"


def run(players: int, rounds: int, kind: str, repeat: int) -> str:
    layout = layout_of("mister-x")
    assert layout is not None
    pairs: dict[str, Callable[[list[Entrant], History], list]] = {
        "two-seat Swiss": lambda f, h: pair_swiss(f, h, roles=ROLES),
        "strict role parity": lambda f, h: pair_swiss(f, h, roles=ROLES, strict_roles=True),
        "Mister X tables of 4": lambda f, h: pair_swiss_tables(
            f, h, table_size=4, seat_names=layout.seats, role_class=layout.role_class
        ),
    }
    runs = [play(players, rounds, pairs[kind]) for _ in range(repeat)]
    history, _total, _slowest, quality = runs[0]
    total = min(r[1] for r in runs)
    slowest = min(r[2] for r in runs)
    if kind == "Mister X tables of 4":
        mrx = Counter(p for g in history.games for s, p in g.seats if s == "mrx")
        repeats = sum(n - 1 for n in history.meetings().values())
        achieved = f"repeat meetings {repeats}, most mrx turns {max(mrx.values())}"
    else:
        achieved = (
            f"{two_seat_quality(history)}; per round: boards across groups "
            f"{quality['boards across groups'] / rounds:.1f}, score difference "
            f"{quality['score difference'] / rounds:.1f}; byes above the lowest "
            f"group {quality['bye above the lowest group']}"
        )
    return (
        f"{kind:21} {players:4} players x {rounds} rounds: {total:6.2f} s CPU, "
        f"slowest round {slowest:5.2f} s; {achieved}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[33, 101])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3, help="runs per event (best CPU)")
    add_quick(parser)
    args = parser.parse_args()
    if args.quick:
        args.players, args.rounds, args.repeat = [9, 12], 3, 1
    for players in args.players:
        for kind in ("two-seat Swiss", "strict role parity", "Mister X tables of 4"):
            print(run(players, args.rounds, kind, args.repeat), flush=True)


if __name__ == "__main__":
    main()
