"""The Mister X engine against a record of what it said before it was last made faster.

``data/misterx-recorded-games.json`` holds one digest per seeded game, written by the
engine as it stood at 47af708 (regenerate only for a deliberate change of rules or
views: ``python -m tests.engine.test_misterx_recorded_games``). Each game (2 to 6 seats)
is played by a chooser written here, not by the bots, which other work changes. The
digest covers, in every state, each seat's legal actions in order, the refusals (rule
and message) of a few wrong actions, every viewer's view and the clone's (every fourth
state), and the log with every chance outcome, replayed with and without its seed. Any
change in what the engine says changes a digest. The default run checks every fourth
game; ``LANTERN_SLOW=1`` all of them.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest

from engine import IllegalAction, get_game, replay
from engine.core.rng import Rng

GAME = get_game("mister-x")
FIXTURE = Path(__file__).parent / "data" / "misterx-recorded-games.json"
GAMES = 240
MAX_ACTIONS = 600
SLOW = os.environ.get("LANTERN_SLOW", "").lower() in {"1", "true", "yes"}


def _choose(actions: list[dict[str, Any]], rng: Rng) -> dict[str, Any]:
    """A kind of action at random, then one of that kind (so specials come up often)."""
    kinds = sorted({a["type"] for a in actions})
    kind = kinds[rng.below(len(kinds))]
    return rng.choice([a for a in actions if a["type"] == kind])


def _wrong_actions(state: Any, seat: str, legal: list[dict[str, Any]], rng: Rng) -> list[Any]:
    """A few actions that are (mostly) not legal now, near to legal ones."""
    wrong: list[Any] = [
        {"seat": seat, "type": "refill"},
        {"seat": seat, "type": "stay", "pawn": "red"},
        {"seat": "mrx", "type": "move", "ticket": "car/double", "to": 1},
    ]
    if legal:
        base = legal[rng.below(len(legal))]
        for key, junk in (
            ("to", 1),
            ("to", "7"),
            ("ticket", "boat/double"),
            ("ticket", "plane/siren"),
            ("pawn", "blue"),
            ("seat", "det2"),
            ("tickets", ["car/double"] * 3),
            ("pay", ["car/secret", "car/secret"]),
            ("pay", {"det1": ["car/siren"]}),
        ):
            if key in base or key == "to":
                wrong.append({**base, key: junk})
    return wrong


def _refusal(state: Any, action: Any) -> list[Any]:
    try:
        GAME.apply(GAME.clone(state), action)
    except IllegalAction as exc:
        return [exc.rule, exc.message]
    except Exception as exc:  # noqa: BLE001 - recorded as what it is
        return ["crash", repr(exc)]
    return ["ok"]


def game_digest(seed: int) -> str:
    """Play game ``seed`` and digest everything the engine said on the way."""
    seats = GAME.seat_ids({}, 2 + seed % 5)
    options = GAME.normalize_options({})
    rng = Rng(seed * 7919 + 1)
    game_rng = Rng(seed)
    setup = GAME.random_setup_choices(options, seats, rng)
    state = GAME.initial_state(options, seats, setup, game_rng)
    setup = GAME.setup_record(state)
    viewers = [None, *GAME.viewers(options, seats)]
    every_seat = [*seats, "detectives"]
    out = hashlib.sha256()

    def put(thing: Any) -> None:
        out.update(json.dumps(thing, sort_keys=False, default=sorted).encode())
        out.update(b"\n")

    actions = []
    while not GAME.is_over(state) and len(actions) < MAX_ACTIONS:
        if len(actions) % 4 == 0:  # views are slow to make: every fourth state
            put([GAME.view(state, v) for v in viewers])
            put(GAME.view(GAME.clone(state), None))
        legal = {s: GAME.legal_actions(state, s) for s in every_seat}
        put(legal)
        acting = GAME.to_act(state)
        put(acting)
        seat = acting[0]
        choices = legal[seat]
        if seat == "detectives" and rng.below(2):
            seat = acting[-1]
            choices = legal[seat]
        put([_refusal(state, a) for a in _wrong_actions(state, seat, choices, rng)])
        action = _choose(choices, rng)
        recorded = GAME.apply(state, action)
        put(recorded)
        actions.append(recorded)
    put([GAME.view(state, v) for v in viewers])
    log = {
        "format": "lantern-log/1",
        "game": "mister-x",
        "options": options,
        "seats": [{"seat": s, "player": f"p{i}"} for i, s in enumerate(seats)],
        "seed": seed,
        "setup": setup,
        "actions": actions,
        "result": GAME.result(state),
    }
    put(log)
    for variant in (log, {**log, "seed": None}):
        try:
            done = replay(variant)
            put([done.status, done.result, done.actions == actions])
        except IllegalAction as exc:
            put([exc.rule, exc.message, exc.index])
    return out.hexdigest()


def test_the_engine_says_what_it_said_before_in_the_recorded_games() -> None:
    """Every fourth game (every seat count comes up); ``LANTERN_SLOW=1``: all 240."""
    recorded = json.loads(FIXTURE.read_text())
    assert len(recorded) == GAMES
    seeds = range(GAMES) if SLOW else range(0, GAMES, 4)
    differ = [seed for seed in seeds if game_digest(seed) != recorded[str(seed)]]
    assert not differ, f"games whose legal actions, views, refusals or logs changed: {differ[:20]}"


@pytest.mark.parametrize("seed", [3, 11])
def test_a_digest_notices_a_changed_legal_list(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The digest is not blind: the same game with two legal actions swapped differs."""
    real = GAME.legal_actions

    def swapped(state: Any, seat: str) -> list[dict[str, Any]]:
        found = real(state, seat)
        return [*found[1:2], *found[:1], *found[2:]] if len(found) > 1 else found

    recorded = json.loads(FIXTURE.read_text())
    monkeypatch.setattr(GAME, "legal_actions", swapped)
    assert game_digest(seed) != recorded[str(seed)]


if __name__ == "__main__":
    FIXTURE.write_text(json.dumps({str(s): game_digest(s) for s in range(GAMES)}, indent=0) + "\n")
