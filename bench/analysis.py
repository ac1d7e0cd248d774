"""Match analysis time (engine/ai/analysis.py): a 100-action game at the default budget,
one core. Target: <= 60 s of CPU per 100-action game.

Run: ``make bench`` or ``.venv/bin/python bench/analysis.py [--budget N] [--games N]``.
For each game (Mister X, Cryptid, Cloak & Dagger), plays seeded games (greedy for
Mister X; random for Cryptid, whose greedy games are short; two greedy and two random
seats for Cloak & Dagger) and keeps the first ones
between 90 and 110 actions, then times ``analyse`` over each: CPU seconds of this process
(``time.process_time``: one core), scaled to 100 actions, with the wall clock and the
load average beside them.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import add_quick  # noqa: E402
from engine import play, replay  # noqa: E402
from engine.ai.analysis import DEFAULT_BUDGET, analyse  # noqa: E402

GAMES = {
    "mister-x": ["greedy", "greedy", "greedy"],
    "cryptid-urban-legends": ["random", "random"],
    # four seats; a random seat beside each greedy one makes the games about 100 turns
    "cloak-and-dagger": ["greedy", "random", "greedy", "random"],
}


def logs_near_100(
    game: str, bots: list[str], count: int, lengths: tuple[int, int] = (90, 110)
) -> list[dict]:
    found = []
    for seed in range(2000):
        log = play(game, seed, bots)
        if lengths[0] <= len(log["actions"]) <= lengths[1]:
            found.append(log)
            if len(found) == count:
                break
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--games", type=int, default=2, help="games per kind")
    parser.add_argument(
        "--game",
        action="append",
        choices=sorted(GAMES),
        help="only this game (repeatable; default: every game)",
    )
    add_quick(parser)
    args = parser.parse_args()
    # --quick: one short game of each kind at a small budget
    lengths = (5, 40) if args.quick else (90, 110)
    if args.quick:
        args.budget, args.games = 2, 1
    print(f"budget {args.budget} playouts per estimate; load average {os.getloadavg()[0]:.1f}")
    worst = 0.0
    for game, bots in GAMES.items():
        if args.game and game not in args.game:
            continue
        for log in logs_near_100(game, bots, args.games, lengths):
            rep = replay(log)
            cpu, wall = time.process_time(), time.perf_counter()
            result = analyse(rep, budget=args.budget)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            actions = len(rep.actions)
            per_100 = cpu * 100 / actions
            worst = max(worst, per_100)
            rated = sum(1 for m in result["moves"] if m["rated"])
            print(
                f"{game:24s} seed {log['seed']:4d}: {actions} actions ({rated} rated), "
                f"{cpu:5.1f} s CPU ({per_100:5.1f} s per 100 actions), {wall:5.1f} s wall"
            )
    print(f"worst: {worst:.1f} s CPU per 100 actions (target <= 60 s)")
    return 0 if worst <= 60 or args.quick else 1


if __name__ == "__main__":
    raise SystemExit(main())
