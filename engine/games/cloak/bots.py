"""Cloak & Dagger bots. Each decides only from what its seat knows.

A turn is played as at the table: the bot picks an envelope from its own
knowledge (:func:`~engine.games.cloak.knowledge.knowledge_of`), then looks inside
it (:func:`look_inside`, the one place a bot touches the true state — exactly
what the rules let a player see) and decides what to do there.
"""

from __future__ import annotations

from typing import Any

from engine.core.game import Action, Game
from engine.core.rng import Rng
from engine.games.cloak.state import ENVELOPES, CloakState


def look_inside(state: CloakState, envelope: int) -> list[str]:
    """The cards in the envelope the seat to act has chosen: what it sees on opening it."""
    return list(state.envelopes[envelope])


def random_bot(game: Game, state: CloakState, seat: str, rng: Rng) -> Action:
    """Chooses an envelope uniformly, then an action uniformly among those legal there."""
    envelope = 1 + rng.below(ENVELOPES)
    return rng.choice(game.envelope_actions(state, seat, envelope))  # type: ignore[attr-defined]


BOTS: dict[str, Any] = {"random": random_bot}
