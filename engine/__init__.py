"""Lantern's rules engine: pure Python, no Django.

    from engine import replay, IllegalAction
    r = replay(log)            # raises IllegalAction(index, rule, message)
    r.status, r.result, r.state_at(12), list(r.frames("scientist"))
"""

from engine.core.envelope import FORMAT, canonical_json, check_envelope, parse_json
from engine.core.errors import IllegalAction
from engine.core.game import (
    FREE_FOR_ALL,
    ONE_AGAINST_TEAM,
    TWO_SEATS,
    Game,
    Outcome,
    RatingShape,
)
from engine.core.play import play
from engine.core.registry import all_games, get_game, register
from engine.core.replay import ENGINE_ERROR, Replay, replay
from engine.core.rng import Rng
from engine.core.schema import log_schema

__all__ = [
    "ENGINE_ERROR",
    "FORMAT",
    "FREE_FOR_ALL",
    "ONE_AGAINST_TEAM",
    "TWO_SEATS",
    "Game",
    "IllegalAction",
    "Outcome",
    "RatingShape",
    "Replay",
    "Rng",
    "all_games",
    "canonical_json",
    "check_envelope",
    "get_game",
    "log_schema",
    "parse_json",
    "play",
    "register",
    "replay",
]
