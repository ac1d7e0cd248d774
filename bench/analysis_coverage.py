"""Does a stated error hold? The same decisions judged with many analysis seeds (issue 33).

Run: ``.venv/bin/python bench/analysis_coverage.py [--game ID] [--seeds N] [--decisions N]
[--kept FILE]``
(``--quick``: two decisions, three seeds, to see that it runs; its figures mean nothing).

It plays the first mixed and the first greedy game of ``analysis_trust.py``'s **tuning**
seeds (never its evaluation seeds), judges every choice once (analysis seed 0) and keeps
``--decisions`` of those with a drop of at least 3 points, spread over the drops found.
Each is then judged again with ``--seeds`` other analysis seeds (101 on), as a stored
analysis would judge it, and the mover's own chance after it estimated. Per figure (the
drop, the mover's own chance) it prints:

* **coverage**: the share of runs whose 95 % interval (± 1.96 stated standard errors)
  holds the mean of all the runs of that decision (about 95 % if the errors are honest;
  a figure is rounded to 0.1 point, so 0.05 is allowed for it);
* **SD / RMS(SE)** per decision: the spread of the runs' estimates over the root mean
  square of their stated errors (about 1 if honest), and its median;

for the decisions whose every choice is scored (``analysis_every_move``), those whose
runs all found the same best move and those whose best move varied between runs, and for
the decisions whose best move is searched (ISMCTS); and, of pairs of runs labelling a
move, the share with the same label.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.analysis_trust import TUNING_SEEDS, games_of  # noqa: E402
from engine import replay  # noqa: E402
from engine.ai.analysis import Analyst  # noqa: E402
from engine.ai.search import action_key  # noqa: E402

#: the analysis seeds of the runs (none of analysis_trust.py's)
FIRST_SEED = 101


def decisions(game_id: str, count: int, kept: Path | None = None) -> list[dict[str, Any]]:
    """Up to ``count`` judged choices of the tuning games with a drop of 3 points or more
    at analysis seed 0, spread over the drops found. ``kept``: a file of the decisions
    chosen (game and ply), written when missing and read when there, so that two versions
    of the analysis are measured on the same decisions (their seed-0 drops differ)."""
    wanted = None if kept is None or not kept.exists() else json.loads(kept.read_text())
    found = []
    for number, (log, _random_seat) in enumerate(games_of(game_id, TUNING_SEEDS, 1, 1)):
        rep = replay(log)
        game = rep.game
        analyst = Analyst(game, seed=0)
        before = None
        for ply, action, state in rep.states():
            if action is not None and before is not None:
                decider, _played, actions = analyst.listed(before, action)
                if wanted is None:
                    entry = analyst.judge(
                        game.clone(before), action, ply, ({decider: 0}, {decider: 0})
                    )
                    drop = entry["drop"] if entry["rated"] else 0.0
                else:
                    drop = 3.0 if [number, ply] in wanted else 0.0
                if drop >= 3:
                    found.append(
                        {"game": game, "ply": ply, "before": game.clone(before), "action": action,
                         "after": game.clone(state), "seat": decider, "drop": drop,
                         "searched": not 0 < len(actions) <= analyst.every_move, "number": number}
                    )  # fmt: skip
            before = game.clone(state)
    if wanted is not None:
        return found
    found.sort(key=lambda d: -d["drop"])
    step = max(1.0, len(found) / count)
    chosen = [found[int(i * step)] for i in range(min(count, len(found)))]
    if kept is not None:
        kept.write_text(json.dumps([[d["number"], d["ply"]] for d in chosen]))
    return chosen


def runs(decision: dict[str, Any], seeds: int) -> list[dict[str, Any]]:
    """The decision judged, and the mover's own chance after it, with each seed."""
    game, seat, ply = decision["game"], decision["seat"], decision["ply"]
    rows = []
    for seed in range(FIRST_SEED, FIRST_SEED + seeds):
        analyst = Analyst(game, seed=seed)
        entry = analyst.judge(
            game.clone(decision["before"]), decision["action"], ply, ({seat: 0}, {seat: 0})
        )
        own = analyst.own_chance(game.clone(decision["after"]), seat, ply)
        best = None if entry["best"] is None else repr(action_key(entry["best"]))
        rows.append(
            {"drop": (entry["drop_low"] + entry["drop_high"]) / 2, "drop_se": entry["drop_se"],
             "own": own.mean, "own_se": own.se, "best": best, "label": entry["label"]}
        )  # fmt: skip
    return rows


def summary(judged: list[list[dict[str, Any]]], figure: str) -> str:
    held = total = 0
    ratios = []
    covered: list[int] = []
    for rows in judged:
        values = [r[figure] for r in rows]
        centre, spread = statistics.fmean(values), statistics.stdev(values)
        rms = statistics.fmean(r[f"{figure}_se"] ** 2 for r in rows) ** 0.5
        if max(rms, spread) > 0.05:  # a figure all runs give alike says nothing here
            ratios.append(spread / max(rms, 1e-9))
        for r in rows:
            total += 1
            held += abs(r[figure] - centre) <= 1.96 * r[f"{figure}_se"] + 0.05
        covered.append(
            sum(abs(r[figure] - centre) <= 1.96 * r[f"{figure}_se"] + 0.05 for r in rows)
        )
    if not total:
        return "no decision"
    median = statistics.median(ratios) if ratios else float("nan")
    shown = ", ".join(f"{r:.2f}" if r < 100 else "inf" for r in ratios)
    return (
        f"{len(judged)} decisions, {total} runs: coverage {held / total:.0%} "
        f"(per decision {', '.join(map(str, covered))} of {len(judged[0])}), "
        f"SD/RMS(SE) median {median:.2f} ({shown})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="cryptid-urban-legends")
    parser.add_argument("--seeds", type=int, default=25)
    parser.add_argument("--decisions", type=int, default=14)
    parser.add_argument("--quick", action="store_true", help="2 decisions, 3 seeds: runs")
    parser.add_argument(
        "--kept", type=Path, help="the decisions' file: written if missing, else measured again"
    )
    args = parser.parse_args()
    if args.quick:
        args.seeds, args.decisions = 3, 2
    start = time.process_time()
    chosen = decisions(args.game, args.decisions, args.kept)
    judged = [runs(d, args.seeds) for d in chosen]
    scored = [rows for d, rows in zip(chosen, judged, strict=True) if not d["searched"]]
    searched = [rows for d, rows in zip(chosen, judged, strict=True) if d["searched"]]
    one = [rows for rows in scored if len({r["best"] for r in rows}) == 1]
    varied = [rows for rows in scored if len({r["best"] for r in rows}) > 1]
    print(f"{args.game}, tuning games, {args.seeds} analysis seeds per decision")
    print(f"drop, every decision: {summary(judged, 'drop')}")
    print(f"drop, every choice scored, the same best move in every run: {summary(one, 'drop')}")
    print(f"drop, every choice scored, the best move varies: {summary(varied, 'drop')}")
    print(f"drop, the best move searched (ISMCTS): {summary(searched, 'drop')}")
    print(f"own chance after the move: {summary(judged, 'own')}")
    same = either = 0
    for rows in judged:
        for a, b in itertools.combinations([r["label"] for r in rows], 2):
            if a or b:
                either += 1
                same += a == b
    print(f"pairs of runs labelling a move: {same}/{either} with the same label")
    print(f"CPU {time.process_time() - start:.0f} s")


if __name__ == "__main__":
    main()
