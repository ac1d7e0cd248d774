"""Cloak & Dagger belief sampling (engine/ai/cloak/sampling.py): how each sample was
dealt and what it costs, by player count.

    .venv/bin/python bench/cloak_sampling.py [--games 3]

For 2 to 6 players, plays ``--games`` greedy games (default options) and, at every fifth
ply, deals two samples for every seat: counts the samples dealt exactly (rejection), by
the backtracking fallback and by the repair fallback (the module's docstring), and the
CPU per sample (``time.process_time``: one core), with the load average.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import add_quick  # noqa: E402
from engine import get_game, play, replay  # noqa: E402
from engine.ai.registry import ai_of  # noqa: E402
from engine.core.rng import Rng  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    add_quick(parser)
    args = parser.parse_args()
    # --quick: one game per player count, a few plies spread over it
    plies, every = (4, 25) if args.quick else (None, 5)
    if args.quick:
        args.games = 1
    game = get_game("cloak-and-dagger")
    print(f"load average {os.getloadavg()[0]:.1f}")
    for players in range(2, 7):
        ways: Counter[str] = Counter()
        cpu = 0.0
        for seed in range(args.games):
            sampled = 0
            for ply, _action, st in replay(
                play(game.id, 7000 + seed, ["greedy"] * players)
            ).states():
                if ply % every or game.is_over(st):
                    continue
                if plies is not None and sampled == plies:
                    break
                sampled += 1
                for seat in st.seats:
                    start = time.process_time()
                    beliefs = ai_of(game).beliefs(st, seat)
                    rng = Rng(ply)
                    for _ in range(2):
                        beliefs.sample(rng)
                        ways[beliefs.last] += 1
                    cpu += time.process_time() - start
        total = sum(ways.values())
        print(
            f"{players} players: {total} samples: exact {ways['exact']}, backtracking "
            f"{ways['backtracking']}, repaired {ways['repaired']}; "
            f"{1000 * cpu / total:.1f} ms CPU per sample"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
