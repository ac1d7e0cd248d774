"""The contract a game's AI plugs into the AI layer with.

The rules (:class:`~engine.core.game.Game`) say what may be done and what each seat sees;
they know nothing of bots, beliefs or search. A game's AI is one :class:`GameAI` subclass
instance over that game, registered by the game's id (:mod:`engine.ai.registry`): its
bots, what each viewer believes of a state (and how to deal complete states from it),
and how analysis plays a position out. Every part of it reads only what the rules let
a viewer see.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from engine.core.game import Action, Game, State
from engine.core.rng import Rng

#: A bot: ``bot(game, state, seat, rng) -> action``. A bot must decide only from what its
#: seat knows.
Bot = Callable[[Game, State, str, Rng], Action]


class Beliefs(Protocol):
    """What one viewer knows of a state (:meth:`GameAI.beliefs`): built from what that
    viewer may know only, it draws complete states the viewer cannot tell from the real one."""

    def sample(self, rng: Rng) -> State:
        """A complete state consistent with everything the viewer knows, with a generator
        of its own (drawn from ``rng``) for the chance still to come. ``rng`` alone decides
        the draw: the same viewer's knowledge and the same ``rng`` give the same state."""
        ...


class SamplingFailed(RuntimeError):
    """No state consistent with what the viewer knows could be dealt (a sampler that
    deals by trial gives up after a bounded number of tries): what it is said with is
    the message :data:`SAMPLING_FAILED`, for the places that must tell a person."""


#: what a position whose worlds could not be dealt is marked with (analysis)
SAMPLING_FAILED = "analysis.not_estimated.no_world"


class Particles(Protocol):
    """One viewer's worlds kept from one point of a game to a later one (what
    :meth:`GameAI.belief_particles` returns; analysis deals them once per ply)."""

    #: per world the last :meth:`worlds` gave, the world dealt from scratch it descends
    #: from (worlds of one lineage are correlated; an estimate over them is clustered)
    lineage: list[int]

    def worlds(
        self, state: State, opening: Action | None, count: int, rng: Callable[[str, int], Rng]
    ) -> list[State]:
        """``count`` complete states consistent with what the viewer knows of ``state``
        (after the pick ``opening`` when given), each the caller's to change; carried on
        from the last call's where the viewer's knowledge only grew since. ``rng(purpose,
        i)`` is world ``i``'s generator for each step. Raises :class:`SamplingFailed`."""
        ...


class GameAI:
    """One game's bots, beliefs and samplers, over its rules ``game``."""

    #: bots by name (:data:`Bot`)
    bots: Mapping[str, Bot] = {}

    #: How :mod:`engine.ai.analysis` plays a position out for this game: options of
    #: :class:`engine.ai.search.Search` (``max_plies``, ``evaluate``). None: the game
    #: has no belief sampler, so its matches cannot be analysed.
    analysis_search: dict[str, Any] | None = None

    #: batches of the analysis budget each seat's own win chance is estimated on, per ply
    #: (:meth:`engine.ai.analysis.Analyst.own_chance`): its error falls as the root of
    #: their number; what one costs sets how many a game can afford (bench/README.md)
    analysis_own_batches: int = 1

    #: a decision of at most this many choices is judged against the best of them all,
    #: each scored over the same worlds (:meth:`engine.ai.analysis.Analyst.best_of`), not
    #: against the search's move: affordable where playouts are cut short
    analysis_every_move: int = 0
    #: batches of worlds every choice is scored on (with ``analysis_every_move``), and the
    #: most a drop may be measured on, more while its interval straddles a band's edge
    analysis_choice_batches: int = 1
    analysis_drop_batches: int = 3
    #: where the best move is searched, the search run again this many times, each over a
    #: batch of worlds the drop is measured on (:meth:`engine.ai.analysis.Analyst.searched`):
    #: how often each found move comes up is the search's doubt about which move is best
    analysis_searches_again: int = 0

    #: a seat's own chance's playouts cut (and scored by the ``evaluate`` of
    #: :attr:`analysis_search`) once the round is this many past their start; None: as the
    #: other playouts (``analysis_search``'s ``cut_rounds``)
    analysis_own_cut_rounds: int | None = None

    def __init__(self, game: Game):
        self.game = game

    def beliefs(self, state: State, viewer: str | None) -> Beliefs:
        """What ``viewer`` (a seat or team viewer; None = all-seeing) knows of ``state``,
        as :class:`Beliefs`. Reads only what that viewer may know: the counterfactual
        tests change every hidden fact and check the samples do not change."""
        raise NotImplementedError

    def beliefs_after_opening(self, state: State, viewer: str | None, opening: Action) -> Beliefs:
        """``viewer``'s beliefs once it has made the pick ``opening`` (:meth:`Game.openings`)
        and seen what it holds (Cloak & Dagger: an envelope's contents): the samples hold
        that. Default: the pick teaches nothing."""
        return self.beliefs(state, viewer)

    def belief_particles(self, viewer: str) -> Particles | None:
        """Worlds of ``viewer``'s beliefs that analysis carries from ply to ply instead of
        dealing them afresh at every ply (a game whose sampler deals whole histories:
        Cloak & Dagger). Default None: :meth:`beliefs` deals them at every ply."""
        return None

    def belief_summary(self, state: State, viewer: str | None) -> list[dict[str, Any]]:
        """What ``viewer`` (a seat or team; None = all-seeing) may be shown of the beliefs
        held at ``state`` (:mod:`engine.ai.beliefs`): a list of beliefs, each
        ``{"holder": seat or team, "kind": ..., "measure": {"count", "unit", "bits"}, ...}``.
        A seat's list holds only beliefs made of what that seat knows (its own, and
        beliefs built from public facts only); the all-seeing list holds every seat's.
        A pure function of (state, viewer). Default: none."""
        return []

    def reseed_chance(self, state: State, rng: Rng) -> None:
        """Let the chance still to come in ``state`` (a world of the AI's, never the real
        game's) be drawn from ``rng``: analysis keys each turn's chance by its place in
        the game. Default: the state's own generator, ``state.rng``, when it has one."""
        if getattr(state, "rng", None) is not None:
            state.rng = rng

    def sample_state(self, state: State, viewer: str | None, rng: Rng) -> State:
        """One complete state drawn from ``viewer``'s beliefs about ``state``."""
        return self.beliefs(state, viewer).sample(rng)

    def decision(self, state: State) -> tuple[str, list[Action]]:
        """Who decides now and between which actions: the first seat to act and its legal
        actions (what :func:`engine.ai.play.play` asks that seat's bot). A game whose
        first seat may decline (Mister X's optional special action) widens the list."""
        seat = self.game.to_act(state)[0]
        return seat, self.game.legal_actions(state, seat)

    def score(self, state: State, seat: str) -> float:
        """``seat``'s share of a finished game's result (:meth:`Game.outcomes`): 1 won, 0 lost."""
        result = self.game.result(state)
        winner = result.get("winner") if result else None
        return 1.0 if winner is not None and winner in (seat, self.game.side_of(seat)) else 0.0
