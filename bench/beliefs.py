"""Beliefs on the board (engine/ai/beliefs.py): what ``/api/matches/{id}/beliefs`` costs on
a cache miss — the belief track of a whole log from one perspective — and how big it is.

Run: ``make bench`` or ``.venv/bin/python bench/beliefs.py``. For each game, a typical
bot-played log and the longest kind the site accepts (2,000 actions; Mister X and Cryptid
games end long before), timed from the all-seeing perspective (every seat's beliefs: the
largest answer) and one seat's: CPU seconds of this process (best of 3), the JSON's size
and its size gzipped at the level the cache stores it with.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import add_quick  # noqa: E402
from engine import get_game, play  # noqa: E402
from engine.ai.beliefs import belief_track  # noqa: E402

#: as replay.selectors stores a cached answer (not imported: that module needs Django)
GZIP_LEVEL = 3

CASES = [
    ("mister-x", 37, ["greedy"] * 3, {}, ["all", "detectives"]),
    ("mister-x", 7, ["greedy"] * 6, {}, ["all", "det1"]),
    ("cryptid-urban-legends", 0, ["greedy", "greedy"], {}, ["all", "cryptid"]),
    (
        "cloak-and-dagger",
        3,
        ["greedy"] * 4,
        {"double_agents": True, "hazards": True},
        ["all", "p2"],
    ),
    (
        "cloak-and-dagger",
        7,
        ["random"] * 6,
        {"double_agents": True, "hazards": True},
        ["all", "p1"],
    ),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_quick(parser)
    args = parser.parse_args()
    # --quick: the short logs only (every game), one timing each
    cases = [case for case in CASES if case[2] != ["random"] * 6] if args.quick else CASES
    repeat = 1 if args.quick else 3
    print(f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'game':24} {'actions':>7} {'view':>10} {'CPU s':>7} {'JSON KB':>8} {'gzip KB':>8}")
    for game_id, seed, bots, options, views in cases:
        game = get_game(game_id)
        log = play(game_id, seed, bots, options=options, max_actions=2000)
        for view in views:
            best = float("inf")
            for _ in range(repeat):
                start = time.process_time()
                track = belief_track(game, log, None if view == "all" else view)
                best = min(best, time.process_time() - start)
            body = json.dumps(track, separators=(",", ":")).encode()
            packed = gzip.compress(body, compresslevel=GZIP_LEVEL, mtime=0)
            print(
                f"{game_id:24} {len(log['actions']):>7} {view:>10} {best:>7.3f} "
                f"{len(body) / 1024:>8.0f} {len(packed) / 1024:>8.0f}"
            )


if __name__ == "__main__":
    main()
