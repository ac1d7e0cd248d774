"""Benchmark: validating complete 4-player Cloak & Dagger logs on one core.

    .venv/bin/python bench/engine_cloak.py [--games 500] [--repeat 3]
        [--bots greedy,greedy,greedy,greedy] [--options '{"hazards": true}']

Plays ``--games`` games with the bots (seeds 0..N-1; by default 4 greedy bots;
games that reach the move cap without a winner are left out, and counted), then
times :func:`engine.replay` over the complete ones, best of ``--repeat`` runs, and
prints games/s and actions/s by the CPU time of
this process (the figure to hold against the target on a shared machine), with
the wall time beside it. Target: at least 1,000 games/s (issue 5).
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import add_quick  # noqa: E402
from engine import play, replay  # noqa: E402

TARGET_GAMES_PER_SECOND = 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--bots", default="greedy,greedy,greedy,greedy")
    parser.add_argument("--options", default="{}", help="the logs' options, as JSON")
    add_quick(parser)
    args = parser.parse_args()
    if args.quick:
        args.games, args.repeat = 10, 1
    bots, options = args.bots.split(","), json.loads(args.options)

    # Logs as an upload would bring them: parsed from JSON text, seed kept.
    logs = [
        json.loads(json.dumps(play("cloak-and-dagger", seed, bots, options=options)))
        for seed in range(args.games)
    ]
    unfinished = [log["seed"] for log in logs if log["result"] is None]
    if unfinished:  # only complete games are timed
        print(f"left out {len(unfinished)} games without a winner (seeds {unfinished[:10]})")
        logs = [log for log in logs if log["result"] is not None]
    if not logs:
        return 1
    actions = sum(len(log["actions"]) for log in logs)

    best, best_wall = float("inf"), float("inf")
    for _ in range(args.repeat):
        gc.collect()
        start, start_wall = time.process_time(), time.perf_counter()
        for log in logs:
            replay(log)
        best = min(best, time.process_time() - start)
        best_wall = min(best_wall, time.perf_counter() - start_wall)

    games_per_second = len(logs) / best
    print(
        f"cloak-and-dagger: {len(logs)} complete {len(bots)}-player games ({args.bots}, "
        f"options {options}), {actions} actions "
        f"({actions / len(logs):.1f} per game), best of {args.repeat}: "
        f"{best:.3f}s CPU, {best_wall:.3f}s wall"
    )
    print(
        f"  {games_per_second:,.0f} games/s, {actions / best:,.0f} actions/s "
        f"(target {TARGET_GAMES_PER_SECOND:,} games/s: "
        f"{'met' if games_per_second >= TARGET_GAMES_PER_SECOND else 'NOT met'})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
