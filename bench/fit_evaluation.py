"""Fit the weights of the cut-playout evaluations analysis scores a position with
(``engine/ai/cryptid/evaluation.py``, ``engine/ai/cloak/evaluation.py``).

Run: ``.venv/bin/python bench/fit_evaluation.py [--game ID]`` (``--quick``: a few games, to
see that it runs). Per game it plays bot games
on seeds of their own (:data:`FIT_SEEDS`: none of the analysis benchmarks' seeds), takes
the position at the start of every round (where analysis cuts a playout) with who won,
fits the game's model by maximum likelihood — Cryptid a logistic regression of the
cryptid's win (Newton's method), Cloak & Dagger a conditional logit over the seats
(gradient ascent) — and prints its weights and its Brier score on held-out greedy games
against the seats' win rates. The weights printed are the ones written in the modules.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import get_game, play, replay  # noqa: E402
from engine.ai.cloak import evaluation as cloak  # noqa: E402
from engine.ai.cryptid import evaluation as cryptid  # noqa: E402

#: per game: seats, the first seed, greedy games, games with one random seat (the seat
#: rotating), held-out greedy games
FIT_SEEDS = {
    "cryptid-urban-legends": (2, 620_000, 1_500, 500, 300),
    "cloak-and-dagger": (4, 640_000, 400, 100, 150),
}
RIDGE = 1e-3

#: a position's facts per seat, and the winner's index
Row = tuple[list[list[float]], int]


def positions(game_id: str, seeds: range, seats: int, mixed: bool) -> list[Row]:
    """The facts at each round's start (every seat's), and the index of the seat that won."""
    game = get_game(game_id)
    assert game is not None
    rows: list[Row] = []
    for seed in seeds:
        bots = ["greedy"] * seats
        if mixed:
            bots[seed % seats] = "random"
        log = play(game_id, seed, bots)
        if log["result"] is None:
            continue
        rep = replay(log)
        final = rep.final_state
        # Cryptid: 0 when the cryptid won; Cloak & Dagger: the winner's index among the seats
        winner = (
            int(final.result["winner"] != "cryptid")
            if game_id == "cryptid-urban-legends"
            else final.winner
        )
        last = None
        for _ply, _action, state in rep.states():
            clock = game.clock(state)
            if game.is_over(state) or clock["round"] == last:
                continue
            last = clock["round"]
            if game_id == "cryptid-urban-legends":
                rows.append(([cryptid.facts(state)], winner))
            else:
                rows.append(([cloak.facts(state, k) for k in range(seats)], winner))
    return rows


def fit_logistic(rows: list[Row], won: int, steps: int = 25) -> list[float]:
    """Logistic regression of seat ``won``'s win on the one fact list of each row (Newton's
    method with a ridge of :data:`RIDGE`)."""
    xs = [facts[0] for facts, _ in rows]
    ys = [1.0 if winner == won else 0.0 for _, winner in rows]
    d = len(xs[0])
    w = [0.0] * d
    for _ in range(steps):
        grad = [0.0] * d
        hess = [[0.0] * d for _ in range(d)]
        for x, y in zip(xs, ys, strict=True):
            p = cryptid.chance(w, x)
            r, v = p - y, p * (1.0 - p)
            for i in range(d):
                grad[i] += r * x[i]
                vi = v * x[i]
                row = hess[i]
                for j in range(d):
                    row[j] += vi * x[j]
        for i in range(d):
            grad[i] += RIDGE * w[i]
            hess[i][i] += RIDGE
        w = [a - b for a, b in zip(w, _solve(hess, grad), strict=True)]
    return w


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gauss-Jordan elimination with partial pivoting."""
    d = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for i in range(d):
        pivot = max(range(i, d), key=lambda r: abs(m[r][i]))
        m[i], m[pivot] = m[pivot], m[i]
        for r in range(d):
            if r != i and m[i][i]:
                f = m[r][i] / m[i][i]
                for c in range(i, d + 1):
                    m[r][c] -= f * m[i][c]
    return [m[i][d] / m[i][i] if m[i][i] else 0.0 for i in range(d)]


def fit_conditional_logit(rows: list[Row], steps: int = 400, rate: float = 0.5) -> list[float]:
    """A conditional logit over the seats (shared weights; gradient ascent on the mean
    log-likelihood)."""
    d = len(rows[0][0][0])
    w = [0.0] * d
    for _ in range(steps):
        grad = [0.0] * d
        for per_seat, winner in rows:
            p = cloak.chances(w, per_seat)
            for k, values in enumerate(per_seat):
                c = (1.0 if k == winner else 0.0) - p[k]
                for i in range(d):
                    grad[i] += c * values[i]
        w = [a + rate * g / len(rows) for a, g in zip(w, grad, strict=True)]
    return w


def forecast(game_id: str, weights: list[float], per_seat: list[list[float]]) -> list[float]:
    if game_id == "cryptid-urban-legends":
        p = cryptid.chance(weights, per_seat[0])
        return [p, 1.0 - p]
    return cloak.chances(weights, per_seat)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", action="append", choices=sorted(FIT_SEEDS))
    parser.add_argument(
        "--quick", action="store_true", help="a few games a game: runs, fits nothing worth keeping"
    )
    args = parser.parse_args()
    for game_id, (seats, first, greedy, mixed, held) in FIT_SEEDS.items():
        if args.game and game_id not in args.game:
            continue
        if args.quick:
            greedy, mixed, held = 6, 3, 3
        rows = positions(game_id, range(first, first + greedy), seats, False)
        rows += positions(game_id, range(first + greedy, first + greedy + mixed), seats, True)
        weights: Any = (
            fit_logistic(rows, 0)
            if game_id == "cryptid-urban-legends"
            else fit_conditional_logit(rows)
        )
        start = first + greedy + mixed
        test = positions(game_id, range(start, start + held), seats, False)
        wins = [sum(1 for _, winner in rows if winner == k) / len(rows) for k in range(seats)]
        brier = base = 0.0
        count = 0
        for per_seat, winner in test:
            for k, p in enumerate(forecast(game_id, weights, per_seat)):
                outcome = 1.0 if k == winner else 0.0
                brier += (p - outcome) ** 2
                base += (wins[k] - outcome) ** 2
                count += 1
        print(f"{game_id}: {len(rows)} positions fitted, {len(test)} held out")
        print(
            f"  Brier {brier / count:.4f} against the win rates' {base / count:.4f}: "
            f"skill {1 - brier / base:+.3f}"
        )
        print("  WEIGHTS = (" + ", ".join(f"{v:.4f}" for v in weights) + ")")
        if not math.isfinite(brier):
            return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
