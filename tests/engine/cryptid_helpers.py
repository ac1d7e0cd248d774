"""Building Cryptid tables by hand for rule tests."""

from __future__ import annotations

import copy
from typing import Any

from engine import get_game
from engine.games.cryptid.groups import group_from
from engine.games.cryptid.opening import new_state
from engine.games.cryptid.state import BLOCK_ORDER, BLOCK_RANK, OTHER, CryptidState

GAME = get_game("cryptid-urban-legends")

TABLE_SETUP = {
    "sensors_2r2w1b": "left",
    "hands": {"cryptid": ["split", "align", "shuffle"], "scientist": ["shuffle", "align", "split"]},
    "first_blocks": ["N6", "N4", "N12"],
}


def start(
    setup: dict[str, Any] | None = None, options: dict[str, Any] | None = None
) -> CryptidState:
    """A new game without a seed (every outcome recorded), from TABLE_SETUP."""
    return new_state(
        GAME.normalize_options(options or {}), copy.deepcopy(setup or TABLE_SETUP), None
    )


def spaces(*groups: dict[str, int]) -> list[list[int]]:
    return [group_from(g, "TEST", "test") for g in groups]


def table(
    *,
    active: str,
    active_row: list[str],
    inactive_row: list[str],
    active_spaces: list[dict[str, int]] | None = None,
    inactive_spaces: list[dict[str, int]] | None = None,
    presence: tuple[str, ...] = (),
    evidence: tuple[str, ...] = (),
    round_: int = 3,
    phase: str = "sensor",
    hands: dict[str, list[str]] | None = None,
) -> CryptidState:
    """A table set by hand: ``active`` names the active row (and the first player)."""
    state = start()
    state.round = round_
    state.phase = phase
    state.active = active
    state.turn = active
    state.rows = {active: list(active_row), OTHER[active]: list(inactive_row)}
    state.sensors = {
        active: spaces(*(active_spaces or [{}] * (len(active_row) + 1))),
        OTHER[active]: spaces(*(inactive_spaces or [{}] * (len(inactive_row) + 1))),
    }
    assert len(state.sensors[active]) == len(active_row) + 1
    assert len(state.sensors[OTHER[active]]) == len(inactive_row) + 1
    state.active_sensors = sum(map(sum, state.sensors[active]))
    state.presence = set(presence)
    state.evidence = set(evidence)
    on_table = set(active_row) | set(inactive_row)
    state.block_pool = sorted(
        (b for b in BLOCK_ORDER if b not in on_table), key=BLOCK_RANK.__getitem__
    )
    state.guaranteed = 0 if round_ >= 3 else state.guaranteed
    if hands is not None:
        state.hands = {seat: sorted(cards) for seat, cards in hands.items()}
    return state


def sensor_total(state: CryptidState) -> list[int]:
    return [sum(space[c] for row in state.sensors.values() for space in row) for c in range(3)]
