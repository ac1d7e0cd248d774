"""Information-Set Monte Carlo Tree Search: a bot that decides from its seat's beliefs.

Single-observer ISMCTS (Cowling, Powley & Whitehouse, "Information Set Monte Carlo
Tree Search", IEEE TCIAIG 2012): every iteration deals one complete state from what
the deciding seat knows (:meth:`GameAI.beliefs`, never the real state's hidden parts),
walks the one tree of that seat's information set with that state — choosing among the
actions available *in this state* by UCB1 with availability counts — adds one node,
plays the game out with a playout policy, and credits every node on the way with the
result for the seat that chose it. The action tried most often is played.

A node's key is the action as listed by :meth:`GameAI.decision` (chance left out: the
state's own generator deals refills, draws and blocks as the playout goes on).

Budget: ``playouts`` iterations per decision; a decision with one legal action is not
searched. The playout policy's own choice at a node starts with ``prior`` virtual
visits worth ``prior_value`` each, so a small budget departs from it only on evidence. The playout
policy is a bot (default: the game's ``greedy``); a playout that
reaches ``max_plies`` without an end is scored by ``evaluate`` (default 0.5). A
``narrow`` function (a move filter, default none) may cut each decision's actions, at
the root and in the tree, to the few worth telling apart with the budget. With
``paired`` the root uses common random numbers: every world dealt is played with each
root action, and the best mean is played (:meth:`Search._search_paired`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from engine.ai.contract import Beliefs
from engine.ai.registry import require_ai
from engine.core.game import Action, Game, State
from engine.core.rng import Rng

Evaluate = Callable[[Game, State, str], float]
Reward = Callable[[Game, State, str, "Playout"], float]
Narrow = Callable[[Game, State, list[Action]], list[Action]]


def round_of(game: Game, state: State) -> int:
    """The round ``state`` is in, by the game's clock (0 for a game that counts none)."""
    return int(game.clock(state).get("round") or 0)


def action_key(action: Action) -> Any:
    """A hashable key for an action (its fields, nested lists and objects included)."""
    return tuple(sorted((k, _freeze(v)) for k, v in action.items()))


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


class Node:
    """Statistics of one action in the tree: chosen ``visits`` times, available
    ``avail`` times, ``reward`` summed for ``seat`` (the seat that chose it)."""

    __slots__ = ("action", "avail", "children", "hint", "reward", "seat", "visits")

    def __init__(self, seat: str | None, action: Action | None):
        self.seat = seat
        self.action = action
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0
        #: the key of the playout policy's choice here (asked once, in the first world)
        self.hint: Any = None


class Playout:
    """What happened after the tree: the seats that moved, in order (for rewards such as
    coalition reduction that tell apart who did it)."""

    __slots__ = ("movers",)

    def __init__(self) -> None:
        self.movers: list[str] = []


def _win(game: Game, state: State, seat: str, playout: Playout) -> float:
    return require_ai(game).score(state, seat)


