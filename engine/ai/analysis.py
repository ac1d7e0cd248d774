"""Match analysis: each seat's win chance, its mistakes and its accuracy, ply by ply.

For a replayed log (:class:`engine.core.replay.Replay`), :func:`analyse` estimates, after
every ply (0 = the setup):

* **each seat's win chance from its own information**: ``budget`` states (times the
  game's :attr:`GameAI.analysis_own_batches`: batches of worlds, the first the search's,
  the others drawn apart, :meth:`Analyst.own_chance`) dealt from that seat's beliefs
  (:meth:`GameAI.beliefs`, which read only what the seat may know), each played out by
  the game's ``greedy`` bot to the end, or cut short and the position reached scored
  by the game's ``evaluate`` (:meth:`Analyst._play_out`: Mister X after ``max_plies``;
  Cryptid at the start of the next round, ``cut_rounds``, and a Cloak & Dagger seat's own
  chance two rounds on, :attr:`GameAI.analysis_own_cut_rounds`, scored by a model fitted
  on bot games, ``engine/ai/<game>/evaluation.py``: a cut playout's score varies far less
  than a whole game's 0 or 100, and costs a fraction); the chance is the
  mean score. It is the chance *under greedy play from here* as far as the cut and the
  model's reading of the position there, not under perfect play. When no state
  consistent with what the seat knows can be dealt (a sampler that deals by trial
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

* **the best move found** for the seat that decided: where the decision has at most
  :attr:`GameAI.analysis_every_move` choices, the best of them all, each played out in the
  same worlds with the same generators (:meth:`Analyst.best_of`, over the game's
  ``analysis_choice_batches`` batches of worlds); else ISMCTS (:class:`Search`) from that
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
* **the drop with its error**: the two moves are played out in worlds the best move was
  not chosen in (batches of their own, :meth:`Analyst.worlds`, so that a move that did
  well in those worlds is not favoured by them), each world giving one paired sample, the
  difference of the two scores; the drop is their mean, with its standard error
  (:mod:`engine.ai.evidence`);
* **a label only where the evidence holds**, by the bands lichess labels a move by
  (lichess ``lila`` ``modules/tree/src/main/Advice.scala``: 0.1 / 0.2 / 0.3 on its -1..1
  scale, that is 5 / 10 / 15 points of win chance): ``inaccuracy`` from 5 points,
  ``mistake`` from 10, ``blunder`` from 15 — given only when the drop's interval (95 %
  at every look at once: :func:`~engine.ai.evidence.at_look`) lies inside the band; an
  interval across an edge is ``unclear`` (no label). While it is, another batch of worlds
  is played, up to the game's ``analysis_drop_batches`` (:class:`~engine.ai.contract.GameAI`;
  sequential sampling: the playouts go to the moves they decide). **Reading for hidden
  information**: the drop is measured in the mover's *own* information set, so a label
  says "with what you knew then, another move was better", never "the hidden facts punished you";
* **"could not have known"** (``unknowable``): the all-seeing drop — the real position's
  chance before the move less its chance after the move as played (the all-seeing
  figures of the two plies, estimated with the same generators at every ply) — is at
  least the mistake threshold (10 points) while the mover's own drop is surely below the
  inaccuracy threshold (its interval): a move that lost chances in the real game but was
  sound on what the seat knew;
* **an accuracy per seat**: the mean over its rated moves of lichess's per-move accuracy
  from win-chance loss (lichess ``lila`` ``modules/analyse/src/main/AccuracyPercent.scala``,
  "Accuracy": ``103.1668 * exp(-0.04354 * (before - after)) - 3.1669``, clamped to
  0..100, before and after in points), with before - after = the drop. lichess then
  weights moves by the position's volatility; here the plain mean (estimates at a small
  budget are too noisy for a volatility weight).

Every figure comes with its standard error (``own_se``, ``all_se``, ``drop_se``,
``accuracy_se``; points): a chance of ``budget`` playouts has one up to
``50 / sqrt(budget)`` points; the paired samples make a drop's much smaller.

**Chunks**: the plies are analysed in chunks of :data:`CHUNK_PLIES` (:func:`chunks`,
:func:`analyse_plies`, :func:`merge`), each on its own, so that workers on several
machines share one game; :func:`analyse` runs the same chunks in turn, so a game gives the
same analysis however many workers ran it. A chunk deals its worlds afresh at its first
ply (the worlds carried from ply to ply start again there).

**A playout's randomness is keyed, not streamed** (:meth:`Analyst._decision_rng`): each
decision draws the bot's choice and the chance its action meets from a generator keyed
by the playout's (``seed``, ply, viewer, purpose, world index) and the decision's place
in the game (round, phase, seat, how many decisions that seat made there before), so
the played and the best move's playouts of one world meet the same chance at the same
turn however differently they drew before (synchronised common random numbers).

Deterministic: every estimate draws from a generator derived from (``seed``, ply, viewer,
purpose) only — never from the state, so a seat's figures read nothing of what it could
not know, and the same log, budget and seed give the same analysis. Carried worlds depend
on the plies analysed before in the same chunk, as :func:`analyse_plies` walks them (an
:class:`Analyst` asked about plies out of order deals them afresh).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, cast

from engine.ai import analysis_result
from engine.ai.analysis_result import ANALYSIS_VERSION, CHUNK_PLIES, chunks, engine_version, merge
from engine.ai.contract import SAMPLING_FAILED, Particles, SamplingFailed
from engine.ai.decision_keys import CHANCE, code, mix
from engine.ai.evidence import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    UNCLEAR,
    Estimate,
    accuracy_se,
    at_look,
    clustered,
    decided,
    estimate,
    move_accuracy,
    rivals,
    verdict,
    with_choice,
)
from engine.ai.registry import ai_of
from engine.ai.search import Search, action_key, round_of
from engine.core.game import Action, Game, State
from engine.core.replay import Replay
from engine.core.rng import Rng

#: the label thresholds (points), exported by the engine with the analysis
__all__ = [
    "ANALYSIS_VERSION",
    "BLUNDER",
    "CHUNK_PLIES",
    "INACCURACY",
    "MISTAKE",
    "Analyst",
    "analysable",
    "analyse",
    "analyse_plies",
    "chunks",
    "engine_version",
    "merge",
    "unknowable",
]

#: playouts per estimate and ISMCTS iterations per best-move search (bench/analysis.py)
DEFAULT_BUDGET = 24

#: ``progress(done, total)``: plies analysed so far, out of all of them
Progress = Callable[[int, int], None]


def analysable(game: Game) -> bool:
    """Can matches of ``game`` be analysed (it has a belief sampler)?"""
    ai = ai_of(game)
    return ai is not None and ai.analysis_search is not None


def unknowable(own_drop: Estimate, all_seeing_drop: float) -> bool:
    """The all-seeing chance fell by a mistake's worth while the mover's own surely did
    not fall by an inaccuracy's (its interval lies below): it could not have known."""
    return all_seeing_drop >= MISTAKE and own_drop.high < INACCURACY


