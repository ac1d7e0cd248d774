"""``Game.clock``: the round and phase a replay's move list shows at every ply, read from
the state, are those of every viewer's view (replay.frames builds a view for one page of
plies only, and the clock for all of them)."""

from __future__ import annotations

import pytest

from engine import PUBLIC, IllegalAction, play, replay
from tests.examples import EXAMPLES_DIR, load_example

LOGS = [
    (name, load_example(name))
    for name in sorted(p.name for p in EXAMPLES_DIR.glob("*.json"))
    if load_example(name).get("format") == "lantern-log/1"
]
LOGS += [
    (f"{game} random", play(game, 5, ["random"] * seats, max_actions=400))
    for game, seats in (("cloak-and-dagger", 3), ("mister-x", 4), ("cryptid-urban-legends", 2))
]


@pytest.mark.parametrize("name, log", LOGS, ids=[name for name, _ in LOGS])
def test_the_clock_is_every_views_round_and_phase(name, log):
    try:
        done = replay(log)
    except IllegalAction as exc:  # a rejected example: its valid prefix
        done = exc.partial
    game = done.game
    viewers = [None, PUBLIC, *game.viewers(done.options, done.seats)]
    for ply, _action, state in done.states():
        clock = game.clock(state)
        for viewer in viewers:
            view = game.view(state, viewer)
            assert clock == {"round": view.get("round"), "phase": view.get("phase")}, (
                name,
                ply,
                viewer,
            )
