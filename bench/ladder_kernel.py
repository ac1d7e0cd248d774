"""Benchmark: the pure rating kernel over 1,000,000 synthetic matches (target <= 5 s, one core).

    .venv/bin/python bench/ladder_kernel.py [--matches N] [--repeat R]
        [--shape mixed|two_seats|team|free_for_all|all]

The matches are generated before the clock starts (seeded, so every run rates the
same stream): 2,000 players per ladder; Cryptid: Urban Legends two-seat matches, Mister X
with 1-5 detective players holding the 5 pawns, Cloak & Dagger with 2-6 players.
"mixed" cycles the three games (three ladders, one kernel each) with the default
options (role advantage estimated). Timed: rating the stream, including building
every per-player change record (EL-7.1). Prints one line per run with the CPU
time of this process (the figure to hold against the target on a shared machine)
and the wall time, then per shape the best and the median of the R runs (default
3: "all" runs each shape, so ``--shape all`` is the full check) with the load
average, since other processes on the machine slow even the CPU time down.

Measured figures, before and after the kernel's speed work: bench/README.md.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import add_quick  # noqa: E402
from ladder.kernel import LadderOptions, RatingKernel  # noqa: E402

PLAYERS = 2000
PAWN_SPLITS = [(5,), (3, 2), (2, 2, 1), (2, 1, 1, 1), (1, 1, 1, 1, 1)]


def synthetic(shape: str, count: int, rng: random.Random) -> list[tuple]:
    matches: list[tuple] = []
    sample, choice, random_ = rng.sample, rng.choice, rng.random
    for _ in range(count):
        if shape == "two_seats":
            a, b = sample(range(PLAYERS), 2)
            matches.append((a, b, random_() < 0.55))
        elif shape == "team":
            split = choice(PAWN_SPLITS)
            who = sample(range(PLAYERS), len(split) + 1)
            matches.append((who[0], list(zip(who[1:], split, strict=True)), random_() < 0.45))
        else:
            who = sample(range(PLAYERS), rng.randint(2, 6))
            matches.append((who, choice(who)))
    return matches


def run(shape: str, count: int) -> tuple[float, float]:
    rng = random.Random(20261123)
    if shape == "mixed":
        thirds = [count // 3 + (1 if i < count % 3 else 0) for i in range(3)]
        streams = [
            synthetic(s, n, rng)
            for s, n in zip(("two_seats", "team", "free_for_all"), thirds, strict=True)
        ]
    else:
        streams = [synthetic(shape, count, rng)]
    # The synthetic input is not the kernel's work: keep the collector from
    # rescanning it while the kernel allocates its change records.
    gc.collect()
    gc.freeze()
    options = LadderOptions()
    cryptid, misterx, cloak = RatingKernel(options), RatingKernel(options), RatingKernel(options)
    two, team, ffa = cryptid.rate_two_seats, misterx.rate_one_against_team, cloak.rate_free_for_all
    records = 0
    start, start_cpu = time.perf_counter(), time.process_time()
    if shape == "two_seats" or shape == "mixed":
        for a, b, a_won in streams[0]:
            records += len(two(a, "cryptid", b, "scientist", a_won))
    if shape == "team" or shape == "mixed":
        for solo, members, solo_won in streams[-2 if shape == "mixed" else 0]:
            records += len(team(solo, members, solo_won, "mrx", "detectives"))
    if shape == "free_for_all" or shape == "mixed":
        for players, winner in streams[-1]:
            records += len(ffa(players, winner))
    elapsed, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    print(
        f"ladder kernel [{shape}]: {count:,} matches, {records:,} change records: "
        f"{cpu:.2f} s CPU, {elapsed:.2f} s wall ({cpu / count * 1e6:.2f} us CPU/match; "
        "target 1,000,000 in <= 5 s on one core)"
    )
    gc.unfreeze()
    return cpu, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3, help="runs per shape (default 3)")
    parser.add_argument(
        "--shape", choices=["mixed", "two_seats", "team", "free_for_all", "all"], default="mixed"
    )
    add_quick(parser)
    args = parser.parse_args()
    if args.quick:
        args.matches, args.repeat, args.shape = 20_000, 1, "all"
    shapes = ["mixed", "two_seats", "team", "free_for_all"] if args.shape == "all" else [args.shape]
    for shape in shapes:
        runs = sorted(run(shape, args.matches) for _ in range(args.repeat))
        cpus, walls = sorted(cpu for cpu, _ in runs), sorted(wall for _, wall in runs)
        middle = len(runs) // 2
        print(
            f"  => [{shape}] best {cpus[0]:.2f} s CPU / {walls[0]:.2f} s wall, median "
            f"{cpus[middle]:.2f} s CPU / {walls[middle]:.2f} s wall over {len(runs)} runs "
            f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores): "
            f"{'within' if cpus[middle] <= 5.0 * args.matches / 1_000_000 else 'OVER'} the target"
        )


if __name__ == "__main__":
    main()