class Search:
    """ISMCTS for ``seat`` with a fixed budget. Reusable across decisions."""

    def __init__(
        self,
        game: Game,
        *,
        playouts: int = 64,
        policy: str = "greedy",
        exploration: float = 0.7,
        max_plies: int = 400,
        evaluate: Evaluate | None = None,
        reward: Reward | None = None,
        prior: int = 3,
        prior_value: float = 0.6,
        max_branching: int = 64,
        narrow: Narrow | None = None,
        paired: bool = False,
        cut_rounds: int | None = None,
    ):
        self.game = game
        self.ai = require_ai(game)
        self.playouts = playouts
        self.policy = self.ai.bots[policy]
        self.exploration = exploration
        self.max_plies = max_plies
        self.evaluate = evaluate
        self.reward = reward or _win
        #: virtual visits (and their mean value) the policy's own choice starts with at
        #: every node (Gelly & Silver's prior knowledge): with a small budget the search
        #: then departs from the policy only where its playouts say so
        self.prior, self.prior_value = prior, prior_value
        #: below the root, a decision between more actions than this is left to the policy
        self.max_branching = max_branching
        #: the actions of a decision worth searching among (None: all of them)
        self.narrow = narrow
        #: common random numbers at the root: every world dealt is played with each of the
        #: root's actions (see :meth:`_search_paired`)
        self.paired = paired
        #: a playout is cut (and scored by ``evaluate``) once the game's round is this many
        #: past the iteration's start (None: only ``max_plies`` cuts it)
        self.cut_rounds = cut_rounds
        #: iterations run and plies applied by the last :meth:`decide` (for the benchmark)
        self.stats = {"playouts": 0, "plies": 0}
        #: the root's action tried most often after the one played, by the last tree
        #: :meth:`decide` grew (analysis: a move another search could find best)
        self.runner_up: Action | None = None

    def decide(
        self,
        state: State,
        viewer: str,
        rng: Rng,
        opening: Action | None = None,
        worlds: Callable[[Action | None], Sequence[State]] | None = None,
    ) -> Action:
        """The action to play in ``state``, decided from ``viewer``'s knowledge of it;
        within the pick ``opening`` when given (analysis: the envelope the seat opened).
        ``worlds(pick)``: the states to search over, in turn, before any pick (None) or
        after ``pick``, holding what it shows, instead of states dealt from the viewer's
        beliefs (analysis: the ones its estimates of this decision use)."""
        game = self.game
        _decider, actions = self.ai.decision(state)
        if self.narrow is not None:
            actions = self.narrow(game, state, actions) or actions
        if len(actions) == 1:
            return actions[0]
        beliefs = None if worlds is not None else self.ai.beliefs(state, viewer)
        dealt = None
        self.stats = {"playouts": 0, "plies": 0}
        self.runner_up = None
        openings = game.openings(state, viewer)
        if openings:
            # a pick comes first (Cloak & Dagger's envelope, CD-3): the search makes it from
            # the seat's beliefs; then the seat sees what it holds, and a second search over
            # worlds holding that decides among the actions there
            if opening is None:
                picking = self._search(beliefs, rng, None, None if worlds is None else worlds(None))
                opening = self._best_opening(picking, openings, rng)
            picked = action_key(opening)
            actions = [a for a in actions if action_key(game.opening_of(a) or {}) == picked]
            if len(actions) == 1:
                return actions[0]
            if worlds is None:
                beliefs = self.ai.beliefs_after_opening(state, viewer, opening)
            else:
                dealt = worlds(opening)
        elif worlds is not None:
            dealt = worlds(None)
        # only actions legal in the real state (the same list for a seat whose choices
        # depend on what it knows, which is every seat of the games here once it has
        # made its pick)
        legal = {action_key(a) for a in actions}
        if self.paired and beliefs is not None:
            root = self._search_paired(beliefs, rng, legal)
            played = [(key, n) for key, n in root.children.items() if key in legal and n.visits]
            if played:  # the best mean over the same worlds; the policy's move on a tie
                _key, top = max(
                    played, key=lambda kn: (kn[1].reward / kn[1].visits, kn[0] == root.hint)
                )
                assert top.action is not None
                return top.action
        root = self._search(beliefs, rng, legal, dealt)
        tried = [n for key, n in root.children.items() if key in legal]
        if not tried:
            return actions[rng.below(len(actions))]
        ranked = sorted(tried, key=lambda n: (n.visits, n.reward), reverse=True)
        self.runner_up = ranked[1].action if len(ranked) > 1 else None
        assert ranked[0].action is not None
        return ranked[0].action

    def _search(
        self,
        beliefs: Beliefs | None,
        rng: Rng,
        at_root: set[Any] | None,
        worlds: Sequence[State] | None = None,
    ) -> Node:
        """A tree of ``playouts`` iterations over worlds dealt from ``beliefs`` (or over
        ``worlds``, in turn); the root offers only the actions keyed in ``at_root`` (None:
        all)."""
        root = Node(None, None)
        plies = 0
        for i in range(self.playouts):
            if worlds is not None:
                world = self.game.clone(worlds[i % len(worlds)])
            else:
                assert beliefs is not None
                world = beliefs.sample(rng)
            plies += self._iterate(root, world, rng, at_root)
        self.stats = {
            "playouts": self.stats["playouts"] + self.playouts,
            "plies": self.stats["plies"] + plies,
        }
        return root

    def _search_paired(self, beliefs: Beliefs, rng: Rng, at_root: set[Any]) -> Node:
        """Like :meth:`_search`, with common random numbers at the root: each world dealt
        is played once with every root action, from the same world and the same
        generators (the world's chance and the policy's), below it as usual. The root's
        means then differ by what the actions do, not by which worlds each happened to
        draw (in a hide-and-seek game where Mister X is sampled from matters far more
        than a pawn's move, so unpaired means need many more playouts to tell moves
        apart). Stops at ``playouts`` iterations, counting every action's."""
        game = self.game
        root = Node(None, None)
        plies = iterations = 0
        while iterations < self.playouts:
            world = beliefs.sample(rng)
            decider, actions = self.ai.decision(world)
            if self.narrow is not None:
                actions = self.narrow(game, world, actions) or actions
            actions = [a for a in actions if action_key(a) in at_root] or actions
            seed = rng.next64()
            if root.hint is None:
                root.hint = action_key(self.policy(game, world, game.to_act(world)[0], Rng(seed)))
            for action in actions:
                key = action_key(action)
                child = root.children.get(key)
                if child is None:
                    child = root.children[key] = Node(decider, action)
                child.avail += 1
                copy = game.clone(world)  # the same world and generator for every action
                game.apply(copy, action)
                plies += 1 + self._iterate(root, copy, Rng(seed), at_root, start=child)
                iterations += 1
        self.stats = {
            "playouts": self.stats["playouts"] + iterations,
            "plies": self.stats["plies"] + plies,
        }
        return root

    def _best_opening(self, root: Node, openings: list[Action], rng: Rng) -> Action:
        """The pick whose actions the root tried most often (their visits summed)."""
        visits: dict[Any, int] = {}
        for child in root.children.values():
            opening = self.game.opening_of(child.action) if child.action is not None else None
            if opening is not None:
                key = action_key(opening)
                visits[key] = visits.get(key, 0) + child.visits
        offered = {action_key(o): o for o in openings}
        ranked = [
            key for key in sorted(visits, key=visits.__getitem__, reverse=True) if key in offered
        ]
        return offered[ranked[0]] if ranked else openings[rng.below(len(openings))]

    def _iterate(
        self,
        root: Node,
        world: State,
        rng: Rng,
        at_root: set[Any] | None = None,
        start: Node | None = None,
    ) -> int:
        """One iteration in ``world``; from ``start`` (a child of the root whose action
        the world has had applied) when given."""
        game = self.game
        node = root if start is None else start
        path: list[Node] = [] if start is None else [start]
        plies = 0
        cut = None if self.cut_rounds is None else round_of(game, world) + self.cut_rounds
        # selection and expansion: down the tree while every available action has a node
        while not game.is_over(world):
            decider, actions = self.ai.decision(world)
            if self.narrow is not None:
                actions = self.narrow(game, world, actions) or actions
            if at_root is not None and not path:
                actions = [a for a in actions if action_key(a) in at_root] or actions
            if path and len(actions) > self.max_branching:
                # a choice too wide to learn from a small budget (a discard of any part of
                # a rack, a relocation of sensors): the policy makes it, as in a playout
                game.apply(world, self.policy(game, world, game.to_act(world)[0], rng))
                plies += 1
                continue
            untried = []
            best, best_value = None, -1.0
            for action in actions:
                key = action_key(action)
                child = node.children.get(key)
                if child is None:
                    untried.append((key, action))
                    continue
                child.avail += 1
                value = child.reward / child.visits + self.exploration * math.sqrt(
                    math.log(child.avail) / child.visits
                )
                if value > best_value:
                    best, best_value = child, value
            if untried:
                if node.hint is None:
                    node.hint = action_key(self.policy(game, world, game.to_act(world)[0], rng))
                key, action = next(
                    ((k, a) for k, a in untried if k == node.hint), untried[rng.below(len(untried))]
                )
                child = node.children[key] = Node(decider, action)
                child.avail = 1
                if key == node.hint:  # prior knowledge: the policy's move starts ahead
                    child.visits, child.reward = self.prior, self.prior * self.prior_value
                game.apply(world, action)
                plies += 1
                path.append(child)
                break
            assert best is not None and best.action is not None
            game.apply(world, best.action)
            plies += 1
            path.append(best)
            node = best
        # playout
        playout = Playout()
        policy = self.policy
        while not game.is_over(world) and plies < self.max_plies:
            if cut is not None and round_of(game, world) >= cut:
                break
            seat = game.to_act(world)[0]
            playout.movers.append(seat)
            game.apply(world, policy(game, world, seat, rng))
            plies += 1
        finished = game.is_over(world)
        values: dict[str, float] = {}
        for child in path:
            mover = child.seat
            assert mover is not None
            if mover not in values:
                if finished:
                    values[mover] = self.reward(game, world, mover, playout)
                else:
                    values[mover] = (
                        0.5 if self.evaluate is None else self.evaluate(game, world, mover)
                    )
            child.visits += 1
            child.reward += values[mover]
        return plies


