"""Validation speed of the Cryptid engine: 1,000 seeded greedy games, one core.

Run: ``make bench`` or ``.venv/bin/python bench/engine_cryptid.py [--games N]``.
Plays N games with the greedy bots (not timed as validation), then times
``engine.replay`` over them: from parsed documents, and from JSON text (parse +
replay, what re-validating stored logs costs). Target: >= 1,000 games/s.

Figures are per CPU second of this process (``time.process_time``: one core's
capacity, not disturbed by other work on a shared machine), with wall-clock
figures and the load average beside them for context.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import add_quick  # noqa: E402
from engine import parse_json, play, replay  # noqa: E402

GAME = "cryptid-urban-legends"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--bots", default="greedy,greedy")
    parser.add_argument("--repeat", type=int, default=3, help="timed passes; the best is reported")
    add_quick(parser)
    args = parser.parse_args()
    if args.quick:
        args.games, args.repeat = 20, 1

    started = time.perf_counter()
    logs = [play(GAME, seed, args.bots.split(",")) for seed in range(args.games)]
    played = time.perf_counter() - started
    texts = [json.dumps(log) for log in logs]
    actions = sum(len(log["actions"]) for log in logs)
    print(
        f"played {args.games} {args.bots} games ({actions} actions) in {played:.2f} s "
        f"({args.games / played:,.0f} games/s)"
    )

    def timed(label: str, run) -> float:
        cpu = wall = float("inf")
        for _ in range(args.repeat):
            c0, w0 = time.process_time(), time.perf_counter()
            run()
            cpu = min(cpu, time.process_time() - c0)
            wall = min(wall, time.perf_counter() - w0)
        print(
            f"validate {label}: {args.games / cpu:,.0f} games/s, {actions / cpu:,.0f} actions/s "
            f"per CPU second ({cpu * 1000:.0f} ms CPU for {args.games} games, best of "
            f"{args.repeat}); "
            f"wall clock {args.games / wall:,.0f} games/s"
        )
        return args.games / cpu

    def from_documents() -> None:
        for log in logs:
            replay(log)

    def from_text() -> None:
        for text in texts:
            replay(parse_json(text))

    seedless = [{**log, "seed": None} for log in logs]

    def without_seed() -> None:  # as recorded at a table: every draw checked against the piles
        for log in seedless:
            replay(log)

    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    timed("parsed logs", from_documents)
    slowest = min(timed("JSON text  ", from_text), timed("no seed    ", without_seed))
    print(
        f"target 1,000 games/s per core (JSON text included): "
        f"{'met' if slowest >= 1000 else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
