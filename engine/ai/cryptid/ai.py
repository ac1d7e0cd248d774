"""Cryptid's AI (see :class:`engine.ai.contract.GameAI`)."""

from __future__ import annotations

from typing import Any

from engine.ai.contract import GameAI
from engine.ai.cryptid.beliefs import Beliefs, summary
from engine.ai.cryptid.bots import greedy_bot, random_bot, search_level
from engine.games.cryptid.state import CryptidState


class CryptidAI(GameAI):
    bots = {"random": random_bot, "greedy": greedy_bot, "search": search_level}
    #: analysis plays positions out to the end with greedy, as the search level does
    analysis_search: dict[str, Any] | None = {}
    #: a seat's own chance on 4 batches: a playout's result is nearly a coin toss whatever
    #: the opponent holds (bench/README.md), so only more playouts narrow it
    analysis_own_batches = 4

    def beliefs(self, state: CryptidState, viewer: str | None) -> Beliefs:
        return Beliefs(state, viewer)

    def belief_summary(self, state: CryptidState, viewer: str | None) -> list[dict[str, Any]]:
        return summary(state, viewer)
