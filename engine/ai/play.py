"""Bots playing a whole game, written down as a complete ``lantern-log/1`` document."""

from __future__ import annotations

from typing import Any

from engine.ai.registry import bots_of
from engine.core.envelope import FORMAT
from engine.core.errors import IllegalAction
from engine.core.frozen import as_recorded
from engine.core.messages import msg
from engine.core.registry import get_game
from engine.core.rng import Rng

#: Bots draw their decisions from their own generator, so a bot's choices never
#: shift the chance outcomes the seed gives the game.
BOT_STREAM = 0xB07B07B07B07B07B


def play(
    game_id: str,
    seed: int,
    bots: list[str],
    *,
    options: dict[str, Any] | None = None,
    players: list[str] | None = None,
    max_actions: int = 2000,
) -> dict[str, Any]:
    """Play one game with ``bots`` (one name per seat, in seat order) and return its log.

    Every chance outcome is written into the actions as well as derivable from
    the seed, so the log validates with or without it. A game that reaches
    ``max_actions`` without ending is written as it stands (``unfinished``).
    """
    game = get_game(game_id)
    if game is None:
        raise ValueError(f"unknown game {game_id!r}")
    bots_by_name = bots_of(game)
    options = game.normalize_options(options or {})
    seats = game.seat_ids(options, len(bots))
    if len(bots) != len(seats):
        raise ValueError(
            f"{game_id} with these options has {len(seats)} seats, got {len(bots)} bots"
        )
    unknown = sorted({b for b in bots if b not in bots_by_name})
    if unknown:
        raise ValueError(f"unknown bot(s) {unknown}; {game_id} has {sorted(bots_by_name)}")
    players = players or [f"{bot}-bot-{i + 1}" for i, bot in enumerate(bots)]
    seat_entries = [{"seat": s, "player": p} for s, p in zip(seats, players, strict=True)]
    game.check_seats(seat_entries, options)
    bot_of = dict(zip(seats, bots, strict=True))

    game_rng = Rng(seed)
    bot_rng = Rng(seed ^ BOT_STREAM)
    choices = game.random_setup_choices(options, seats, bot_rng)
    state = game.initial_state(options, seats, choices, game_rng)
    setup = game.setup_record(state)

    actions: list[dict[str, Any]] = []
    while not game.is_over(state) and len(actions) < max_actions:
        acting = game.to_act(state)
        if not acting:
            raise IllegalAction(game.end_rule, msg("core.refuse.no_seat_can_act_but"))
        seat = acting[0]
        bot = bots_by_name[bot_of[game.controller(seat)]]
        action = bot(game, state, seat, bot_rng)
        actions.append(as_recorded(game.apply(state, action)))  # the log's own copy

    return {
        "format": FORMAT,
        "game": game_id,
        "options": options,
        "seats": seat_entries,
        "seed": seed,
        "setup": setup,
        "actions": actions,
        "result": game.result(state) if game.is_over(state) else None,
        "meta": {"generator": "python -m engine play", "bots": bot_of},
    }
