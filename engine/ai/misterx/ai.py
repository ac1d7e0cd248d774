"""Mister X's AI (see :class:`engine.ai.contract.GameAI`)."""

from __future__ import annotations

from typing import Any

from engine.ai.contract import GameAI
from engine.ai.misterx.beliefs import Beliefs, summary
from engine.ai.misterx.bots import BOTS, SEARCH_MAX_PLIES, evaluate
from engine.core.game import Action
from engine.games.misterx import legal
from engine.games.misterx.state import TEAM, MisterXState


class MisterXAI(GameAI):
    bots = BOTS
    #: analysis cuts playouts as the search level does (about three rounds, then the
    #: distances score the position)
    analysis_search: dict[str, Any] | None = {"max_plies": SEARCH_MAX_PLIES, "evaluate": evaluate}
    #: a seat's own chance on 3 batches: 4 halved its error but cost 66 s per 100 actions
    #: (bench/README.md), over the 60 s target
    analysis_own_batches = 3
    #: its best move searched once (3 searches more cost 58.7 s per 100 actions on its
    #: tuning games): the search's runner-up is the one rival of the move it found
    #: (bench/README.md, analysis version 12)
    analysis_searches_again = 0

    def beliefs(self, state: MisterXState, viewer: str | None) -> Beliefs:
        return Beliefs(state, viewer)

    def belief_summary(self, state: MisterXState, viewer: str | None) -> list[dict[str, Any]]:
        return summary(state, viewer)

    def decision(self, state: MisterXState) -> tuple[str, list[Action]]:
        """The detectives' special action is optional: declining it is the next refill
        (the team's bot acts for the refiller then, as :func:`engine.ai.play.play` does)."""
        acting = legal.to_act(state)
        seat = acting[0]
        actions = legal.legal_actions(state, seat)
        if seat == TEAM:
            actions += legal.legal_actions(state, acting[-1])
        return seat, actions
