"""Cryptid: Urban Legends (``docs/rules/cryptid-urban-legends.md``, ids ``CUL-*``)."""

from engine.core.registry import register
from engine.games.cryptid.game import CryptidGame

GAME = register(CryptidGame())
