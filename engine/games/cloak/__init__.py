"""Cloak & Dagger (2–6 players): rules, per-seat knowledge (check sheets), views, bots."""

from engine.core.registry import register
from engine.games.cloak.bots import BOTS
from engine.games.cloak.rules import CloakAndDagger

GAME = CloakAndDagger()
GAME.bots = BOTS
register(GAME)

__all__ = ["GAME", "CloakAndDagger"]
