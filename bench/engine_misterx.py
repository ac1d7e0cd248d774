"""Benchmark: validating complete Mister X logs on europe/1, and the detectives'
possible-positions update per round, on one core.

    .venv/bin/python bench/engine_misterx.py [--games 300] [--repeat 3]
        [--bots greedy,greedy,greedy]

Plays ``--games`` games with the bots (seeds 0..N-1; by default Mister X and two
detective players, all greedy; games cut at the move cap are left out, and
counted), then times :func:`engine.replay` over the complete ones, seeded and
hand-recorded (seed removed: every refill checked against the bag), best of
``--repeat`` runs, by the CPU time of this process (the wall time beside it).
Target: at least 300 complete games/s (issue 4).

Then replays the same games once more, feeding the incremental possible-positions
tracker (:mod:`engine.games.misterx.possible`) at the end of every round, and
prints the mean and the worst CPU time per round. Target: at most 1 ms per round.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import play, replay  # noqa: E402
from engine.games.misterx.possible import Possible, board_masks  # noqa: E402

TARGET_GAMES_PER_SECOND = 300
TARGET_MS_PER_ROUND = 1.0


def time_replays(logs: list[dict], repeat: int) -> tuple[float, float]:
    best, best_wall = float("inf"), float("inf")
    for _ in range(repeat):
        gc.collect()
        start, start_wall = time.process_time(), time.perf_counter()
        for log in logs:
            replay(log)
        best = min(best, time.process_time() - start)
        best_wall = min(best_wall, time.perf_counter() - start_wall)
    return best, best_wall


def time_possible(logs: list[dict]) -> tuple[int, float, float]:
    """Rounds, mean and worst seconds per round of the tracker's update and query."""
    rounds, total, worst = 0, 0.0, 0.0
    for log in logs:
        tracker = None
        last_round = 1
        for _ply, _action, st in replay(log).states():
            if tracker is None:
                board_masks(st.board)  # built once per board, not per round
                mission = st.board.missions[st.mission]
                tracker = Possible(st.board, mission.starts, mission.destinations)
            if st.round != last_round or st.winner is not None:
                start = time.process_time()
                tracker.feed(st.events)
                tracker.current(game_over=st.winner is not None)
                spent = time.process_time() - start
                rounds += 1
                total += spent
                worst = max(worst, spent)
                last_round = st.round
    return rounds, total / max(rounds, 1), worst


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--bots", default="greedy,greedy,greedy")
    args = parser.parse_args()
    bots = args.bots.split(",")

    # Logs as an upload would bring them: parsed from JSON text.
    logs = [json.loads(json.dumps(play("mister-x", seed, bots))) for seed in range(args.games)]
    unfinished = [log["seed"] for log in logs if log["result"] is None]
    if unfinished:
        print(f"left out {len(unfinished)} games cut at the move cap (seeds {unfinished[:10]})")
        logs = [log for log in logs if log["result"] is not None]
    if not logs:
        return 1
    actions = sum(len(log["actions"]) for log in logs)
    ok = True
    for label, batch in (("seeded", logs), ("hand-recorded", [dict(log, seed=None) for log in logs])):
        cpu, wall = time_replays(batch, args.repeat)
        games_per_second = len(batch) / cpu
        print(f"mister-x ({label}): {len(batch)} complete {len(bots)}-seat games ({args.bots}), "
              f"{actions} actions: {games_per_second:.0f} games/s, {actions / cpu:.0f} actions/s "
              f"(CPU {cpu:.3f} s, wall {wall:.3f} s; target >= {TARGET_GAMES_PER_SECOND} games/s)")
        ok = ok and games_per_second >= TARGET_GAMES_PER_SECOND

    rounds, mean, worst = time_possible(logs)
    print(f"mister-x possible positions: {rounds} rounds, {mean * 1000:.3f} ms per round on average, "
          f"worst {worst * 1000:.3f} ms (target <= {TARGET_MS_PER_ROUND} ms)")
    ok = ok and mean * 1000 <= TARGET_MS_PER_ROUND
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
