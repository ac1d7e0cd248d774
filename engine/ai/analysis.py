"""Match analysis: each seat's win chance, its mistakes and its accuracy, ply by ply.

For a replayed log (:class:`engine.core.replay.Replay`), :func:`analyse` estimates, after
every ply (0 = the setup):

* **each seat's win chance from its own information**: ``budget`` states dealt from that
  seat's beliefs (:meth:`GameAI.beliefs`, which read only what the seat may know), each
  played out by the game's ``greedy`` bot to the end (or, for a game whose search cuts
  playouts, to ``max_plies`` and then scored by its ``evaluate``); the chance is the mean
  score. It is the chance *under greedy play from here*, not under perfect play. When no
  state consistent with what the seat knows can be dealt (a sampler that deals by trial
  gives up: :class:`SamplingFailed`), the figure is None and the ply says why
  (``not_estimated``: the seat and the message id :data:`SAMPLING_FAILED`); the analysis
  goes on;
* **each seat's win chance from the all-seeing position**: the same, from the real state.

**The worlds are dealt once per ply and viewer** (:meth:`Analyst.worlds`): the seat's own
estimate, the best-move search and the played and best moves' scores of a decision it
made from that information all play out the same ``budget`` states (one per playout, each
with its own generator). A game whose sampler deals whole histories (Cloak & Dagger)
carries each seat's worlds on from ply to ply (:meth:`GameAI.belief_particles`): a world
still consistent with what the seat observed since is kept, with the turns since dealt
into it; only the others are dealt again (``engine/ai/cloak/particles.py``).

And for every action that was a choice (more than one legal action):

* **the best move found** for the seat that decided: ISMCTS (:class:`Search`) from that
  seat's information set with ``budget`` iterations. **Reading for a turn that starts
  with a pick** (Cloak & Dagger: the envelope is chosen, then looked into, CD-3): the seat
  saw what the envelope it opened held, so the best move is sought among the actions in
  that envelope, and both moves are scored over worlds holding what it saw there. Which
  envelope to open is not judged: the value of another envelope would rest on contents
  the seat never saw, and showing a move there would tell the seat what it held;
* **the move played against it**: both moves are scored from the seat's own information
  with the same ``budget`` dealt worlds and the same generators (common random numbers,
  so that a difference comes from the move and not from the deal); ``drop`` is how much
  the played move's chance is below the best one's, in points (0-100), never negative
  (a played move that scores higher *is* the best found);
* **a label** by that drop, as lichess labels a move by the drop in winning chances
  (lichess ``lila`` ``modules/tree/src/main/Advice.scala``: 0.1 / 0.2 / 0.3 on its -1..1
  scale, that is 5 / 10 / 15 points of win chance): ``inaccuracy`` from 5 points,
  ``mistake`` from 10, ``blunder`` from 15. **Reading for hidden information**: the drop
  is measured in the mover's *own* information set, so a label says "with what you knew
  then, another move was better", never "the hidden facts punished you";
* **"could not have known"** (``unknowable``): the all-seeing drop — the real position's
  chance before the move less its chance after the move as played (the all-seeing
  figures of the two plies, estimated with the same generators at every ply) — is at least the mistake threshold (10 points) while the mover's
  own drop is below the inaccuracy threshold: a move that lost chances in the real game
  but was sound on what the seat knew;
* **an accuracy per seat**: the mean over its rated moves of lichess's per-move accuracy
  from win-chance loss (lichess ``lila`` ``modules/analyse/src/main/AccuracyPercent.scala``,
  "Accuracy": ``103.1668 * exp(-0.04354 * (before - after)) - 3.1669``, clamped to
  0..100, before and after in points), with before = the best move's chance and after =
  the played move's. lichess then weights moves by the position's volatility; here the
  plain mean (estimates at a small budget are too noisy for a volatility weight).

Noise: an estimate of ``budget`` playouts has a standard error up to ``50 / sqrt(budget)``
points; the common random numbers make the *difference* of two moves much steadier than
that, but a label at a small budget is a hint, not a verdict.

Deterministic: every estimate draws from a generator derived from (``seed``, ply, viewer,
purpose) only — never from the state, so a seat's figures read nothing of what it could
not know, and the same log, budget and seed give the same analysis. Carried worlds depend
on the plies analysed before in the same run, as :func:`analyse` walks them (an
:class:`Analyst` asked about plies out of order deals them afresh).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from engine.ai.contract import SAMPLING_FAILED, Particles, SamplingFailed
from engine.ai.registry import ai_of
from engine.ai.search import Search, action_key
from engine.core.game import Action, Game, State
from engine.core.replay import Replay
from engine.core.rng import Rng

#: bump when the method or the result's shape changes: stored analyses are recomputed
#: (2: the detectives' worlds weigh Mister X's city by its location category; 3: the
#: worlds dealt once per ply and viewer, carried on from ply to ply for Cloak & Dagger;
#: the all-seeing drop taken from the plies' all-seeing figures; a position without
#: worlds marked not estimated)
ANALYSIS_VERSION = "3"
#: playouts per estimate and ISMCTS iterations per best-move search (bench/analysis.py)
DEFAULT_BUDGET = 24
#: lichess's thresholds, in points of win chance (see the module's docstring)
INACCURACY, MISTAKE, BLUNDER = 5.0, 10.0, 15.0

#: ``progress(done, total)``: plies analysed so far, out of all of them
Progress = Callable[[int, int], None]


def engine_version(game: Game) -> str:
    """What an analysis depends on: the game's rules reading and this method."""
    return f"{game.rules_version}/analysis-{ANALYSIS_VERSION}"


