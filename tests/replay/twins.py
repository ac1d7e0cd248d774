"""Counterfactual twins of whole games: a second log with the same public history for one
perspective and other hidden facts, made by editing a played log where only that
perspective's blind spot is touched:

* Cryptid: one card of the opponent's that it never played (in its opening hand or a
  draw) becomes another card of its deck it never drew;
* Cloak & Dagger: two cards other seats placed (CD-3.2: the others learn the envelope,
  not the card) swap places, the pile's order unrecorded;
* Mister X: his whole path is redrawn from the detectives' own beliefs (every path
  consistent with the public record is one the rules allow with the same tickets: the
  face-up tickets fix the transports, a secret move goes anywhere).

A candidate is a twin only when the engine says so: both logs replay to the same end, the
perspective's frames (every view, action and sentence it is shown) are identical, and the
all-seeing frames are not. The logs carry no seed (chance is as recorded).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

from engine import IllegalAction, replay
from engine.core.rng import Rng
from replay.frames import ALL, build_frames

Log = dict[str, Any]


def unseeded(log: Log) -> Log:
    out = copy.deepcopy(log)
    out.pop("seed", None)
    return out


def _frames(log: Log, viewer: str) -> str:
    return json.dumps(build_frames(log, viewer)["frames"], sort_keys=True)


def is_twin(log: Log, other: Log, viewer: str) -> bool:
    """Same public history for ``viewer``, same end, other hidden facts."""
    try:
        a, b = replay(log), replay(other)
    except IllegalAction:
        return False
    if a.status != b.status or a.result != b.result or len(a.actions) != len(b.actions):
        return False
    return _frames(log, viewer) == _frames(other, viewer) and _frames(log, ALL) != _frames(
        other, ALL
    )


def _first(log: Log, candidates: Iterator[Log], viewer: str) -> Log:
    for candidate in candidates:
        if is_twin(log, candidate, viewer):
            return candidate
    raise AssertionError(f"no twin of this {log['game']} game for {viewer}")


# --- Cryptid ----------------------------------------------------------------------------------


def cryptid_twin(log: Log, viewer: str) -> Log:
    """The opponent of ``viewer`` held another card it never played."""
    from engine.games.cryptid.state import CARDS, OTHER

    log = unseeded(log)
    opponent = OTHER[viewer]

    def candidates() -> Iterator[Log]:
        places: list[tuple[Any, ...]] = [
            ("setup", i) for i in range(len(log["setup"]["hands"][opponent]))
        ]
        for index, action in enumerate(log["actions"]):
            if action["seat"] == opponent and action["type"] == "draw":
                places += [("draw", index, i) for i in range(len(action.get("cards", [])))]
        for place in reversed(places):  # late cards are the likeliest never played
            for card in CARDS:
                other = copy.deepcopy(log)
                cards = (
                    other["setup"]["hands"][opponent]
                    if place[0] == "setup"
                    else other["actions"][place[1]]["cards"]
                )
                i = place[-1]
                if cards[i] == card:
                    continue
                cards[i] = card
                yield other

    return _first(log, candidates(), viewer)


# --- Cloak & Dagger ---------------------------------------------------------------------------


def cloak_twin(log: Log, viewer: str) -> Log:
    """A card placed by another seat than ``viewer`` is another card of the pile: one never
    drawn, or one another seat placed, swapped (the pile's order is left unrecorded, so
    that each place names its card, CD-3.2)."""
    from engine.games.cloak.state import deck

    log = unseeded(log)
    log.get("setup", {}).pop("pile", None)
    places = [
        i for i, a in enumerate(log["actions"]) if a["type"] == "place" and a["seat"] != viewer
    ]

    def candidates() -> Iterator[Log]:
        for x in reversed(places):
            for card in sorted(
                set(
                    deck(
                        {
                            "document_copies": 1,
                            "double_agents": True,
                            "hazards": True,
                            **log.get("options", {}),
                        }
                    )
                )
            ):
                if card != log["actions"][x]["card"]:
                    other = copy.deepcopy(log)
                    other["actions"][x]["card"] = card
                    yield other
        for x in reversed(places):
            for y in reversed(places):
                if y >= x or log["actions"][x]["card"] == log["actions"][y]["card"]:
                    continue
                other = copy.deepcopy(log)
                a, b = other["actions"][x], other["actions"][y]
                a["card"], b["card"] = b["card"], a["card"]
                yield other

    return _first(log, candidates(), viewer)


# --- Mister X ---------------------------------------------------------------------------------


def _with_path(log: Log, path: list[int]) -> Log:
    """``log`` with Mister X's start and every step he took moved onto ``path``."""
    other = copy.deepcopy(log)
    other["setup"]["start"] = path[0]
    slot = 1
    for action in other["actions"]:
        if action["seat"] != "mrx":
            continue
        if action["type"] in ("move", "secret"):
            action["to"] = path[slot]
            slot += 1
        elif action["type"] == "double":
            for step in action["moves"]:
                step["to"] = path[slot]
                slot += 1
    assert slot == len(path)
    return other


def misterx_twin(log: Log, viewer: str = "detectives") -> Log:
    """Mister X took another path the detectives could not tell from his real one."""
    from engine.ai.misterx.beliefs import Beliefs
    from engine.ai.registry import ai_of
    from engine.games.misterx.state import TEAM

    log = unseeded(log)
    final = replay(log).final_state
    beliefs = Beliefs(final, TEAM)
    assert ai_of("mister-x").beliefs(final, TEAM).__class__ is Beliefs

    def candidates() -> Iterator[Log]:
        rng = Rng(1)
        for _ in range(200):
            path = beliefs._sample_path(rng)
            if path != final.path:
                yield _with_path(log, path)

    return _first(log, candidates(), viewer)


def misterx_rack_twin(log: Log, viewer: str = "mrx") -> Log:
    """A detective held other tickets Mister X never saw: a ticket the detectives were dealt
    (at the setup or in a refill, MX-5: their racks are hidden from him) and never laid face
    up is another kind, or is swapped with another such ticket of another detective's."""
    from engine.games.misterx.state import MRX

    log = unseeded(log)
    places: list[tuple[Any, ...]] = []
    for seat, rack in log["setup"]["racks"].items():
        if seat != MRX:
            places += [("setup", seat, i) for i in range(len(rack))]
    for index, action in enumerate(log["actions"]):
        if action["seat"] != MRX and action["type"] == "refill":
            places += [("refill", index, i) for i in range(len(action.get("tickets") or []))]

    def where(other: Log, place: tuple[Any, ...]) -> list[str]:
        if place[0] == "setup":
            return other["setup"]["racks"][place[1]]
        return other["actions"][place[1]]["tickets"]

    kinds = sorted({t for place in places for t in where(log, place)})

    def candidates() -> Iterator[Log]:
        for place in places:  # early first: the twins then differ for most of the game
            for ticket in kinds:
                if ticket != where(log, place)[place[-1]]:
                    other = copy.deepcopy(log)
                    where(other, place)[place[-1]] = ticket
                    yield other
        for x in places:
            for y in places:
                if where(log, x)[x[-1]] == where(log, y)[y[-1]] or (x[0], x[1]) == (y[0], y[1]):
                    continue
                other = copy.deepcopy(log)
                a, b = where(other, x), where(other, y)
                a[x[-1]], b[y[-1]] = b[y[-1]], a[x[-1]]
                yield other

    return _first(log, candidates(), viewer)
