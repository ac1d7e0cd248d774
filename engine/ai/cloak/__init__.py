"""Cloak & Dagger's AI: bots in :mod:`.bots`, what each seat's check sheet proves in
:mod:`.beliefs`, whole histories dealt from one seat's observations in :mod:`.sampling`,
the :class:`~engine.ai.contract.GameAI` in :mod:`.ai`."""

from engine.ai.cloak.ai import CloakAI
from engine.ai.registry import register_ai
from engine.games.cloak import GAME

AI = register_ai(CloakAI(GAME))