class _Stratified(Protocol):
    """Beliefs that deal a world at a quantile of their weights (``stratified = True``:
    Mister X's, ``engine/ai/misterx/beliefs.py``)."""

    def sample(self, rng: Rng, quantile: float | None = None) -> State: ...


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
        self.budget, self.seed = budget, seed
        options = ai.analysis_search
        self.max_plies: int = options.get("max_plies", analysis_result.MOST_PLIES)
        self.evaluate = options.get("evaluate")
        self.cut_rounds: int | None = options.get("cut_rounds")
        #: the rounds after which a playout of a seat's own chance is cut (by default as
        #: every other playout)
        self.own_cut_rounds: int | None = (
            self.cut_rounds if ai.analysis_own_cut_rounds is None else ai.analysis_own_cut_rounds
        )
        self.policy = ai.bots["greedy"]
        self.search = Search(game, playouts=budget, **options)
        #: batches of ``budget`` playouts per seat's own chance (:meth:`own_chance`)
        self.own_batches = ai.analysis_own_batches
        #: decisions of at most this many choices: every choice scored (:meth:`best_of`)
        self.every_move = ai.analysis_every_move
        #: batches of worlds every choice is scored on, and a drop may be measured on
        self.choice_batches = ai.analysis_choice_batches
        self.drop_batches = ai.analysis_drop_batches
        # : per viewer and batch: the worlds it carries from ply to ply (GameAI.belief_particles),
        # if any
        self._particles: dict[tuple[str, int], Particles | None] = {}
        #: per viewer and batch: the lineage of each world its last worlds() gave, when they
        #: are carried (:attr:`Particles.lineage`: an estimate over them is clustered)
        self._lineage: dict[tuple[str, int], list[Any]] = {}

    # -- the worlds -----------------------------------------------------------------
    def worlds(
        self,
        state: State,
        viewer: str | None,
        ply: int,
        opening: Action | None = None,
        batch: int = 0,
    ) -> list[State]:
        """``budget`` complete states from ``viewer``'s information about ``state`` (after
        ``opening``, when given): one per playout of every estimate made from that
        information at this ply. ``batch`` 0: the worlds of the seat's own chance and of
        the search; each further batch: as many others, drawn apart from them (a drop's
        samples). Raises :class:`SamplingFailed`."""
        if viewer is None:
            beliefs = self.ai.beliefs(state, None)
            return [beliefs.sample(_rng(self.seed, "real", "world", i)) for i in range(self.budget)]
        if (viewer, batch) not in self._particles:
            self._particles[viewer, batch] = self.ai.belief_particles(viewer)
        particles = self._particles[viewer, batch]
        opened = None if opening is None else action_key(opening)
        # batch 0 draws as before batches existed; the others add the batch to the draw
        where: tuple[Any, ...] = (
            (ply, viewer, opened) if batch == 0 else (ply, viewer, opened, batch)
        )
        if particles is not None:
            dealt = particles.worlds(
                state, opening, self.budget, lambda purpose, i: _rng(self.seed, *where, purpose, i)
            )
            self._lineage[viewer, batch] = [(batch, line) for line in particles.lineage]
            return dealt
        beliefs = (
            self.ai.beliefs(state, viewer)
            if opening is None
            else self.ai.beliefs_after_opening(state, viewer, opening)
        )
        if getattr(beliefs, "stratified", False):
            # one world per stratum of the beliefs' weights (a random start, then evenly
            # spaced): each hidden fact in proportion to its weight, give or take one world
            start = _rng(self.seed, *where, "stratum").next64() / 2.0**64
            strata = cast(_Stratified, beliefs)
            return [
                strata.sample(_rng(self.seed, *where, "world", i), (i + start) / self.budget)
                for i in range(self.budget)
            ]
        return [beliefs.sample(_rng(self.seed, *where, "world", i)) for i in range(self.budget)]

    def clusters(self, viewer: str, batch: int) -> list[Any] | None:
        """Per playout over the worlds :meth:`worlds` last gave ``viewer`` in ``batch``, the
        lineage of its world (carried worlds only; None: the worlds were dealt apart)."""
        lineage = self._lineage.get((viewer, batch))
        return None if lineage is None else [lineage[i % len(lineage)] for i in range(self.budget)]

    # -- one playout ----------------------------------------------------------------
    def _play_out(
        self, world: State, base: int, seats: list[str], rounds: int | None = None
    ) -> list[float]:
        """Play ``world`` out with the policy; every decision's randomness (the bot's and
        the chance its action meets) from a generator keyed by ``base`` (the world's) and
        the decision's place in the game (:meth:`_decision_rng`), not from one stream: two
        playouts of one world after two different moves then meet the same chance at the
        same turn, however many draws each made before (synchronised common random
        numbers: the drop's paired samples stay paired)."""
        game = self.game
        plies = 0
        seen: dict[tuple[Any, ...], int] = {}
        cut = None if rounds is None else round_of(game, world) + rounds
        while not game.is_over(world) and plies < self.max_plies:
            if cut is not None and round_of(game, world) >= cut:
                break
            seat = game.to_act(world)[0]
            rng = self._decision_rng(world, base, seat, seen)
            game.apply(world, self.policy(game, world, seat, rng))
            plies += 1
        if game.is_over(world):
            return [self.ai.score(world, s) for s in seats]
        if self.evaluate is None:
            return [0.5 for _ in seats]
        return [self.evaluate(game, world, s) for s in seats]

    def _decision_rng(
        self, world: State, base: int, seat: str, seen: dict[tuple[Any, ...], int]
    ) -> Rng:
        """The generator of ``seat``'s decision now in ``world``: keyed by ``base``, the
        game's clock (round and phase), the seat and how many decisions it made before
        at that clock in this playout (``seen``); the world's own chance generator is
        set from the same key (:meth:`GameAI.reseed_chance`)."""
        clock = self.game.clock(world)
        where = (clock.get("round"), clock.get("phase"), seat)
        count = seen.get(where, 0)
        seen[where] = count + 1
        key = base
        for part in (*where, count):
            key = mix(key ^ code(part))
        self.ai.reseed_chance(world, Rng(mix(key ^ CHANCE)))
        return Rng(key)

    def scores(
        self,
        state: State,
        viewer: str | None,
        seats: list[str],
        ply: int,
        move: Action | None = None,
        purpose: Any = "chance",
        worlds: list[State] | None = None,
        own: bool = False,
    ) -> list[list[float]]:
        """Per seat of ``seats``, its score (points: 0 or 100, between for a draw or a cut
        playout) in each playout from ``viewer``'s information about ``state``, after
        ``move`` when given (a move of the listed form: chance left to the world), over
        ``worlds`` (default: :meth:`worlds` of ``state``). ``ply``: the ply of ``state``
        or, with ``move``, of the state the move leads to. Raises :class:`SamplingFailed`."""
        game = self.game
        if move is None and game.is_over(state):
            return [[100.0 * self.ai.score(state, s)] for s in seats]
        if worlds is None:
            worlds = self.worlds(
                state, viewer, ply if move is None else ply - 1, self.opening(state, viewer, move)
            )
        # the all-seeing estimates of every ply play out with the same generators, so that
        # the real position's chance before and after a move differ by the move, not the draw
        where = "real" if viewer is None else ply
        samples: list[list[float]] = [[] for _ in seats]
        for i in range(self.budget):
            base = _rng(self.seed, where, viewer, purpose, i).next64()
            world = game.clone(worlds[i % len(worlds)])
            if move is not None:
                self.ai.reseed_chance(world, Rng.derived(base, "move"))
                game.apply(world, dict(move))
            rounds = self.own_cut_rounds if own else self.cut_rounds
            for k, value in enumerate(self._play_out(world, base, seats, rounds)):
                samples[k].append(100.0 * value)
        return samples

    def chances(
        self,
        state: State,
        viewer: str | None,
        seats: list[str],
        ply: int,
        move: Action | None = None,
        purpose: Any = "chance",
        worlds: list[State] | None = None,
    ) -> list[Estimate]:
        """Win chances of ``seats`` (points, with their standard errors): the mean of
        :meth:`scores`, whose arguments these are."""
        return [estimate(s) for s in self.scores(state, viewer, seats, ply, move, purpose, worlds)]

    def own_chance(self, state: State, seat: str, ply: int) -> Estimate:
        """``seat``'s win chance from its own information at ``state`` (ply ``ply``), with
        its standard error: :meth:`chances` over :attr:`own_batches` batches of worlds
        (batch 0 those of the search, the others drawn apart). Raises
        :class:`SamplingFailed` when no world of the first batch can be dealt."""
        if self.game.is_over(state):
            return self.chances(state, seat, [seat], ply)[0]
        samples: list[float] = []
        lineage: list[Any] | None = []
        for batch in range(self.own_batches):
            try:
                worlds = self.worlds(state, seat, ply, None, batch)
            except SamplingFailed:
                if batch == 0:
                    raise
                break
            purpose = "chance" if batch == 0 else ("chance", batch)
            samples += self.scores(state, seat, [seat], ply, None, purpose, worlds, own=True)[0]
            lineage = _extend(lineage, self.clusters(seat, batch))
        return _mean(samples, lineage)

    def best_of(
        self,
        state: State,
        seat: str,
        ply: int,
        played: Action,
        choices: list[Action],
        batches: list[list[State]],
    ) -> tuple[int, list[list[float]]]:
        """The index of the choice with the highest mean score for ``seat`` over the worlds
        of ``batches`` (the played move on a tie), each choice played out in every world
        with the same generators (common random numbers); and per choice its scores there."""
        key = action_key(played)
        scores = [
            [
                x
                for b, worlds in enumerate(batches)
                for x in self.scores(state, seat, [seat], ply, choice, ("every", b), worlds)[0]
            ]
            for choice in choices
        ]
        ranked = [
            (sum(row), action_key(c) == key, i)
            for i, (c, row) in enumerate(zip(choices, scores, strict=True))
        ]
        return max(ranked)[2], scores

    def searched(
        self, state: State, seat: str, ply: int, opening: Action | None, worlds: list[State]
    ) -> tuple[list[Action], list[tuple[int, float]], int]:
        """The best move ISMCTS finds for ``seat`` over ``worlds`` (those of the seat's
        own chance), then the others it finds when run again over as many batches of the
        worlds a drop is measured on (:attr:`GameAI.analysis_searches_again`, each with
        its own generator), and the first search's runner-up: the moves found (the first
        one first), per move its index and its share of the searches, and how many
        searches were run. A search at a small budget returns one of several near moves by
        the worlds it was dealt; how often each comes up is that doubt, and the runner-up
        is its likeliest other answer (a game that runs no search again has that doubt
        alone: a move the one search found is not thereby surely the best)."""
        found: list[Action] = []
        counts: list[int] = []
        runner_up = None
        for again in range(1 + self.ai.analysis_searches_again):
            try:
                dealt = worlds if again == 0 else self.worlds(state, seat, ply - 1, opening, again)
            except SamplingFailed:
                break
            where = ("search",) if again == 0 else ("search", again)
            move = self.search.decide(
                self.game.clone(state), seat, _rng(self.seed, ply, seat, *where), opening,
                _given(dealt),
            )  # fmt: skip
            if again == 0:
                runner_up = self.search.runner_up
            keys = [action_key(a) for a in found]
            if action_key(move) in keys:
                counts[keys.index(action_key(move))] += 1
            else:
                found.append(move)
                counts.append(1)
        searches = sum(counts)
        if runner_up is not None and action_key(runner_up) not in map(action_key, found):
            found.append(runner_up)
            counts.append(0)
        # each move's share: the mean of its share of the search's outcomes under a uniform
        # prior (Laplace's rule): a few searches that agree are no proof that no other
        # move comes up, and the first search's runner-up is the likeliest one
        shares = [(n + 1) / (searches + len(found)) for n in counts]
        return found, list(enumerate(shares)), searches

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

    def judge(
        self,
        state: State,
        action: Action,
        ply: int,
        real: tuple[dict[str, float], dict[str, float]] | None = None,
    ) -> dict[str, Any]:
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
        choices = [
            a
            for a in actions
            if opening is None or action_key(game.opening_of(a) or {}) == action_key(opening)
        ]
        first = 1  # the first batch of worlds the drop is measured on
        draws = None  # the searches the shares of found_best count (None: a resample's)
        # the choice found best, then those another run could find best, with their shares
        found_best: list[tuple[int, float]] = [(0, 1.0)]
        if len(choices) <= self.every_move:
            # every choice scored over the first batches; the drop measured on those after
            chosen_on = [worlds]
            for batch in range(1, self.choice_batches):
                try:
                    chosen_on.append(self.worlds(state, decider, ply - 1, opening, batch))
                except SamplingFailed:
                    break
            first = self.choice_batches
            top, scored_on = self.best_of(state, decider, ply, played, choices, chosen_on)
            found_best = rivals(scored_on, top, _rng(self.seed, ply, decider, "resample"))
            references = [choices[c] for c, _ in found_best]
        else:
            references, found_best, draws = self.searched(state, decider, ply, opening, worlds)
        best, shares = references[0], [share for _, share in found_best]
        same = action_key(best) == action_key(played)
        # the drop is measured in batches of worlds the best move was not chosen in (against
        # the rivals too); more while its interval straddles a band's edge
        played_scores: list[float] = []
        reference_scores: list[list[float]] = [[] for _ in references]
        lineage: list[Any] | None = []
        for batch in range(first, first + self.drop_batches):
            try:
                dealt = self.worlds(state, decider, ply - 1, opening, batch)
            except SamplingFailed:
                if batch > first:
                    break
                entry["not_estimated"] = SAMPLING_FAILED
                return entry
            purpose = ("move", batch)
            scored = self.scores(state, decider, [decider], ply, played, purpose, dealt)[0]
            played_scores += scored
            lineage = _extend(lineage, self.clusters(decider, batch))
            for scores_of, reference in zip(reference_scores, references, strict=True):
                scores_of += (
                    scored
                    if action_key(reference) == action_key(played)
                    else self.scores(state, decider, [decider], ply, reference, purpose, dealt)[0]
                )
            drops = [
                _mean([r - p for r, p in zip(scores_of, played_scores, strict=True)], lineage)
                for scores_of in reference_scores
            ]
            # a searched reference worse than the played move leaves a drop of 0: so counted
            against = [d.mean if draws is None else max(0.0, d.mean) for d in drops]
            drop = with_choice(drops[0], list(zip(shares, against, strict=True)), draws)
            drop = at_look(drop, batch - first + 1, self.drop_batches)
            if (same and len(references) == 1) or decided(drop):
                break
        found = verdict(drop)
        played_value, best_value = estimate(played_scores), estimate(reference_scores[0])
        # the real position: its chance before the move (the policy's own move) and after
        # the played one, as recorded (the same generators: see chances)
        if real is not None and decider in real[0] and decider in real[1]:
            before_all, after_all = real[0][decider], real[1][decider]
        else:  # judged alone: the played move over the real position's worlds
            before_all = self.chances(state, None, [decider], ply - 1)[0].mean
            after_all = self.chances(state, None, [decider], ply, played)[0].mean
        all_drop = round(max(0.0, before_all - after_all), 1)
        entry.update(
            rated=True,
            played_value=round(played_value.mean, 1),
            best_value=round(best_value.mean, 1),
            drop=round(max(0.0, drop.mean), 1),
            drop_se=round(drop.se, 2),
            drop_low=round(max(-100.0, drop.low), 1),  # a drop lies in [-100, 100]
            drop_high=round(min(100.0, drop.high), 1),
            playouts=drop.n,
            label=None if found == UNCLEAR else found,
            unclear=found == UNCLEAR,
            all_seeing_drop=all_drop,
            unknowable=unknowable(drop, all_drop),
            accuracy=round(move_accuracy(drop.mean), 1),
            accuracy_se=round(accuracy_se(drop), 2),
            # a better move is shown only where the played one may have lost something
            best=None if same or found is None or drop.mean <= 0 else best,
        )
        return entry


