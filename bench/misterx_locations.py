"""Location categorisation for the detectives' belief samples: measure it, and write the
weights Mister X's city is drawn by (``engine/ai/misterx/location_weights.json``).

    .venv/bin/python bench/misterx_locations.py            # measure; is the file what it makes?
    .venv/bin/python bench/misterx_locations.py --write    # measure and rewrite the file
    .venv/bin/python bench/misterx_locations.py --check    # exit 1 when the file differs

Nijssen & Winands ("Monte Carlo Tree Search for the Hide-and-Seek Game Scotland Yard",
2012) weigh each city Mister X could be in by its category, learnt from how Mister X
really plays. Here: games on ``europe/1`` with the ``greedy`` detectives against the
``greedy`` Mister X (``--greedy`` games, seeds 100000..; the search's playout policy and
the benchmark's opponent). At every pawn's move
of the detectives (after Mister X's first move, with two or more cities possible) the
position gives, per category: its share of the paths consistent with the public record
(what the uniform sampler expects there) and whether Mister X really was in it. A
category's weight is (times he was there + 0.5) / (expected + 0.5) — how much more often
he is there than path counting says — as an integer per 1000, at least 1.

The script also prints, for each categorisation tried, the mean log-probability the
sampler gives Mister X's real city on games left out (weights learnt on the even seeds,
scored on the odd ones), and on ``--search`` games against the ``search`` Mister X
(seeds 200000..; a Mister X the weights were not learnt from). The weights shipped are
the best categorisation's, learnt on all the greedy games.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import add_quick  # noqa: E402
from engine import get_game, play, replay  # noqa: E402
from engine.ai.misterx.beliefs import (  # noqa: E402
    DEST_CAP,
    LOCATION_WEIGHTS_FILE,
    PAWN_CAP,
    Beliefs,
    location_category,
    pawns_at_last_move,
)
from engine.ai.registry import ai_of  # noqa: E402
from engine.games.misterx.knowledge import distances  # noqa: E402
from engine.games.misterx.state import PH_PAWNS, TEAM  # noqa: E402

GAME = get_game("mister-x")
#: one position: (seed, Mister X's real city, {city: (paths ending there, features)})
Position = tuple[int, int, dict[int, tuple[int, dict[str, Any]]]]


def positions(bots: list[str], seeds: range) -> list[Position]:
    out: list[Position] = []
    for seed in seeds:
        log = play(GAME.id, seed, bots)
        for _ply, _action, st in replay(log).states():
            if st.phase != PH_PAWNS or GAME.is_over(st) or ai_of(GAME).decision(st)[0] == TEAM:
                continue
            pawns = pawns_at_last_move(st.events)
            if pawns is None:
                continue
            counts = Beliefs(st, TEAM).counts
            assert counts is not None
            if len(counts[-1]) < 2:
                continue
            dist = distances(st.board)
            now = list(st.pawn_pos.values())
            cities = {}
            for city, n in counts[-1].items():
                cities[city] = (
                    n,
                    {
                        "category": location_category(dist, city, pawns, st.destinations),
                        "pawns now": location_category(dist, city, now, st.destinations),
                        "transports": tuple(sorted(st.board.by_transport[city])),
                    },
                )
            out.append((seed, st.path[-1], cities))
    return out


Categoriser = Callable[[dict[str, Any]], Any]
CATEGORISERS: dict[str, Categoriser] = {
    "none (every path alike)": lambda f: 0,
    "moves to a destination": lambda f: f["category"][1],
    "moves from the pawns now": lambda f: f["pawns now"][0],
    "moves from the pawns at his move": lambda f: f["category"][0],
    "pawns now x destination": lambda f: f["pawns now"],
    "transports of the city": lambda f: f["transports"],
    "pawns at his move x destination (shipped)": lambda f: f["category"],
}


def learn(data: list[Position], categorise: Categoriser) -> dict[Any, float]:
    seen: dict[Any, float] = {}
    expected: dict[Any, float] = {}
    for _seed, real, cities in data:
        total = sum(n for n, _ in cities.values())
        for n, features in cities.values():
            key = categorise(features)
            expected[key] = expected.get(key, 0.0) + n / total
        key = categorise(cities[real][1])
        seen[key] = seen.get(key, 0.0) + 1
    return {key: (seen.get(key, 0.0) + 0.5) / (e + 0.5) for key, e in expected.items()}


def log_likelihood(
    data: list[Position], categorise: Categoriser, weights: dict[Any, float]
) -> float:
    total_log = 0.0
    for _seed, real, cities in data:
        mass = {c: n * weights.get(categorise(f), 1.0) for c, (n, f) in cities.items()}
        total_log += math.log(mass[real] / sum(mass.values()))
    return total_log / len(data)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--greedy", type=int, default=1500, help="games against the greedy Mister X"
    )
    parser.add_argument(
        "--search", type=int, default=100, help="games against the search Mister X (a check)"
    )
    parser.add_argument("--write", action="store_true", help="rewrite location_weights.json")
    parser.add_argument(
        "--check", action="store_true", help="exit 1 when the file is not what this makes"
    )
    add_quick(parser)
    args = parser.parse_args()
    if args.quick:  # a few games: the weights it makes are not the shipped ones, and say so
        args.greedy, args.search = 6, 1
        if args.write:
            raise SystemExit("--quick makes weights from a few games: not with --write")
    data = positions(["greedy"] * 3, range(100000, 100000 + args.greedy))
    other = positions(["search", "greedy", "greedy"], range(200000, 200000 + args.search))
    train = [p for p in data if p[0] % 2 == 0]
    test = [p for p in data if p[0] % 2 == 1]
    print(
        f"{len(data)} positions in {args.greedy} games against the greedy Mister X, {len(other)} "
        f"in "
        f"{args.search} against the search one. Mean log-probability of his real city (learnt on "
        f"the "
        "even seeds of the greedy games), on the odd seeds / on the search games:"
    )
    for name, categorise in CATEGORISERS.items():
        weights = learn(train, categorise)
        on_search = f"  {log_likelihood(other, categorise, weights):.4f}" if other else ""
        print(
            f"  {name:45} {len(weights):3} categories  "
            f"{log_likelihood(test, categorise, weights):.4f}"
            f"{on_search}",
            flush=True,
        )
    shipped = CATEGORISERS["pawns at his move x destination (shipped)"]
    weights = learn(data, shipped)
    document = {
        "about": "Location categorisation of Mister X's possible cities "
        "(engine/ai/misterx/beliefs.py): "
        "'moves from the pawns when he last moved (1.."
        + f"{PAWN_CAP}+),moves to his nearest destination "
        f"(1..{DEST_CAP}+)' -> weight per 1000 (1000: as path counting says). Made by "
        f"bench/misterx_locations.py --greedy {args.greedy}.",
        "weights": {f"{a},{b}": max(1, round(1000 * w)) for (a, b), w in sorted(weights.items())},
    }
    text = json.dumps(document, indent=1) + "\n"
    if args.write:
        LOCATION_WEIGHTS_FILE.write_text(text)
        print(f"wrote {LOCATION_WEIGHTS_FILE}")
        return 0
    same = LOCATION_WEIGHTS_FILE.read_text() == text
    print(
        "location_weights.json is",
        "what this script makes" if same else "NOT what this script makes (--write)",
    )
    return 1 if args.check and not same else 0


if __name__ == "__main__":
    sys.exit(main())
