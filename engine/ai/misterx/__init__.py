"""Mister X's AI: bots in :mod:`.bots`, the detectives' and Mister X's beliefs in
:mod:`.beliefs`, the :class:`~engine.ai.contract.GameAI` in :mod:`.ai`."""

from engine.ai.misterx.ai import MisterXAI
from engine.ai.registry import register_ai
from engine.games.misterx import GAME

AI = register_ai(MisterXAI(GAME))
