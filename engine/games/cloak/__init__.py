"""Cloak & Dagger (2–6 players): rules, per-seat knowledge (check sheets), views, bots."""

from engine.core.registry import register
from engine.games.cloak.game import CloakGame

GAME = register(CloakGame())

__all__ = ["GAME", "CloakGame"]
