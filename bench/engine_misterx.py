"""Benchmark: the Mister X engine on europe/1, on one core: validating complete logs
(``apply``), listing legal actions, cloning states, and the detectives'
possible-positions update per round.

    .venv/bin/python bench/engine_misterx.py [--games 300] [--repeat 3]
        [--bots greedy,greedy,greedy] [--logs FILE]

Plays ``--games`` games with the bots (seeds 0..N-1; by default Mister X and two
detective players, all greedy; games cut at the move cap are left out, and
counted), or reads them from ``--logs FILE`` (written there when the file does
not exist yet, so a before/after comparison runs two checkouts on the same logs).

Timed, best of ``--repeat`` runs, by the CPU time of this process (the wall time
beside it):

* ``apply``: :func:`engine.replay` over the complete logs, seeded and hand-recorded
  (seed removed: every refill checked against the bag). Target: at least 300
  complete games/s (issue 4).
* ``legal``: ``legal_actions`` for every seat that may act, in every state of those
  games (what a search asks at every node); the first run's CPU beside it (the engine
  builds its tables of actions as it first lists them).
* ``clone``: ``clone`` of every state of those games (a search clones per playout).

Then replays the same games once more, feeding the incremental possible-positions
tracker (:mod:`engine.games.misterx.knowledge`) at the end of every round, and
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

from bench.common import add_quick  # noqa: E402
from engine import get_game, play, replay  # noqa: E402
from engine.games.misterx.knowledge import Possible, board_masks  # noqa: E402

TARGET_GAMES_PER_SECOND = 300
TARGET_MS_PER_ROUND = 1.0
GAME = get_game("mister-x")


#: CPU seconds of the first of the last ``best_of``'s runs (for ``legal``: the engine's
#: tables of actions are built during it; a search lists the same actions again and again)
FIRST: list[float] = [0.0]


def best_of(repeat: int, run) -> tuple[float, float]:
    """Best CPU and best wall seconds of ``repeat`` calls of ``run()``."""
    best, best_wall = float("inf"), float("inf")
    for i in range(repeat):
        gc.collect()
        start, start_wall = time.process_time(), time.perf_counter()
        run()
        spent = time.process_time() - start
        if i == 0:
            FIRST[0] = spent
        best = min(best, spent)
        best_wall = min(best_wall, time.perf_counter() - start_wall)
    return best, best_wall


def all_states(logs: list[dict]) -> list:
    """Every state of every game (setup and after each action), each its own copy."""
    return [GAME.clone(st) for log in logs for _ply, _action, st in replay(log).states()]


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


def load_logs(args: argparse.Namespace, bots: list[str]) -> list[dict]:
    path = Path(args.logs) if args.logs else None
    if path is not None and path.exists():
        return json.loads(path.read_text())
    # Logs as an upload would bring them: parsed from JSON text.
    logs = [json.loads(json.dumps(play("mister-x", seed, bots))) for seed in range(args.games)]
    if path is not None:
        path.write_text(json.dumps(logs))
    return logs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--bots", default="greedy,greedy,greedy")
    parser.add_argument(
        "--logs", help="read the logs from this JSON file (written first when absent)"
    )
    add_quick(parser)
    args = parser.parse_args()
    if args.quick:
        args.games, args.repeat = 5, 1
    bots = args.bots.split(",")

    logs = load_logs(args, bots)
    unfinished = [log["seed"] for log in logs if log["result"] is None]
    if unfinished:
        print(f"left out {len(unfinished)} games cut at the move cap (seeds {unfinished[:10]})")
        logs = [log for log in logs if log["result"] is not None]
    if not logs:
        return 1
    actions = sum(len(log["actions"]) for log in logs)
    ok = True
    for label, batch in (
        ("seeded", logs),
        ("hand-recorded", [dict(log, seed=None) for log in logs]),
    ):
        cpu, wall = best_of(args.repeat, lambda batch=batch: [replay(log) for log in batch])
        games_per_second = len(batch) / cpu
        print(
            f"mister-x apply ({label}): {len(batch)} complete {len(bots)}-seat games, "
            f"{actions} actions: {games_per_second:.0f} games/s, {actions / cpu:.0f} actions/s "
            f"(CPU {cpu:.3f} s, wall {wall:.3f} s; target >= {TARGET_GAMES_PER_SECOND} games/s)"
        )
        ok = ok and games_per_second >= TARGET_GAMES_PER_SECOND

    states = all_states(logs)
    asks = [(st, seat) for st in states for seat in GAME.to_act(st)]

    def legal() -> None:
        for st, seat in asks:
            GAME.legal_actions(st, seat)

    def clone() -> None:
        for st in states:
            GAME.clone(st)

    cpu, wall = best_of(args.repeat, legal)
    print(
        f"mister-x legal: {len(asks)} calls in {len(states)} states: {len(asks) / cpu:.0f} calls/s "
        f"(CPU {cpu:.3f} s, wall {wall:.3f} s; first run CPU {FIRST[0]:.3f} s)"
    )
    cpu, wall = best_of(args.repeat, clone)
    print(
        f"mister-x clone: {len(states)} states: {len(states) / cpu:.0f} clones/s "
        f"(CPU {cpu:.3f} s, wall {wall:.3f} s)"
    )

    rounds, mean, worst = time_possible(logs)
    print(
        f"mister-x possible positions: {rounds} rounds, {mean * 1000:.3f} ms per round on average, "
        f"worst {worst * 1000:.3f} ms (target <= {TARGET_MS_PER_ROUND} ms)"
    )
    ok = ok and mean * 1000 <= TARGET_MS_PER_ROUND
    return 0 if ok or args.quick else 1


if __name__ == "__main__":
    sys.exit(main())
