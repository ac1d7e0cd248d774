"""Write ``docs/examples/*.json``: Lantern's example match logs, one per kind of ending.

The examples are games the engine's own bots played (``engine.play``), written down
as a club would record them at a table: ``seed`` null, so every chance outcome (cards
drawn, tickets refilled, cards placed) stands in the actions. Handles are people's,
not bots', so the logs can be uploaded to a club as they are. The tests, the docs and
the site use the committed files; this script is how they were made:

    .venv/bin/python -m tests.make_examples           # rewrite docs/examples/
    .venv/bin/python -m tests.make_examples --check   # compare, exit 1 on a difference

It lives among the tests because, like them, it plays named games on purpose.

For each example the first seed (from 1) whose game ends the wanted way is taken, so
a change to a bot may pick another game; the committed files keep validating either
way, as any stored log must.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine import play, replay  # noqa: E402

OUT = ROOT / "docs" / "examples"
MAX_SEED = 2000


# --- a small Mister X board, inline in its log (MX-1.1a) ----------------------------------
COLUMNS, ROWS = 7, 6
_FIRST = ["Ash", "Bram", "Cold", "Dun", "Elm", "Fair", "Glen"]
_LAST = ["ford", "holt", "mere", "stow", "wick", "by"]


def _city_id(column: int, row: int) -> int:
    return row * COLUMNS + column + 1


def practice_board() -> dict[str, Any]:
    """A 7 x 6 grid of invented towns: car between grid neighbours, train along every
    second row and column two towns at a time, a few planes between the corners and the
    middle. Small enough to read in a log, large enough for a real chase."""
    cities = [
        {"id": _city_id(c, r), "name": _FIRST[c] + _LAST[r], "x": 60 + 120 * c, "y": 60 + 110 * r}
        for r in range(ROWS)
        for c in range(COLUMNS)
    ]
    connections: list[list[Any]] = []
    for r in range(ROWS):
        for c in range(COLUMNS):
            here = _city_id(c, r)
            if c + 1 < COLUMNS:
                connections.append([here, _city_id(c + 1, r), "car"])
            if r + 1 < ROWS:
                connections.append([here, _city_id(c, r + 1), "car"])
            if r % 2 == 0 and c % 2 == 0 and c + 2 < COLUMNS:
                connections.append([here, _city_id(c + 2, r), "train"])
            if c % 2 == 1 and r % 2 == 1 and r + 2 < ROWS:
                connections.append([here, _city_id(c, r + 2), "train"])
    # the car and the train both join the first two towns of the second row
    connections.append([_city_id(0, 1), _city_id(1, 1), "train"])
    middle = _city_id(3, 2)
    for corner in (_city_id(0, 0), _city_id(6, 0), _city_id(0, 5), _city_id(6, 5)):
        connections.append([corner, middle, "plane"])
    connections.append([_city_id(1, 4), _city_id(5, 1), "plane"])

    def ids(*cells: tuple[int, int]) -> list[int]:
        return [_city_id(c, r) for c, r in cells]

    missions = {
        "green": {
            "starts": ids((1, 0), (2, 1), (0, 2), (3, 0), (1, 2)),
            "destinations": ids((3, 3), (2, 4)),
        },
        "yellow": {
            "starts": ids((6, 1), (5, 0), (6, 3), (4, 1), (5, 2)),
            "destinations": ids((1, 5), (0, 4)),
        },
        "orange": {
            "starts": ids((0, 5), (1, 4), (2, 5), (0, 3), (3, 5)),
            "destinations": ids((6, 0), (5, 1)),
        },
    }
    taken = {c for m in missions.values() for c in (*m["starts"], *m["destinations"])}
    start_cards = [cid for cid in range(1, COLUMNS * ROWS + 1) if cid not in taken][:15]
    counts = {"car": 13, "train": 10, "plane": 7}
    tickets = [
        {"transport": transport, "icon": icon, "count": counts[transport]}
        for transport in ("car", "train", "plane")
        for icon in ("double", "secret", "investigate", "siren")
    ]
    return {
        "id": "practice",
        "version": 1,
        "name": "Practice grid (Lantern's example board)",
        "cities": cities,
        "connections": connections,
        "missions": missions,
        "start_cards": start_cards,
        "tickets": tickets,
        "pawns": ["red", "blue", "green", "yellow", "black"],
    }


# --- the examples --------------------------------------------------------------------------
def as_recorded(log: dict[str, Any], players: list[str], event: str, notes: str) -> dict[str, Any]:
    """The bots' log as a table would record it: no seed, people's handles, a meta."""
    out = copy.deepcopy(log)
    out["seed"] = None
    for entry, player in zip(out["seats"], players, strict=True):
        entry["player"] = player
    out["meta"] = {"played_at": "2026-11-20T19:00:00Z", "event": event, "notes": notes}
    return out


def first_game(
    game: str,
    bots: list[str],
    wanted: Callable[[dict[str, Any]], bool],
    options: dict[str, Any] | None = None,
) -> tuple[int, dict[str, Any]]:
    for seed in range(1, MAX_SEED):
        log = play(game, seed, bots, options=options, max_actions=600)
        if log["result"] is not None and wanted(log):
            return seed, log
    raise SystemExit(f"no {game} game among seeds 1..{MAX_SEED} ends as wanted")


def illegal_draw(log: dict[str, Any]) -> dict[str, Any] | None:
    """The log with its first two-card draw cut to one card (CUL-3.7), or None."""
    for index, action in enumerate(log["actions"]):
        if (
            action["type"] == "draw"
            and len(action["cards"]) == 2
            and action["seat"] == "cryptid"
            and index >= 6
        ):
            broken = copy.deepcopy(log)
            broken["actions"][index]["cards"] = action["cards"][:1]
            return broken
    return None


def examples() -> dict[str, dict[str, Any]]:
    cryptid, table = "cryptid-urban-legends", ["alice", "bob"]
    out: dict[str, dict[str, Any]] = {}

    seed, log = first_game(
        cryptid, ["greedy", "greedy"], lambda g: g["result"]["reason"] == "escape"
    )
    out["cryptid-escape.json"] = as_recorded(
        log, table, "Lantern examples", f"the cryptid escapes (greedy bots, seed {seed})"
    )
    seed, log = first_game(
        cryptid,
        ["greedy", "random"],
        lambda g: g["result"]["reason"] == "timeout" and g["result"]["winner"] == "cryptid",
    )
    out["cryptid-timeout.json"] = as_recorded(
        log,
        table,
        "Lantern examples",
        f"time out, the evidence counted (greedy and random bots, seed {seed})",
    )
    seed, log = first_game(
        cryptid,
        ["random", "greedy"],
        lambda g: g["result"]["reason"] == "capture" and illegal_draw(g) is not None,
    )
    broken = illegal_draw(log)
    assert broken is not None
    out["cryptid-illegal-draw.json"] = as_recorded(
        broken,
        table,
        "Lantern examples",
        f"rejected: one card drawn where two are due (random and greedy bots, seed {seed})",
    )

    mister_x = {
        "board": practice_board(),
        "pawns": {"det1": ["blue", "black", "red"], "det2": ["yellow", "green"]},
    }
    seed, log = first_game(
        "mister-x",
        ["greedy", "random", "random"],
        lambda g: g["result"]["reason"] == "destination" and len(g["actions"]) <= 40,
        options=mister_x,
    )
    out["misterx-destination.json"] = as_recorded(
        log,
        ["dmitri", "ada", "lena"],
        "Lantern examples",
        f"Mister X reaches a destination (seed {seed})",
    )

    seed, log = first_game(
        "cloak-and-dagger", ["greedy", "greedy"], lambda g: g["result"]["winner"] == "p1"
    )
    out["cloak-documents.json"] = as_recorded(
        log,
        ["greedy-bot-1", "greedy-bot-2"],
        "Lantern examples",
        f"p1 gathers X, Y and Z with a spy (greedy bots, seed {seed})",
    )
    return out


def text_of(log: dict[str, Any]) -> str:
    """One action per line: short enough to read, diff and review."""
    head = {k: v for k, v in log.items() if k != "actions"}
    lines = ",\n".join(json.dumps(a, ensure_ascii=False) for a in log["actions"])
    body = json.dumps(head, ensure_ascii=False)[:-1]
    return f'{body}, "actions": [\n{lines}\n]}}\n'


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed files")
    args = parser.parse_args()
    different = []
    for name, log in examples().items():
        text = text_of(log)
        assert json.loads(text) == log
        if name != "cryptid-illegal-draw.json":
            assert replay(log).result == log["result"], name
        path = OUT / name
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                different.append(name)
        else:
            OUT.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)} ({len(log['actions'])} actions)")
    if different:
        print("differ from what the engine writes now: " + ", ".join(different))
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