def _given(worlds: list[State]) -> Callable[[Action | None], list[State]]:
    """The search's worlds, whatever the pick: ``worlds``."""
    return lambda _pick: worlds


def _extend(lineage: list[Any] | None, more: list[Any] | None) -> list[Any] | None:
    """The samples' lineages so far with a batch's added (None once a batch has none)."""
    return None if lineage is None or more is None else lineage + more


def _mean(samples: list[float], lineage: list[Any] | None) -> Estimate:
    """The samples' mean, its error clustered by lineage when the worlds were carried."""
    return estimate(samples) if lineage is None else clustered(samples, lineage)


def analyse_plies(
    replay: Replay,
    first: int,
    stop: int,
    *,
    budget: int = DEFAULT_BUDGET,
    seed: int = 0,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """One chunk of an analysis: the plies ``first`` to ``stop`` (excluded) and the moves
    that led to them (``{"plies": [...], "moves": [...]}``, as in :func:`analyse`).
    ``progress(done, total)``: plies of the chunk done so far."""
    game = replay.game
    analyst = Analyst(game, budget, seed)
    seats = list(replay.seats)
    plies: list[dict[str, Any]] = []
    moves: list[dict[str, Any]] = []
    before: State | None = None
    real_before: dict[str, float] = {}
    for ply, action, state in replay.states():
        if ply < first - 1:
            continue
        if ply >= stop:
            break
        estimates = analyst.chances(state, None, seats, ply)
        real = {seat: round(e.mean, 1) for seat, e in zip(seats, estimates, strict=True)}
        if ply >= first:
            if action is not None:
                assert before is not None
                # before the seats' own estimates of this ply: the mover's worlds of the
                # judgement (what it saw on its pick) are carried on to them
                moves.append(analyst.judge(before, action, ply, (real_before, real)))
            plies.append(_ply(analyst, state, ply, seats, real, estimates))
            if progress is not None:
                progress(ply + 1 - first, stop - first)
        before, real_before = game.clone(state), real
    return {"plies": plies, "moves": moves}


def _ply(
    analyst: Analyst,
    state: State,
    ply: int,
    seats: list[str],
    real: dict[str, float],
    estimates: list[Estimate],
) -> dict[str, Any]:
    """One ply's figures: each seat's own chance and the all-seeing ones, with their errors."""
    own: dict[str, float | None] = {}
    own_se: dict[str, float | None] = {}
    missing: dict[str, str] = {}
    for seat in seats:
        try:
            chance = analyst.own_chance(state, seat, ply)
            own[seat], own_se[seat] = round(chance.mean, 1), round(chance.se, 2)
        except SamplingFailed:
            own[seat] = own_se[seat] = None
            missing[seat] = SAMPLING_FAILED
    entry: dict[str, Any] = {
        "ply": ply,
        "own": own,
        "own_se": own_se,
        "all": real,
        "all_se": {seat: round(e.se, 2) for seat, e in zip(seats, estimates, strict=True)},
    }
    if missing:
        entry["not_estimated"] = missing
    return entry


def analyse(
    replay: Replay, *, budget: int = DEFAULT_BUDGET, seed: int = 0, progress: Progress | None = None
) -> dict[str, Any]:
    """The analysis of a replayed log (JSON-ready; see the module's docstring)::

        {"engine": ..., "budget": ..., "seed": ..., "seats": [...],
         "plies": [{"ply": 0, "own": {seat: points or None}, "own_se": {seat: points or None},
                    "all": {seat: points}, "all_se": {seat: points},
                    "not_estimated": {seat: message id} (only when a figure is None)}, ...],
         "moves": [{"ply": 1, "seat": decider, "rated": bool, "not_estimated": message id
                    (a choice not rated for want of worlds), "played_value", "best_value",
                    "drop", "drop_se", "drop_low", "drop_high" (its 95 % interval),
                    "playouts" (paired samples), "label" (None unless sure), "unclear",
                    "all_seeing_drop", "unknowable", "accuracy", "accuracy_se",
                    "best": listed action or None}, ...],
         "accuracy": {seat: points or None}, "accuracy_se": {seat: points or None}}

    ``moves[i]`` is the action that led to ``plies[i + 1]``; ``best`` is the all-seeing
    form of the move found (a page shows it to a viewer through :meth:`Game.action_view`).
    The chunks of :func:`chunks` are analysed in turn (as workers would, one each).
    """
    total = len(replay.actions) + 1
    parts = []
    for first, stop in chunks(replay):
        report = (
            None
            if progress is None
            else (lambda done, _n, first=first: progress(first + done, total))
        )
        parts.append(analyse_plies(replay, first, stop, budget=budget, seed=seed, progress=report))
    return merge(replay, parts, budget=budget, seed=seed)
