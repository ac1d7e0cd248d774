"""Can a player trust the match analysis? (issue 33) Same game, two seeds, same verdicts?

Run: ``.venv/bin/python bench/analysis_trust.py [--quick] [--mixed N] [--greedy N] [--game ID]``.

Per game (Cryptid, Mister X, Cloak & Dagger) it plays bot games on seeds of its own
(:data:`EVALUATION_SEEDS`: never used to tune the method; :data:`TUNING_SEEDS` are the
ones to tune on, ``--tuning``): ``--mixed`` games with one seat playing at random (the
seat rotating from game to game) and the others greedy, and ``--greedy`` games of greedy
seats only. Each game is analysed twice at the default setting, the two runs differing
only in the analysis seed (:data:`ANALYSIS_SEEDS`), and it prints:

* **agreement**: of the moves labelled (inaccuracy, mistake, blunder) by either run, the
  share carrying the same label in both (target >= 90 %);
* **own chance p90**: the 90th percentile, over plies and seats, of the difference
  between the runs of a seat's win chance from its own information (target <= 5 points);
* **drop error**: the median standard error of a rated move's drop (points);
* **contested label rate**: of the moves made where the mover's best chance was 15-85
  points, the share labelled, for the random seat and for the greedy seats, both runs
  pooled (target: random >= 2 x greedy and >= 10 %);
* **Brier skill** on greedy games: 1 - Brier(own chances) / Brier(the role's win
  rate), every ply and seat, both runs; the role's win rate is counted on
  :data:`BASE_RATE_GAMES` greedy games of other seeds (target > 0 for every game);
* **CPU**: seconds of this process (one core, ``time.process_time``) per 100 actions
  analysed (target <= 60 s);

and writes a reliability diagram per game (SVG: forecast chance in tenths against how
often the seat won) to ``--out``.

``--quick`` (the figures are not the benchmark's: a smoke run for ``make test``): one
short mixed game and one short greedy game per title, at a small budget.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common.reliability import reliability_svg  # noqa: E402
from engine import analyse, get_game, play, replay  # noqa: E402
from engine.ai.registry import ai_of  # noqa: E402

#: seats per game, as the benchmarks of the analysis play them
SEATS = {"cryptid-urban-legends": 2, "mister-x": 3, "cloak-and-dagger": 4}
#: first seed of this benchmark's games: chosen before any run, never used to tune
EVALUATION_SEEDS = 730_000
#: first seed of the games to tune on (``--tuning``)
TUNING_SEEDS = 510_000
#: the two analysis seeds of each game (``--tuning`` uses the next two)
ANALYSIS_SEEDS = (1, 2)
#: greedy games per title counted for each role's win rate (seeds of their own)
BASE_RATE_GAMES = 400
BASE_RATE_SEEDS = 910_000
CONTESTED = (15.0, 85.0)


def games_of(
    game_id: str, first_seed: int, mixed: int, greedy: int, shortest_of: int = 1
) -> list[tuple[dict[str, Any], str | None]]:
    """(log, the random seat or None) for ``mixed`` then ``greedy`` finished games, on
    consecutive seeds from ``first_seed``; each the shortest of ``shortest_of`` games
    played (more than one: quick runs only, the figures then lean to short games)."""
    seats = SEATS[game_id]
    found: list[tuple[dict[str, Any], str | None]] = []
    seed = first_seed
    for count, random_seats in ((mixed, True), (greedy, False)):
        for made in range(count):
            random_index = made % seats if random_seats else None
            bots = ["random" if i == random_index else "greedy" for i in range(seats)]
            candidates = []
            while len(candidates) < shortest_of:
                log = play(game_id, seed, bots)
                seed += 1
                if log["result"] is not None:
                    candidates.append(log)
            log = min(candidates, key=lambda candidate: len(candidate["actions"]))
            random_seat = None if random_index is None else log["seats"][random_index]["seat"]
            found.append((log, random_seat))
    return found


def base_rates(game_id: str, count: int) -> dict[str, float]:
    """Each seat's win rate (mean score) over ``count`` greedy games of other seeds."""
    game = get_game(game_id)
    assert game is not None
    totals: dict[str, float] = {}
    for seed in range(BASE_RATE_SEEDS, BASE_RATE_SEEDS + count):
        log = play(game_id, seed, ["greedy"] * SEATS[game_id])
        if log["result"] is None:
            continue
        final = replay(log).final_state
        for entry in log["seats"]:
            totals[entry["seat"]] = totals.get(entry["seat"], 0.0) + ai_of(game).score(
                final, entry["seat"]
            )
    return {seat: total / count for seat, total in totals.items()}


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0-1) by linear interpolation; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    at = q * (len(ordered) - 1)
    low = math.floor(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


def controller(game_id: str, seat: str) -> str:
    game = get_game(game_id)
    assert game is not None
    return game.controller(seat)


def measure(game_id: str, args: argparse.Namespace) -> dict[str, Any]:
    first = TUNING_SEEDS if args.tuning else EVALUATION_SEEDS
    seeds = tuple(s + 2 for s in ANALYSIS_SEEDS) if args.tuning else ANALYSIS_SEEDS
    options: dict[str, Any] = {} if args.budget is None else {"budget": args.budget}
    rates = base_rates(game_id, args.base_games)
    game = get_game(game_id)
    assert game is not None
    same = either = 0
    own_gaps: list[float] = []
    drop_errors: list[float] = []
    contested = {"random": [0, 0], "greedy": [0, 0]}  # [labelled, moves]
    forecasts: list[tuple[float, float]] = []
    brier = brier_base = 0.0
    cpu = 0.0
    actions = 0
    mixed_same = mixed_either = greedy_same = greedy_either = 0
    dumped: list[dict[str, Any]] = []
    for log, random_seat in games_of(game_id, first, args.mixed, args.greedy, args.shortest_of):
        rep = replay(log)
        runs = []
        for seed in seeds:
            start = time.process_time()
            runs.append(analyse(rep, seed=seed, **options))
            cpu += time.process_time() - start
            actions += len(rep.actions)
        one, two = runs
        dumped.append(
            {
                "random_seat": random_seat,
                "controllers": {seat: controller(game_id, seat) for seat in rep.seats},
                "moves": [run["moves"] for run in runs],
            }
        )
        for a, b in zip(one["moves"], two["moves"], strict=True):
            if a.get("label") or b.get("label"):
                either += 1
                agreed = a.get("label") == b.get("label")
                same += agreed
                if random_seat is None:
                    greedy_either += 1
                    greedy_same += agreed
                else:
                    mixed_either += 1
                    mixed_same += agreed
        for a, b in zip(one["plies"], two["plies"], strict=True):
            for seat, value in a["own"].items():
                other = b["own"].get(seat)
                if value is not None and other is not None:
                    own_gaps.append(abs(value - other))
        drop_errors += [m["drop_se"] for run in runs for m in run["moves"] if m.get("rated")]
        if random_seat is not None:
            for run in runs:
                for move in run["moves"]:
                    best = move.get("best_value")
                    if (
                        not move.get("rated")
                        or best is None
                        or not CONTESTED[0] <= best <= CONTESTED[1]
                    ):
                        continue
                    kind = (
                        "random" if controller(game_id, move["seat"]) == random_seat else "greedy"
                    )
                    contested[kind][1] += 1
                    contested[kind][0] += bool(move.get("label"))
        else:
            final = rep.final_state
            outcome = {seat: ai_of(game).score(final, seat) for seat in rep.seats}
            for run in runs:
                for ply in run["plies"]:
                    for seat, value in ply["own"].items():
                        if value is None or seat not in outcome:
                            continue
                        p = value / 100.0
                        forecasts.append((p, outcome[seat]))
                        brier += (p - outcome[seat]) ** 2
                        brier_base += (rates.get(seat, 0.5) - outcome[seat]) ** 2
    n = len(forecasts)
    skill = None if n == 0 or brier_base == 0 else 1.0 - brier / brier_base
    return {
        "agreement": (same, either),
        "mixed": (mixed_same, mixed_either),
        "greedy": (greedy_same, greedy_either),
        "own_p90": percentile(own_gaps, 0.9),
        "drop_se": percentile(drop_errors, 0.5),
        "contested": contested,
        "brier": None if n == 0 else brier / n,
        "brier_base": None if n == 0 else brier_base / n,
        "skill": skill,
        "forecasts": forecasts,
        "cpu_per_100": 100.0 * cpu / max(1, actions),
        "actions": actions // 2,
        "rates": rates,
        "games": dumped,
    }


def share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100.0 * part / whole:.0f} %)" if whole else "0/0 (-)"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="a smoke run in well under a minute")
    parser.add_argument("--mixed", type=int, default=3, help="games per title with one random seat")
    parser.add_argument("--greedy", type=int, default=3, help="greedy-only games per title")
    parser.add_argument(
        "--game", action="append", choices=sorted(SEATS), help="only this game (repeatable)"
    )
    parser.add_argument(
        "--tuning", action="store_true", help="the tuning seeds, not the evaluation ones"
    )
    parser.add_argument(
        "--budget", type=int, default=None, help="analysis budget (default: the engine's)"
    )
    parser.add_argument(
        "--out", default="artifacts/bench", help="where the reliability diagrams go"
    )
    parser.add_argument(
        "--dump", default=None, help="write every run's rated moves here (JSON), to study"
    )
    args = parser.parse_args()
    args.shortest_of = 1
    args.base_games = BASE_RATE_GAMES
    if args.quick:
        args.mixed, args.greedy, args.shortest_of, args.base_games = 1, 1, 20, 40
        args.budget = args.budget or 6
    print(
        f"{'quick: smoke figures, not the benchmark; ' if args.quick else ''}"
        f"{'tuning' if args.tuning else 'evaluation'} seeds; {args.mixed} mixed + {args.greedy} "
        f"greedy games "
        f"per title, each analysed with two seeds; load average {os.getloadavg()[0]:.1f}"
    )
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    met = True
    dumps: dict[str, Any] = {}
    for game_id in SEATS:
        if args.game and game_id not in args.game:
            continue
        r = measure(game_id, args)
        dumps[game_id] = r["games"]
        same, either = r["agreement"]
        random_rate = r["contested"]["random"][0] / max(1, r["contested"]["random"][1])
        greedy_rate = r["contested"]["greedy"][0] / max(1, r["contested"]["greedy"][1])
        print(f"\n{game_id} ({r['actions']} actions analysed twice)")
        print(
            f"  labels kept by both runs: {share(same, either)} "
            f"[mixed {share(*r['mixed'])}, greedy {share(*r['greedy'])}]  target >= 90 %"
        )
        print(
            f"  own win chance, p90 difference between runs: {r['own_p90']:.1f} points  target <= 5"
        )
        print(f"  a rated move's drop, median standard error: {r['drop_se']:.2f} points")
        print(
            f"  contested moves labelled: random seat {share(*r['contested']['random'])}, "
            f"greedy seats {share(*r['contested']['greedy'])}  target random >= 2x greedy and >= "
            f"10 %"
        )
        if r["skill"] is None:
            print("  Brier: no forecasts")
        else:
            print(
                f"  Brier on greedy games: {r['brier']:.3f} vs role's win rate "
                f"{r['brier_base']:.3f}: "
                f"skill {r['skill']:+.3f} over {len(r['forecasts'])} forecasts  target > 0 "
                f"(win rates {', '.join(f'{s} {v:.2f}' for s, v in r['rates'].items())})"
            )
        print(f"  CPU: {r['cpu_per_100']:.1f} s of one core per 100 actions  target <= 60")
        diagram = out / f"analysis_reliability_{game_id}.svg"
        diagram.write_text(
            reliability_svg(
                f"{get_game(game_id).name}: own win chance, greedy games",
                r["forecasts"],
                f"{args.greedy} game{'' if args.greedy == 1 else 's'}, every ply and seat, "
                "two runs: Brier "
                + ("-" if r["skill"] is None else f"{r['brier']:.3f}, skill {r['skill']:+.2f}"),
            )
        )
        print(f"  reliability diagram: {diagram}")
        met = met and (either == 0 or same / either >= 0.9) and r["own_p90"] <= 5.0
        met = met and random_rate >= max(0.1, 2 * greedy_rate) and (r["skill"] or 0) > 0
        met = met and r["cpu_per_100"] <= 60.0
    if args.dump:
        Path(args.dump).write_text(json.dumps(dumps))
    print(f"\nevery target met: {'yes' if met else 'no'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
