"""Lantern's rules engine: pure Python, no Django.

from engine import replay, IllegalAction
r = replay(log)            # raises IllegalAction(index, rule, message)
r.status, r.result, r.state_at(12), list(r.frames("scientist"))
s = replay(log).session_at_end()  # play on, one step at a time, as a seat may know it
s.legal_actions("p1", viewer="p1"); s.step(action, viewer="p1"); s.view("p1")
log = play("mister-x", 7, ["greedy"] * 3)   # bots play one game (engine.ai)
analyse(replay(log), seed=0)                # each seat's win chance and mistakes
[analyse_plies(r, a, b) for a, b in analysis_chunks(r)]  # the same in chunks (merge_analysis)
"""

# The built-in games register themselves on import, and their AIs after them:
# importing the engine loads both.
import engine.ai  # noqa: F401
import engine.games  # noqa: F401
from engine.ai.analysis import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    analysable,
    analyse,
    analyse_plies,
)
from engine.ai.analysis import DEFAULT_BUDGET as ANALYSIS_BUDGET
from engine.ai.analysis import chunks as analysis_chunks
from engine.ai.analysis import engine_version as analysis_version
from engine.ai.analysis import merge as merge_analysis
from engine.ai.analysis_result import playouts as analysis_playouts
from engine.ai.beliefs import BELIEFS_VERSION, belief_track
from engine.ai.contract import SAMPLING_FAILED, Bot
from engine.ai.play import BOT_STREAM, play
from engine.ai.registry import bots_of
from engine.core.ending import end_result, winning_side
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
from engine.core.registry import all_games, get_game, register
from engine.core.replay import ENGINE_ERROR, Replay, replay
from engine.core.rng import Rng
from engine.core.schema import log_schema
from engine.core.session import ALL_SEEING, Session

__all__ = [
    "winning_side",
    "ALL_SEEING",
    "ANALYSIS_BUDGET",
    "BLUNDER",
    "BELIEFS_VERSION",
    "BOT_STREAM",
    "Bot",
    "DEFAULT_LOCALE",
    "ENGINE_ERROR",
    "FORMAT",
    "FREE_FOR_ALL",
    "ONE_AGAINST_TEAM",
    "TWO_SEATS",
    "Game",
    "INACCURACY",
    "IllegalAction",
    "MAX_ACTIONS",
    "MISTAKE",
    "Message",
    "Outcome",
    "PUBLIC",
    "RULE_ID",
    "RatingShape",
    "SAMPLING_FAILED",
    "Replay",
    "Rng",
    "Session",
    "Table",
    "all_games",
    "analysable",
    "analyse",
    "analyse_plies",
    "analysis_chunks",
    "analysis_playouts",
    "analysis_version",
    "belief_track",
    "bots_of",
    "canonical_json",
    "end_result",
    "check_envelope",
    "get_game",
    "join_list",
    "locales",
    "merge_analysis",
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
