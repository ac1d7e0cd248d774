"""Server time of every recorder step, for every game, through the whole Django stack.

    .venv/bin/python bench/recorder_steps.py [--games 3]

For each game, bot-played logs (``engine.play``) are recorded through the API with
Django's test client, as a person at the table would enter them (in-memory SQLite,
local-memory cache): create the draft (table mode: the setup as dealt), then for each
action ``legal-actions`` field by field until the action is listed, ``chance-options``
field by field when it has a chance outcome (cards, blocks, envelope contents, ticket
refills), ``apply``; every 7th action is undone and applied again; ``finish`` at the
end. One more game per game is played against a bot (server-dealt), where ``apply``
includes the bot's replies. Games are picked for their big choices: the Mister X games
include refills of tens of thousands of possible draws, the Cryptid ones a relocation.

Per step kind: p50 / p95 / max in milliseconds of this process's CPU time
(``time.process_time``: what the step costs on one core, whatever else the shared
machine runs) and p50 / max wall-clock time, and the load average. Target: every step
≤ 50 ms on the server for every game (issue 11).

A synthetic worst case is timed at the end without HTTP: the field-by-field choice over
a Cryptid relocation of 5 sensors onto 8 spaces (10 368 actions; no bot game of 900
reached more than 160), as legal-actions makes it (described by ``Game.legal_spread``)
and, for comparison, over the engine's full list.
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import os
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import add_quick  # noqa: E402
from bench.common.site import start_in_memory_site  # noqa: E402

start_in_memory_site()

from django.contrib.auth import get_user_model  # noqa: E402
from django.test import Client  # noqa: E402

from clubs.models import Club, Membership, Player  # noqa: E402
from engine import play  # noqa: E402
from engine.games.cryptid.legal import relocations  # noqa: E402
from recorder.choices import choose, choose_spread, read_path  # noqa: E402

TARGET_MS = 50.0
HANDLES = ["alice", "bob", "carol", "dmitri"]

#: (game, seed, bots): complete games with big choices (see the docstring).
GAMES = {
    "cryptid-urban-legends": [
        (174, ["greedy", "greedy"]),
        (84, ["greedy", "greedy"]),
        (11, ["greedy", "random"]),
    ],
    "mister-x": [
        (1, ["greedy", "random", "greedy"]),
        (4, ["greedy", "random", "greedy"]),
        (2, ["greedy", "greedy", "greedy"]),
    ],
    "cloak-and-dagger": [
        (5, ["greedy", "random", "greedy"]),
        (7, ["greedy"] * 4),
        (21, ["greedy", "greedy"]),
    ],
}


class Timer:
    def __init__(self) -> None:
        self.cpu: dict[tuple[str, str], list[float]] = defaultdict(list)
        self.wall: dict[tuple[str, str], list[float]] = defaultdict(list)

    def call(self, game: str, kind: str, fn, *args, **kwargs):
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        response = fn(*args, **kwargs)
        self.cpu[game, kind].append((time.process_time() - start_cpu) * 1000)
        self.wall[game, kind].append((time.perf_counter() - start_wall) * 1000)
        if response.status_code >= 400:
            raise SystemExit(f"{kind} answered {response.status_code}: {response.content[:500]!r}")
        return response.json()


def within(part: dict[str, Any], whole: dict[str, Any]) -> bool:
    return all(whole.get(k) == v for k, v in part.items())


def walk(step, target: dict[str, Any]) -> dict[str, Any]:
    prefix: dict[str, Any] = {}
    while True:
        body = step(prefix)
        if body["field"] is None:
            return max(
                (e for e in body["actions"] if within(e["action"], target)),
                key=lambda e: len(e["action"]),
            )
        prefix = {**body["prefix"], body["field"]: read_path(target, body["field"])}


def bot_log(game: str, seed: int, bots: list[str]) -> dict[str, Any]:
    log = play(game, seed, bots, players=HANDLES[: len(bots)])
    for action in log["actions"]:
        for field in ("cards", "tickets"):
            if isinstance(action.get(field), list):
                action[field] = sorted(action[field])
    return log


def record(client: Client, timer: Timer, log: dict[str, Any]) -> int:
    game = log["game"]
    body = {
        "club": "bench",
        "game": game,
        "options": log["options"],
        "chance": "table",
        "seats": [{"seat": e["seat"], "player": e["player"]} for e in log["seats"]],
        "setup": {} if game == "cloak-and-dagger" else log["setup"],
    }
    draft = timer.call(
        game, "create", client.post, "/api/drafts/", body, content_type="application/json"
    )
    url = f"/api/drafts/{draft['id']}/"

    def apply(action: dict[str, Any]) -> dict[str, Any]:
        return timer.call(
            game,
            "apply",
            client.post,
            f"{url}apply/",
            {"version": draft["version"], "action": action},
            content_type="application/json",
        )

    for ply, target in enumerate(log["actions"]):
        entry = walk(
            lambda p, seat=target["seat"]: timer.call(
                game,
                "legal-actions",
                client.get,
                f"{url}legal-actions/",
                {"seat": seat, "prefix": json.dumps(p)},
            ),
            target,
        )
        if entry["chance"]:
            entry = walk(
                lambda p, a=entry["action"]: timer.call(
                    game,
                    "chance-options",
                    client.post,
                    f"{url}chance-options/",
                    {"action": a, "prefix": p},
                    content_type="application/json",
                ),
                target,
            )
        draft = apply(entry["action"])
        if ply % 7 == 6:
            draft = timer.call(
                game,
                "undo",
                client.post,
                f"{url}undo/",
                {"version": draft["version"]},
                content_type="application/json",
            )
            draft = apply(entry["action"])
    timer.call(game, "get", client.get, url)
    done = timer.call(
        game,
        "finish",
        client.post,
        f"{url}finish/",
        {"version": draft["version"]},
        content_type="application/json",
    )
    assert done["status"] == "finished" and done["match"], done
    return len(log["actions"])


def against_bot(client: Client, timer: Timer, game: str, seats: list[str], most: int = 400) -> int:
    body = {
        "club": "bench",
        "game": game,
        "seats": [
            {"seat": seat, "player": HANDLES[0]} if n == 0 else {"seat": seat, "bot": "greedy"}
            for n, seat in enumerate(seats)
        ],
    }
    draft = timer.call(
        game, "create (bots)", client.post, "/api/drafts/", body, content_type="application/json"
    )
    url = f"/api/drafts/{draft['id']}/"
    moves = 0
    while not draft["is_over"] and moves < most:
        choice = timer.call(game, "legal-actions", client.get, f"{url}legal-actions/")
        while choice["field"] is not None:
            prefix = {**choice["prefix"], choice["field"]: choice["values"][0]["value"]}
            choice = timer.call(
                game,
                "legal-actions",
                client.get,
                f"{url}legal-actions/",
                {"prefix": json.dumps(prefix)},
            )
        draft = timer.call(
            game,
            "apply (+bots)",
            client.post,
            f"{url}apply/",
            {"version": draft["version"], "action": choice["actions"][0]["action"]},
            content_type="application/json",
        )
        moves += 1
    return moves


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="bot logs recorded per game")
    parser.add_argument(
        "--freeze-gc",
        action="store_true",
        help="gc.freeze() after the warm-up, as a server process may after boot",
    )
    add_quick(parser)
    args = parser.parse_args()
    # --quick: the first 30 actions of one game of each, 10 moves against the bots
    most = 30 if args.quick else None
    if args.quick:
        args.games = 1
    logging.disable(logging.WARNING)  # 4xx/5xx would stop the run anyway
    user = get_user_model().objects.create_user("bench")
    club = Club.objects.create(name="Bench", slug="bench")
    Membership.objects.create(user=user, club=club, role="organiser")
    for handle in HANDLES:
        Player.objects.create(club=club, handle=handle)
    client = Client()
    client.force_login(user)
    # Warm up (imports, the Mister X board, URL resolution): a server process is warm
    # after its first requests; those are not what this measures.
    for game, runs in GAMES.items():
        seed, bots = runs[0]
        warm = Timer()
        log = bot_log(game, seed, bots)
        record(client, warm, {**log, "actions": log["actions"][:8], "result": None})
    if args.freeze_gc:
        gc.freeze()  # what a server does after boot (e.g. gunicorn's post_fork hook)
    pauses: list[float] = []
    began = [0.0]

    def watch_gc(phase: str, info: dict[str, Any]) -> None:
        if info["generation"] == 2:
            if phase == "start":
                began[0] = time.process_time()
            else:
                pauses.append((time.process_time() - began[0]) * 1000)

    gc.callbacks.append(watch_gc)
    timer = Timer()
    started_cpu, started_wall = time.process_time(), time.perf_counter()
    actions = 0
    for game, runs in GAMES.items():
        for seed, bots in runs[: args.games]:
            log = bot_log(game, seed, bots)
            if most is not None and len(log["actions"]) > most:
                log = {**log, "actions": log["actions"][:most], "result": None}
            actions += record(client, timer, log)
        seats = {
            "cryptid-urban-legends": ["cryptid", "scientist"],
            "mister-x": ["mrx", "det1", "det2"],
            "cloak-and-dagger": ["p1", "p2", "p3"],
        }[game]
        actions += against_bot(client, timer, game, seats, 400 if most is None else 10)

    print(
        f"recorder steps through the Django test client (in-memory SQLite); load average "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs"
    )
    print(
        f"{'game':24} {'step':16} {'n':>5} {'cpu p50':>8} {'p95':>7} {'max':>7} "
        f"{'wall p50':>9} {'max':>7}"
    )
    worst = 0.0
    for (game, kind), cpu in timer.cpu.items():
        wall = timer.wall[game, kind]
        worst = max(worst, percentile(cpu, 0.95))
        print(
            f"{game:24} {kind:16} {len(cpu):5d} {statistics.median(cpu):8.1f} "
            f"{percentile(cpu, 0.95):7.1f} {max(cpu):7.1f} {statistics.median(wall):9.1f} "
            f"{max(wall):7.1f}"
        )
    print(
        f"{actions} actions recorded; total {time.process_time() - started_cpu:.1f} s CPU, "
        f"{time.perf_counter() - started_wall:.1f} s wall"
    )
    gc.callbacks.remove(watch_gc)
    print(
        f"full (generation 2) garbage collections during the run: {len(pauses)}, "
        f"{max(pauses, default=0):.1f} ms CPU at most: the max column's outliers "
        f"(--freeze-gc: objects from before the run frozen first, as a server may do)"
    )

    # Synthetic worst case, no HTTP: choosing among 10 368 relocations, described
    # (Game.legal_spread: what legal-actions does) and, for comparison, listed.
    every = [{"seat": "cryptid", "type": "relocate", "to": to} for to in relocations([2, 2, 1], 8)]
    base, items = {"seat": "cryptid", "type": "relocate"}, {"red": 2, "white": 2, "black": 1}
    for name, step_of in (
        ("described", lambda p: choose_spread(base, "to", items, 8, p)),
        ("listed", lambda p: choose(every, p)),
    ):
        steps, prefix = [], {}
        while True:
            start = time.process_time()
            step = step_of(prefix)
            steps.append((time.process_time() - start) * 1000)
            if step.field is None:
                break
            prefix = {**step.prefix, step.field: step.values[0]["value"]}
        print(
            f"synthetic: relocation of 5 sensors onto 8 spaces ({len(every)} actions), {name}: "
            f"choice steps {', '.join(f'{s:.1f}' for s in steps)} ms CPU"
        )
    verdict = "within" if worst <= TARGET_MS else "OVER"
    print(
        f"worst p95 step (recorded games): {worst:.1f} ms CPU: {verdict} the {TARGET_MS:.0f} ms "
        f"target"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