def analysable(game: Game) -> bool:
    """Can matches of ``game`` be analysed (it has a belief sampler)?"""
    ai = ai_of(game)
    return ai is not None and ai.analysis_search is not None


def label(drop: float) -> str | None:
    """The lichess label of a drop of ``drop`` points in the mover's own win chance."""
    if drop >= BLUNDER:
        return "blunder"
    if drop >= MISTAKE:
        return "mistake"
    if drop >= INACCURACY:
        return "inaccuracy"
    return None


def unknowable(own_drop: float, all_seeing_drop: float) -> bool:
    """The all-seeing chance fell by a mistake's worth while the mover's own did not fall
    by an inaccuracy's: it could not have known."""
    return all_seeing_drop >= MISTAKE and own_drop < INACCURACY


def move_accuracy(before: float, after: float) -> float:
    """lichess's accuracy of one move from the mover's win chance before and after it (points)."""
    if after >= before:
        return 100.0
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * (before - after)) - 3.166924740191411
    return min(100.0, max(0.0, raw))


def _rng(seed: int, *parts: Any) -> Rng:
    """A generator derived from the seed and the coordinates of an estimate only."""
    return Rng.derived(seed, *parts)


class Analyst:
    """Estimates for one game at one budget (see the module's docstring)."""

    def __init__(self, game: Game, budget: int = DEFAULT_BUDGET, seed: int = 0):
        ai = ai_of(game)
        if ai is None or ai.analysis_search is None:
            raise ValueError(f"{game.name} has no belief sampler: its matches cannot be analysed")
        self.game = game
        self.ai = ai
        self.budget = budget
        self.seed = seed
        options = ai.analysis_search
        self.max_plies: int = options.get("max_plies", 400)
        self.evaluate = options.get("evaluate")
        self.policy = ai.bots["greedy"]
        self.search = Search(game, playouts=budget, **options)
        #: per viewer: the worlds it carries from ply to ply (GameAI.belief_particles), if any
        self._particles: dict[str, Particles | None] = {}

    # -- the worlds -----------------------------------------------------------------
    def worlds(self, state: State, viewer: str | None, ply: int,
               opening: Action | None = None) -> list[State]:
        """``budget`` complete states from ``viewer``'s information about ``state`` (after
        ``opening``, when given): one per playout of every estimate made from that
        information at this ply. Raises :class:`SamplingFailed`."""
        if viewer is None:
            beliefs = self.ai.beliefs(state, None)
            return [beliefs.sample(_rng(self.seed, "real", "world", i)) for i in range(self.budget)]
        if viewer not in self._particles:
            self._particles[viewer] = self.ai.belief_particles(viewer)
        particles = self._particles[viewer]
        opened = None if opening is None else action_key(opening)
        if particles is not None:
            return particles.worlds(state, opening, self.budget,
                                    lambda purpose, i: _rng(self.seed, ply, viewer, opened, purpose, i))
        beliefs = (self.ai.beliefs(state, viewer) if opening is None
                   else self.ai.beliefs_after_opening(state, viewer, opening))
        return [beliefs.sample(_rng(self.seed, ply, viewer, opened, "world", i)) for i in range(self.budget)]

    # -- one playout ----------------------------------------------------------------
    def _play_out(self, world: State, rng: Rng, seats: list[str]) -> list[float]:
        game = self.game
        plies = 0
        while not game.is_over(world) and plies < self.max_plies:
            seat = game.to_act(world)[0]
            game.apply(world, self.policy(game, world, seat, rng))
            plies += 1
        if game.is_over(world):
            return [self.ai.score(world, s) for s in seats]
        if self.evaluate is None:
            return [0.5 for _ in seats]
        return [self.evaluate(game, world, s) for s in seats]

    def chances(self, state: State, viewer: str | None, seats: list[str], ply: int,
                move: Action | None = None, purpose: str = "chance",
                worlds: list[State] | None = None) -> list[float]:
        """Win chances of ``seats`` (points) from ``viewer``'s information about ``state``,
        after ``move`` when given (a move of the listed form: chance left to the world),
        over ``worlds`` (default: :meth:`worlds` of ``state``). ``ply``: the ply of
        ``state`` or, with ``move``, of the state the move leads to. Raises
        :class:`SamplingFailed`."""
        game = self.game
        if move is None and game.is_over(state):
            return [100.0 * self.ai.score(state, s) for s in seats]
        if worlds is None:
            worlds = self.worlds(state, viewer, ply if move is None else ply - 1,
                                 self.opening(state, viewer, move))
        # the all-seeing estimates of every ply play out with the same generators, so that
        # the real position's chance before and after a move differ by the move, not the draw
        where = "real" if viewer is None else ply
        totals = [0.0] * len(seats)
        for i in range(self.budget):
            rng = _rng(self.seed, where, viewer, purpose, i)
            world = game.clone(worlds[i % len(worlds)])
            if move is not None:
                game.apply(world, dict(move))
            for k, value in enumerate(self._play_out(world, rng, seats)):
                totals[k] += value
        return [round(100.0 * t / self.budget, 1) for t in totals]

    def opening(self, state: State, seat: str | None, move: Action | None) -> Action | None:
        """The pick ``move`` was made within, when ``seat`` picks first (Cloak & Dagger's
        envelope, CD-3): the seat saw what it held, so its chances after the move are
        estimated over worlds holding that, and the best move is sought within it."""
        if move is None or seat is None or not self.game.openings(state, seat):
            return None
        return self.game.opening_of(move)

    def listed(self, state: State, action: Action) -> tuple[str, Action | None, list[Action]]:
        """Who decided ``action`` (as recorded) and the listed action it is (its chance
        fields left out), with every listed choice."""
        game = self.game
        decider, actions = self.ai.decision(state)
        chance = game.chance_fields(state, action)
        key = action_key({k: v for k, v in action.items() if k not in chance})
        played = next((a for a in actions if action_key(a) == key), None)
        return decider, played, actions

    def judge(self, state: State, action: Action, ply: int,
              real: tuple[dict[str, float], dict[str, float]] | None = None) -> dict[str, Any]:
        """The decision before ply ``ply`` (``action`` as recorded, ``state`` before it).
        ``real``: the all-seeing chances of every seat before and after it, as estimated
        for the plies (:func:`analyse`); judged alone, the real position's chance after it
        is estimated with the played move applied to the real position's worlds."""
        game = self.game
        decider, played, actions = self.listed(state, action)
        entry: dict[str, Any] = {"ply": ply, "seat": decider, "rated": False}
        if played is None or len(actions) < 2:
            return entry
        opening = self.opening(state, decider, played)
        try:
            worlds = self.worlds(state, decider, ply - 1, opening)
        except SamplingFailed:
            entry["not_estimated"] = SAMPLING_FAILED
            return entry
        best = self.search.decide(game.clone(state), decider, _rng(self.seed, ply, decider, "search"),
                                  opening, lambda _pick: worlds)
        played_value = self.chances(state, decider, [decider], ply, played, "move", worlds)[0]
        if action_key(best) == action_key(played):
            best_value = played_value
        else:
            best_value = self.chances(state, decider, [decider], ply, best, "move", worlds)[0]
        if played_value >= best_value:
            best, best_value = played, played_value
        drop = round(best_value - played_value, 1)
        # the real position: its chance before the move (the policy's own move) and after
        # the played one, as recorded (the same generators: see chances)
        if real is not None and decider in real[0] and decider in real[1]:
            before_all, after_all = real[0][decider], real[1][decider]
        else:  # judged alone: the played move over the real position's worlds
            before_all = self.chances(state, None, [decider], ply - 1)[0]
            after_all = self.chances(state, None, [decider], ply, played)[0]
        all_drop = round(max(0.0, before_all - after_all), 1)
        entry.update(
            rated=True,
            played_value=played_value,
            best_value=best_value,
            drop=drop,
            label=label(drop),
            all_seeing_drop=all_drop,
            unknowable=unknowable(drop, all_drop),
            accuracy=round(move_accuracy(best_value, played_value), 1),
            best=None if action_key(best) == action_key(played) else best,
        )
        return entry