#: ``candidates(world)``: the (key, action) pairs to compare in one world (a key may stand
#: for a different action in each world: an envelope and what the policy does inside it)
Candidates = Callable[[State], list[tuple[Any, Action]]]


def paired_playouts(
    game: Game,
    worlds: Sequence[State],
    seat: str,
    candidates: Candidates,
    seed: int,
    *,
    policy: str = "greedy",
    max_plies: int = 400,
    evaluate: Evaluate | None = None,
) -> dict[Any, dict[int, float]]:
    """Flat Monte Carlo with common random numbers: every candidate of each world is
    applied to its own copy of that world and played out by ``policy`` with the same
    generator (the world's chance and the policy's choices), and scored for ``seat``
    (a playout cut at ``max_plies`` by ``evaluate``, default 0.5). Returns, per
    candidate key, the score in each world (by the world's index), so two candidates
    compare world by world (:func:`keep_unless_beaten`). The worlds are not changed."""
    ai = require_ai(game)
    bot = ai.bots[policy]
    results: dict[Any, dict[int, float]] = {}
    for i, world in enumerate(worlds):
        generator = Rng.derived(seed, i).next64()
        for key, action in candidates(world):
            copy = game.clone(world)
            game.apply(copy, action)
            rng = Rng(generator)
            plies = 0
            while not game.is_over(copy) and plies < max_plies:
                game.apply(copy, bot(game, copy, game.to_act(copy)[0], rng))
                plies += 1
            if game.is_over(copy):
                value = ai.score(copy, seat)
            else:
                value = 0.5 if evaluate is None else evaluate(game, copy, seat)
            results.setdefault(key, {})[i] = value
    return results


