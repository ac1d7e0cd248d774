"""Benchmark: pairing whole Swiss events with the pure pairing code (no database).

    .venv/bin/python bench/tournament_pairing.py [--players 37 101] [--rounds 8]

For each field size: a two-seat Swiss (networkx maximum-weight matching per
round) and, for the same field, Mister X tables of 4. Results are drawn from a
seeded generator (the stronger seed wins 60 %), so every run pairs the same
event. Prints per event the CPU time of this process for all rounds, the
slowest round, and the repeats / role spread reached, so a regression in
either speed or quality shows.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing import (  # noqa: E402
    Bye,
    Entrant,
    History,
    PlayedGame,
    pair_swiss,
    pair_swiss_tables,
)
from tournaments.seating import layout_of  # noqa: E402


def run(players: int, rounds: int, tables: bool) -> str:
    rng = random.Random(players * 1000 + rounds)
    field = [Entrant(i, f"p{i}", 2400 - 5 * i) for i in range(players)]
    history = History()
    layout = layout_of("mister-x")
    slowest = 0.0
    start = time.process_time()
    for round_no in range(1, rounds + 1):
        t0 = time.process_time()
        if tables:
            paired = pair_swiss_tables(field, history, table_size=4, seat_names=layout.seats,
                                       role_class=layout.role_class)
        else:
            paired = pair_swiss(field, history, roles=("cryptid", "scientist"))
        slowest = max(slowest, time.process_time() - t0)
        for table in paired:
            if table.is_bye:
                history.byes.append(Bye(round_no, table.players[0], 1.0))
                continue
            for seating in table.games:
                ids = [p for _s, p in seating]
                winner = min(ids) if rng.random() < 0.6 else rng.choice(ids)
                history.games.append(PlayedGame(round_no, seating,
                                                {p: float(p == winner) for p in ids}))
    total = time.process_time() - start
    repeats = sum(n - 1 for n in history.meetings().values())
    if tables:
        mrx = Counter(p for g in history.games for s, p in g.seats if s == "mrx")
        quality = f"repeat meetings {repeats}, most mrx turns {max(mrx.values())}"
    else:
        d: Counter = Counter()
        for g in history.games:
            d[g.seats[0][1]] += 1
            d[g.seats[1][1]] -= 1
        quality = f"repeat pairings {repeats}, largest role imbalance {max(map(abs, d.values()))}"
    kind = "Mister X tables of 4" if tables else "two-seat Swiss"
    return (f"{kind:22} {players:4} players x {rounds} rounds: {total:6.2f} s CPU, "
            f"slowest round {slowest:5.2f} s; {quality}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[37, 101])
    parser.add_argument("--rounds", type=int, default=8)
    args = parser.parse_args()
    for players in args.players:
        print(run(players, args.rounds, tables=False), flush=True)
        print(run(players, args.rounds, tables=True), flush=True)


if __name__ == "__main__":
    main()
