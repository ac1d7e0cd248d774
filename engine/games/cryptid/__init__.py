"""Cryptid: Urban Legends (``../shared/rules/cryptid-urban-legends.md``, ids ``CUL-*``)."""

from engine.core.registry import register
from engine.games.cryptid.game import CryptidGame

GAME = register(CryptidGame())
