"""Benchmark: the ``search`` bot (ISMCTS, engine/ai/search.py) against ``greedy``.

    .venv/bin/python bench/search_vs_greedy.py [--game mister-x] [--games 200] [--seed0 5000]

For each role of the game, plays ``--games`` games (seeds seed0..) with ``search`` in
that role and ``greedy`` everywhere else, and the same seeds with ``greedy`` in that
role too (the baseline: what greedy itself wins there). Prints win rates with Wilson
95% confidence intervals, the CPU time, and the search's playouts per second (timed
apart on the positions of greedy games). The budget is each game's ``search`` level
as registered (see the game's bots.py). A benchmark, not a test: minutes, not seconds.

Roles: Mister X ``mrx`` (search plays Mister X) and ``detectives`` (search plays every
detective seat; 2 detective seats); Cryptid ``cryptid`` and ``scientist``; Cloak &
Dagger (4 players by default, ``--players N`` for 2 to 6; default options) ``p1``..``pN``
folded into one role, ``player``: game k seats search at p(k mod N + 1).

Tuning: ``--set playouts=64 --set exploration=0.5`` plays the search level built with
those options (the game's ``make_search_level``: :class:`~engine.ai.search.Search`
options for Mister X and Cryptid, Mister X's own budget being ``mrx_playouts``;
``worlds`` and ``threshold`` for Cloak & Dagger);
``--levels search`` skips the greedy baseline (the same games whatever the options).
``--cost`` times the registered level's moves instead (CPU per move, per side: what the
recorder spends answering a person).
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import add_quick  # noqa: E402
from engine import bots_of, get_game, play, replay  # noqa: E402
from engine.ai.registry import ai_of  # noqa: E402
from engine.core.rng import Rng  # noqa: E402


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def lineups(game_id: str, level: str, k: int, players: int = 4) -> tuple[list[str], str]:
    """(bots by seat, the seat whose win counts) for game k of a role."""
    if game_id == "mister-x":
        raise AssertionError("roles of mister-x are handled by role_lineup")
    seat = k % players
    return ["greedy" if i != seat else level for i in range(players)], f"p{seat + 1}"


def role_lineup(
    game_id: str, role: str, level: str, k: int, players: int = 4
) -> tuple[list[str], str]:
    if game_id == "mister-x":
        if role == "mrx":
            return [level, "greedy", "greedy"], "mrx"
        return ["greedy", level, level], "det1"
    if game_id == "cryptid-urban-legends":
        seats = ["cryptid", "scientist"]
        return [level if s == role else "greedy" for s in seats], role
    return lineups(game_id, level, k, players)


ROLES = {
    "mister-x": ["mrx", "detectives"],
    "cryptid-urban-legends": ["cryptid", "scientist"],
    "cloak-and-dagger": ["player"],
}


def won(game, log: dict, seat: str) -> bool:
    state = replay(log).final_state
    return game.is_over(state) and ai_of(game).score(state, seat) == 1.0


def playouts_per_second(game_id: str, positions: int = 40) -> tuple[float, float]:
    """Playouts/s and plies/s of the search, on positions of greedy games."""
    from engine.ai.search import Search

    game = get_game(game_id)
    states = []
    seed = 0
    while len(states) < positions:
        r = replay(
            play(game_id, 90000 + seed, ["greedy"] * len(game.seat_ids(game.normalize_options({}))))
        )
        for ply, _action, st in r.states():
            if ply % 7 == 3 and not game.is_over(st) and len(ai_of(game).decision(st)[1]) > 1:
                states.append(game.clone(st))
        seed += 1
    search = Search(game, playouts=32)
    playouts = plies = 0
    start = time.process_time()
    for i, st in enumerate(states[:positions]):
        search.decide(st, ai_of(game).decision(st)[0], Rng(i))
        playouts += search.stats["playouts"]
        plies += search.stats["plies"]
    cpu = time.process_time() - start
    return playouts / cpu, plies / cpu


#: the phases whose moves the search level searches (the others it makes as greedy does)
SEARCHED_PHASES = {
    "mister-x": ("mrx-move", "pawns"),
    "cryptid-urban-legends": ("sensor", "hiding", "blockade"),
    "cloak-and-dagger": (None,),
}  # (every turn; its state has no phase)


#: playouts the Cloak & Dagger level played during ``level_cost``
PLAYOUTS = [0]


def level_cost(game_id: str, positions: int = 60) -> dict[str, list[float]]:
    """CPU seconds of one move of the registered ``search`` level (what the recorder
    spends answering a person), per seat, on positions of greedy games."""
    game = get_game(game_id)
    bot = bots_of(game)["search"]
    costs: dict[str, list[float]] = {}
    if game_id == "cloak-and-dagger":  # count the level's playouts (every candidate in every world)
        from engine.ai.cloak import bots as cloak_bots

        paired = cloak_bots.paired_playouts

        def counted(*args, **kwargs):
            results = paired(*args, **kwargs)
            PLAYOUTS[0] += sum(len(values) for values in results.values())
            return results

        cloak_bots.paired_playouts = counted
    seed = 0
    while sum(len(c) for c in costs.values()) < positions:
        r = replay(
            play(game_id, 91000 + seed, ["greedy"] * len(game.seat_ids(game.normalize_options({}))))
        )
        for ply, _action, st in r.states():
            if (
                ply % 5 != 2
                or game.is_over(st)
                or len(ai_of(game).decision(st)[1]) < 2
                or getattr(st, "phase", None) not in SEARCHED_PHASES[game_id]
            ):
                continue
            seat = game.to_act(st)[0]
            start = time.process_time()
            bot(game, game.clone(st), seat, Rng(ply))
            costs.setdefault(game.side_of(seat), []).append(time.process_time() - start)
        seed += 1
    return costs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="mister-x", choices=sorted(ROLES))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed0", type=int, default=5000)
    parser.add_argument("--roles", help="comma-separated roles (default: all of the game's)")
    parser.add_argument(
        "--players",
        type=int,
        default=4,
        help="Cloak & Dagger: players per game (the search seat rotating among them)",
    )
    parser.add_argument(
        "--levels",
        default="search,greedy",
        help="which lines to play (greedy's are the same whatever the search's options)",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="OPTION=VALUE",
        help="a Search option for the search level instead of its default "
        "(e.g. playouts=64, exploration=0.5; values read as JSON)",
    )
    parser.add_argument("--no-rate", action="store_true", help="skip the playouts-per-second line")
    parser.add_argument(
        "--cost",
        action="store_true",
        help="only time the search level's moves (CPU per move, per side)",
    )
    parser.add_argument(
        "--progress",
        type=int,
        default=0,
        metavar="N",
        help="print the wins so far every N games (to stderr)",
    )
    add_quick(parser)
    args = parser.parse_args()
    # --quick: one game per line and a few positions for the rates, in every game
    positions = 2 if args.quick else None
    if args.quick:
        args.games = 1
    game = get_game(args.game)
    if args.set:
        overrides = {}
        for item in args.set:
            key, _, value = item.partition("=")
            try:
                overrides[key] = json.loads(value)
            except json.JSONDecodeError:
                overrides[key] = value
        bots_of(game)["search"] = importlib.import_module(
            type(ai_of(game)).__module__.rsplit(".", 1)[0] + ".bots"
        ).make_search_level(**overrides)
        print(f"{args.game}: search level with {overrides}", flush=True)
    roles = args.roles.split(",") if args.roles else ROLES[args.game]
    if args.cost:
        by_side = level_cost(args.game) if positions is None else level_cost(args.game, positions)
        if args.game == "cloak-and-dagger":  # every seat alike: one line
            by_side = {"a seat": [c for costs in by_side.values() for c in costs]}
        for side, costs in sorted(by_side.items()):
            costs.sort()
            print(
                f"{args.game} search level, {side}: {len(costs)} moves, CPU per move mean "
                f"{sum(costs) / len(costs):.3f} s, median {costs[len(costs) // 2]:.3f} s, max "
                f"{costs[-1]:.3f} s"
            )
            if PLAYOUTS[0]:
                print(
                    f"{args.game} search level: {PLAYOUTS[0] / len(costs):.0f} playouts per move, "
                    f"{PLAYOUTS[0] / sum(costs):.0f} playouts/s (full greedy playouts)"
                )
        return 0
    for role in roles:
        line = {}
        for level in args.levels.split(","):
            wins = unfinished = 0
            start = time.process_time()
            for k in range(args.games):
                bots, seat = role_lineup(args.game, role, level, k, args.players)
                log = play(args.game, args.seed0 + k, bots)
                if log["result"] is None:
                    unfinished += 1
                wins += won(game, log, seat)
                if args.progress and (k + 1) % args.progress == 0 and k + 1 < args.games:
                    print(
                        f"  {role} {level}: {wins}/{k + 1} after {time.process_time() - start:.0f} "
                        f"s CPU",
                        file=sys.stderr,
                        flush=True,
                    )
            cpu = time.process_time() - start
            lo, hi = wilson(wins, args.games)
            line[level] = (wins, lo, hi, cpu, unfinished)
            print(
                f"{args.game} {role}: {level:6} wins {wins}/{args.games} = {wins / args.games:.1%} "
                f"(95% CI {lo:.1%}–{hi:.1%}), unfinished {unfinished}, CPU {cpu:.1f} s "
                f"({cpu / args.games:.3f} s/game)",
                flush=True,
            )
    if args.no_rate:
        return 0
    rate, plies = (
        playouts_per_second(args.game)
        if positions is None
        else playouts_per_second(args.game, positions)
    )
    print(
        f"{args.game}: {rate:.0f} playouts/s, {plies:.0f} plies/s (32 full greedy playouts per "
        f"decision, "
        "40 positions of greedy games)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