def analyse(replay: Replay, *, budget: int = DEFAULT_BUDGET, seed: int = 0,
            progress: Progress | None = None) -> dict[str, Any]:
    """The analysis of a replayed log (JSON-ready; see the module's docstring)::

        {"engine": ..., "budget": ..., "seed": ..., "seats": [...],
         "plies": [{"ply": 0, "own": {seat: points or None}, "all": {seat: points},
                    "not_estimated": {seat: message id} (only when a figure is None)}, ...],
         "moves": [{"ply": 1, "seat": decider, "rated": bool, "not_estimated": message id
                    (a choice not rated for want of worlds), "played_value", "best_value",
                    "drop", "label", "all_seeing_drop", "unknowable", "accuracy",
                    "best": listed action or None}, ...],
         "accuracy": {seat: points or None}}

    ``moves[i]`` is the action that led to ``plies[i + 1]``; ``best`` is the all-seeing
    form of the move found (a page shows it to a viewer through :meth:`Game.action_view`).
    """
    game = replay.game
    analyst = Analyst(game, budget, seed)
    seats = list(replay.seats)
    total = len(replay.actions) + 1
    plies: list[dict[str, Any]] = []
    moves: list[dict[str, Any]] = []
    before: State | None = None
    real_before: dict[str, float] = {}
    for ply, action, state in replay.states():
        real = dict(zip(seats, analyst.chances(state, None, seats, ply), strict=True))
        if action is not None:
            assert before is not None
            # before the seats' own estimates of this ply: the mover's worlds of the
            # judgement (what it saw on its pick) are carried on to them
            moves.append(analyst.judge(before, action, ply, (real_before, real)))
        own: dict[str, float | None] = {}
        missing: dict[str, str] = {}
        for seat in seats:
            try:
                own[seat] = analyst.chances(state, seat, [seat], ply)[0]
            except SamplingFailed:
                own[seat] = None
                missing[seat] = SAMPLING_FAILED
        entry: dict[str, Any] = {"ply": ply, "own": own, "all": real}
        if missing:
            entry["not_estimated"] = missing
        plies.append(entry)
        before, real_before = game.clone(state), real
        if progress is not None:
            progress(ply + 1, total)
    accuracy: dict[str, float | None] = {}
    for seat in seats + sorted({m["seat"] for m in moves} - set(seats)):
        rated = [m["accuracy"] for m in moves if m["rated"] and m["seat"] == seat]
        accuracy[seat] = round(sum(rated) / len(rated), 1) if rated else None
    return {
        "engine": engine_version(game),
        "budget": budget,
        "seed": seed,
        "seats": seats,
        "plies": plies,
        "moves": moves,
        "accuracy": accuracy,
    }
