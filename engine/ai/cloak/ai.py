"""Cloak & Dagger's AI (see :class:`engine.ai.contract.GameAI`)."""

from __future__ import annotations

from typing import Any

from engine.ai.cloak import beliefs
from engine.ai.cloak.bots import BOTS
from engine.ai.cloak.evaluation import evaluate
from engine.ai.cloak.particles import Particles
from engine.ai.cloak.sampling import Beliefs
from engine.ai.contract import GameAI
from engine.core.game import Action
from engine.games.cloak.state import CloakState


class CloakAI(GameAI):
    bots = BOTS
    #: analysis judges moves by greedy playouts to the end (a greedy game always ends), and
    #: gives its evaluation to the own chances' playouts, cut two rounds on
    #: (engine/ai/cloak/evaluation.py; bench/README.md)
    analysis_search: dict[str, Any] | None = {"evaluate": evaluate}
    analysis_own_cut_rounds = 2
    #: a seat's own chance on 4 batches of worlds: they differ more than a cut playout's ends
    analysis_own_batches = 4
    #: its searched best move is a coin toss among near moves at 24 iterations: the search
    #: is run on 3 more batches of worlds and the drop's error holds that doubt
    analysis_searches_again = 3

    def beliefs(self, state: CloakState, viewer: str | None) -> Beliefs:
        return Beliefs(state, viewer)

    def beliefs_after_opening(
        self, state: CloakState, viewer: str | None, opening: Action
    ) -> Beliefs:
        return Beliefs(state, viewer, opened=opening["envelope"])

    def belief_particles(self, viewer: str) -> Particles:
        return Particles(viewer)

    def belief_summary(self, state: CloakState, viewer: str | None) -> list[dict[str, Any]]:
        return beliefs.summary(state, viewer)
