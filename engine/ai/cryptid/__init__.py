"""Cryptid's AI: bots in :mod:`.bots`, each seat's beliefs about the other's hand in
:mod:`.beliefs`, the :class:`~engine.ai.contract.GameAI` in :mod:`.ai`."""

from engine.ai.cryptid.ai import CryptidAI
from engine.ai.registry import register_ai
from engine.games.cryptid import GAME

AI = register_ai(CryptidAI(GAME))
