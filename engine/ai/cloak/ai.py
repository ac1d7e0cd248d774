"""Cloak & Dagger's AI (see :class:`engine.ai.contract.GameAI`)."""

from __future__ import annotations

from typing import Any

from engine.ai.cloak import beliefs
from engine.ai.cloak.bots import BOTS
from engine.ai.cloak.particles import Particles
from engine.ai.cloak.sampling import Beliefs
from engine.ai.contract import GameAI
from engine.core.game import Action
from engine.games.cloak.state import CloakState


class CloakAI(GameAI):
    bots = BOTS
    #: analysis plays positions out to the end with greedy (a greedy game always ends)
    analysis_search: dict[str, Any] | None = {}
    #: a seat's own chance on 2 batches: four seats' worlds carried per batch cost more than
    #: the other games' (bench/README.md)
    analysis_own_batches = 2

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