def keep_unless_beaten(
    results: dict[Any, dict[int, float]], reference: Any, threshold: float
) -> Any:
    """The key to play: ``reference`` (the policy's own move), unless another candidate
    did better world by world with a paired t statistic above ``threshold`` (its mean
    difference over the standard error of that mean; a difference the same in every
    world counts as beyond any threshold); of those, the one with the largest mean
    difference. Without this test the best of many noisy means is mostly luck (with 8
    worlds and 20 candidates, a move that is no better wins often): the level then plays
    worse than its policy (``bench/README.md``)."""
    base = results.get(reference)
    if base is None:
        return reference
    best, best_gain = reference, 0.0
    for key, values in results.items():
        if key == reference:
            continue
        gaps = [value - base[i] for i, value in values.items() if i in base]
        if len(gaps) < 2:
            continue
        mean = sum(gaps) / len(gaps)
        if mean <= best_gain:
            continue
        spread = sum((gap - mean) ** 2 for gap in gaps) / (len(gaps) - 1)
        if spread == 0.0 or mean / math.sqrt(spread / len(gaps)) > threshold:
            best, best_gain = key, mean
    return best


def search_bot(playouts: int = 64, **options: Any) -> Callable[[Game, State, str, Rng], Action]:
    """A bot (``bot(game, state, seat, rng)``) that searches with this budget, deciding
    from the knowledge of the seat asked (a team seat decides from the team's)."""
    searches: dict[int, Search] = {}

    def bot(game: Game, state: State, seat: str, rng: Rng) -> Action:
        search = searches.get(id(game))
        if search is None:
            search = searches[id(game)] = Search(game, playouts=playouts, **options)
        return search.decide(state, seat, rng)

    return bot
