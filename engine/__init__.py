"""Lantern's rules engine: pure Python, no Django.

    from engine import replay, IllegalAction
    r = replay(log)            # raises IllegalAction(index, rule, message)
    r.status, r.result, r.state_at(12), list(r.frames("scientist"))
    s = Session.from_log(log)  # play on, one step at a time, as one seat may know it
    s.legal_actions("p1", viewer="p1"); s.step(action, viewer="p1"); s.view("p1")
"""

# The built-in games register themselves on import: importing the engine loads them.
import engine.games  # noqa: F401
from engine.core.beliefs import BELIEFS_VERSION, belief_track
from engine.core.envelope import (
    FORMAT,
    MAX_ACTIONS,
    canonical_json,
    check_envelope,
    parse_json,
    parse_json_value,
)
from engine.core.errors import RULE_ID, IllegalAction, rule_document, rule_path
from engine.core.game import (
    FREE_FOR_ALL,
    ONE_AGAINST_TEAM,
    PUBLIC,
    TWO_SEATS,
    Game,
    Outcome,
    RatingShape,
    Table,
)
from engine.core.messages import DEFAULT_LOCALE, Message, join_list, locales, msg, render
from engine.core.play import BOT_STREAM, play
from engine.core.registry import all_games, get_game, register
from engine.core.replay import ENGINE_ERROR, Replay, replay
from engine.core.rng import Rng
from engine.core.schema import log_schema
from engine.core.session import ALL_SEEING, Session

__all__ = [
    "ALL_SEEING",
    "BELIEFS_VERSION",
    "BOT_STREAM",
    "DEFAULT_LOCALE",
    "ENGINE_ERROR",
    "FORMAT",
    "FREE_FOR_ALL",
    "ONE_AGAINST_TEAM",
    "TWO_SEATS",
    "Game",
    "IllegalAction",
    "MAX_ACTIONS",
    "Message",
    "Outcome",
    "PUBLIC",
    "RULE_ID",
    "RatingShape",
    "Replay",
    "Rng",
    "Session",
    "Table",
    "all_games",
    "belief_track",
    "canonical_json",
    "check_envelope",
    "get_game",
    "join_list",
    "locales",
    "msg",
    "log_schema",
    "parse_json",
    "parse_json_value",
    "play",
    "register",
    "render",
    "replay",
    "rule_document",
    "rule_path",
]
