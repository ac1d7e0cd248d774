"""Cryptid's AI (see :class:`engine.ai.contract.GameAI`)."""

from __future__ import annotations

from typing import Any

from engine.ai.contract import GameAI
from engine.ai.cryptid.beliefs import Beliefs, summary
from engine.ai.cryptid.bots import greedy_bot, random_bot, search_level
from engine.ai.cryptid.evaluation import evaluate
from engine.games.cryptid.state import CryptidState


class CryptidAI(GameAI):
    bots = {"random": random_bot, "greedy": greedy_bot, "search": search_level}
    #: analysis plays positions out with greedy to the start of the next round and scores
    #: the table there (engine/ai/cryptid/evaluation.py; bench/README.md)
    analysis_search: dict[str, Any] | None = {"evaluate": evaluate, "cut_rounds": 1}
    #: a seat's own chance on 4 batches: the opponent's hand matters little, a playout's
    #: course much (bench/README.md), so only more playouts narrow it
    analysis_own_batches = 4
    #: every sensor move, declaration, blockade and expansion scored (a relocation's many
    #: ways are left to the search)
    analysis_every_move = 32
    #: the choices scored on 4 batches of worlds (2 kept fewer labels, bench/README.md)
    analysis_choice_batches = 4
    #: a drop looked at after each batch of worlds, at most 16 (8 and 32 measured:
    #: bench/README.md)
    analysis_drop_batches = 16
    #: a relocation's searched best move is searched 3 more times (bench/README.md)
    analysis_searches_again = 3

    def beliefs(self, state: CryptidState, viewer: str | None) -> Beliefs:
        return Beliefs(state, viewer)

    def belief_summary(self, state: CryptidState, viewer: str | None) -> list[dict[str, Any]]:
        return summary(state, viewer)
