"""Cloak & Dagger: complete states drawn from what one seat knows (belief sampling).

A seat does not know the numbers of the envelopes the others chose when nothing
announced them (drops, takes, examines, hazards), the cards they placed, the second
cards they took, nor the pile's order (CD-5). A sample is a whole game: a **history**
of the same turns, each hidden choice filled in, replayed by the rules from an
unknown pile, such that the seat's observation of every turn is exactly the one it
had (:func:`~engine.games.cloak.knowledge.observation`) — what it saw inside the
envelopes it opened, the places announced, the spies shown, the hand sizes, the
hazards, the numbers it was told, a win. Every other seat's check sheet in the
sample is then folded from that history, as in a real game, so the bots that play
the sample out read what *those* seats would know in that world.

The deal goes forward turn by turn (``Beliefs.sample``). Much of it is forced by the
sampled world itself: a take shows its spy, which exists once, so the take happened
where the world has that spy; a hazard likewise. What is left to chance:

* where another seat's drop or examine went (unless told or shown by a win);
* which card another seat's place drew (from the cards not drawn yet, the seat's own
  later draws kept back);
* which card a take's hidden second card was (among the cards in that envelope).

Each is drawn uniformly among the choices that a quick look ahead does not rule out
(:meth:`Beliefs._fits`): the next thing the seat learns about that envelope (what it
sees there, or an announced place that needs it empty) must stay reachable with the
takes, hazards and drops in between; a card that exists once and that the seat sees
later somewhere it cannot have moved to in between pins the choice; the cards the
seat will see outside the pile must still all be drawable by the places left before
it sees them (a schedule, :meth:`Beliefs._draw_choices`). The look ahead only rules
out choices that cannot lead to a consistent history; a history that still
contradicts a later observation is thrown away and the deal starts again (rejection).

**Lantern reading** (the distribution): a sample is a history drawn with probability
proportional to the product, over its hidden choices, of one over the number of
choices the look ahead left open there — every consistent history with positive
probability, none other (``tests/engine/ai/test_cloak_sampling.py`` enumerates every
consistent history of small games and checks the draws against these odds with a
chi-square test). It is not the uniform law over histories (a world reached through
forced steps weighs more than one reached through many open ones), and it models the
other seats' hidden choices as uniform among the possible ones: any other model would
be a guess about how people play.

**Lantern reading** (when the exact deal does not come): the look ahead is local, so in
long games with many hidden moves (5 and 6 players, hazards) most deals can be
contradicted. After ``EXACT_DEALS`` contradicted deals the sampler falls back, in two
steps, each still giving a history the seat observes exactly as it did:

1. *backtracking*: the deal goes on from the world before the seat's own last turn it
   reached (``RETRIES`` times, then from the turn before that); the odds then favour
   early choices that happened to leave the later ones easy (no longer the law above);
2. *repair* (``REPAIRED_DEALS`` tries): one pass in which, where the dealt world
   contradicts the seat (it sees other cards in an envelope, a spy shown is not in any
   envelope, an announced place finds cards, its own draw is not in the pile), the world
   is made to agree by moving the cards concerned, a hand or the pile getting a card back
   in exchange so that the sizes stay the public ones. The other seats' recorded turns
   then do not always match their world (what they "saw" on a turn may differ from the
   contents now), so their check sheets in that sample are approximate; the seat's own
   observations are still exact (tested).

``bench/README.md`` gives how often each step is needed. Only if repair fails too (a
world that would have ended in a win the seat did not see) does ``sample`` raise
``SamplingFailed``.

Nothing here reads the real state beyond the seat's own observations (plus, when the
seat has just opened an envelope, what it sees there): the samples are a function of
those and the generator only (the counterfactual tests change every hidden fact and
compare).
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from typing import Any

from engine.ai.contract import SamplingFailed
from engine.core.errors import IllegalAction
from engine.core.rng import Rng
from engine.games.cloak import rules
from engine.games.cloak.knowledge import Observation, observation
from engine.games.cloak.state import (
    DOUBLE_AGENTS,
    ENVELOPES,
    HAZARDS,
    LOYAL_SPIES,
    CloakState,
    deck,
)

#: whole deals tried before the fallback (exact: rejection); a 4-player game of greedy bots
#: needs about 20 on average (bench/README.md)
EXACT_DEALS = 100
#: then deals of the first fallback, from the seat's own turns back
MAX_ATTEMPTS = 300
#: then repaired deals (the last fallback) before giving up
REPAIRED_DEALS = 20
#: deals from one of the seat's own turns before going back to the one before it
RETRIES = 20
#: the weight of a hidden choice that puts a card where the seat next sees it, against 1
#: for any other choice still possible (see the module's docstring)
LIKELY = 50


class Contradiction(Exception):
    """This deal contradicts an observation: start again."""


def _key(action: Observation) -> dict[str, Any]:
    """The action as the rules take it, from the actor's own observation."""
    return {k: v for k, v in action.items() if k not in ("saw", "turn", "cards", "win", "told")}


class Beliefs:
    """What ``viewer`` knows of ``state`` (None: all-seeing), ready to deal complete
    states from. ``opened``: the envelope the viewer (to act) has just opened; the
    samples then hold what it sees there (CD-3)."""

    def __init__(self, state: CloakState, viewer: str | None, opened: int | None = None):
        self.viewer = viewer
        #: how the last sample was dealt: "exact", "backtracking" or "repaired" (the
        #: module's docstring; bench/cloak_sampling.py counts them)
        self.last = "exact"
        self.options = state.options
        self.seats = list(state.seats)
        if viewer is None:
            self.state = state
            return
        me = self.me = self.seats.index(viewer)
        seen = [
            observation(entry, turn + 1, me, self.seats) for turn, entry in enumerate(state.history)
        ]
        self.seen = seen
        end = len(seen)
        #: per envelope: the indexes of the turns before which the seat knows its contents
        #: exactly (its own turns there; another's announced place needs it empty; a win
        #: shows it after the turn) and those contents
        constraints: list[list[tuple[int, Counter[str]]]] = [[] for _ in range(ENVELOPES + 1)]
        #: per card that exists once: (index, envelope) where the seat will see it
        sightings: dict[str, list[tuple[int, int]]] = {}
        self.unique = LOYAL_SPIES | DOUBLE_AGENTS | HAZARDS
        if self.options["document_copies"] == 1:
            self.unique = self.unique | {"X", "Y", "Z"}
        #: per index: letters a take or a hazard by another seat moved publicly (each once)
        shown: list[str | None] = []
        seconds = [0]  # prefix counts: hidden second cards taken by others
        drops = [0]  # prefix counts: other seats' drops
        places = [0]  # prefix counts: other seats' places (draws the seat does not see)
        own_draws: list[str] = []
        #: per index: the seat's own draws before that turn
        own_before: list[int] = []
        for k, obs in enumerate(seen):
            own_before.append(len(own_draws))
            actor = self.seats.index(obs["seat"])
            kind = obs["type"]
            mine = actor == me
            if mine:
                constraints[obs["envelope"]].append((k, Counter(obs["saw"])))
                if kind == "place":
                    own_draws.append(obs["card"])
            elif kind == "place":
                constraints[obs["envelope"]].append((k, Counter()))
            if "win" in obs:
                constraints[obs["envelope"]].append((k + 1, Counter(obs["win"])))
            shown.append(
                None
                if mine
                else obs.get("spy")
                if kind == "take"
                else obs.get("card")
                if kind == "hazard"
                else None
            )
            seconds.append(seconds[-1] + (not mine and kind == "take" and obs["cards"] == 2))
            drops.append(drops[-1] + (not mine and kind == "drop"))
            places.append(places[-1] + (not mine and kind == "place"))
        if opened is not None:
            constraints[opened].append((end, Counter(state.envelopes[opened])))
        for k, obs in enumerate(seen):
            # a take or a hazard whose number the seat was told: the letter shown was there
            if obs.get("told") and obs["type"] in ("take", "hazard"):
                letter = obs["spy"] if obs["type"] == "take" else obs["card"]
                sightings.setdefault(letter, []).append((k, obs["envelope"]))
        for n in range(1, ENVELOPES + 1):
            constraints[n].sort(key=lambda c: c[0])
            for index, cards in constraints[n]:
                for card in cards:
                    if card in self.unique:
                        sightings.setdefault(card, []).append((index, n))
        for spots in sightings.values():
            spots.sort()
        self.constraints = constraints
        self.indexes = [[index for index, _ in cs] for cs in constraints]
        self.sightings = sightings
        self.shown = shown
        self.seconds, self.drops, self.places = seconds, drops, places
        self.own_draws = own_draws
        self.own_before = own_before
        #: per deck card that exists once: the index before which another seat's place
        #: must have drawn it (the seat sees it, or it is revealed as a hazard), unless
        #: the seat draws it itself
        deadline: dict[str, int] = {}
        pile_cards = set(deck(self.options))
        for card, spots in sightings.items():
            if card in pile_cards:
                deadline[card] = spots[0][0]
        for k, letter in enumerate(shown):
            if letter in HAZARDS and letter in pile_cards:
                deadline[letter] = min(deadline.get(letter, k), k)
        for card in own_draws:
            deadline.pop(card, None)
        self.deadline = deadline
        self.end = end
        self.opened = opened

    # --- the look ahead -------------------------------------------------------------
    def _fits(self, n: int, cards: list[str], index: int) -> bool:
        """Can envelope ``n`` holding ``cards`` after turn ``index`` still become what
        the seat next knows of it, with the takes, hazards and drops in between?"""
        at = bisect_right(self.indexes[n], index)
        if at == len(self.indexes[n]):
            return True
        until, known = self.constraints[n][at]
        contents = Counter(cards)
        excess = contents - known
        if excess:
            for letter in self.shown[index + 1 : until]:
                if letter is not None and excess[letter]:
                    excess[letter] -= 1
            if sum(excess.values()) > self.seconds[until] - self.seconds[index + 1]:
                return False
        missing = known - contents
        return sum(missing.values()) <= 2 * (self.drops[until] - self.drops[index + 1])

    def _unwanted(self, n: int, contents: Counter[str], index: int) -> Counter[str]:
        """The cards of ``contents`` (envelope ``n`` during turn ``index``) that the seat
        next knows are not there: a hidden second card is likely one of them."""
        at = bisect_right(self.indexes[n], index)
        if at == len(self.indexes[n]):
            return Counter()
        return contents - self.constraints[n][at][1]

    def _next_sighting(self, card: str, index: int) -> tuple[int, int] | None:
        """(index, envelope) where the seat next sees ``card`` (exists once) after turn
        ``index``."""
        spots = self.sightings.get(card)
        if not spots:
            return None
        at = bisect_right(spots, (index, ENVELOPES + 1))
        return spots[at] if at < len(spots) else None

    def _stays(self, card: str, n: int, index: int) -> int:
        """A card that exists once, put in envelope ``n`` at turn ``index``: 0 if the seat
        next sees it elsewhere and nothing could have moved it in between (it cannot go
        there); else the weight of that choice: ``LIKELY`` where the seat next sees it, 1
        elsewhere (see the module's docstring)."""
        spot = self._next_sighting(card, index)
        if spot is None:
            return 1
        until, where = spot
        if where == n:
            return LIKELY
        return 1 if self._may_move(card, index, until) else 0

    def _may_move(self, card: str, index: int, until: int) -> bool:
        """Can ``card`` leave its envelope between turns ``index`` and ``until``: a hidden
        second card may be it, or a take shows it?"""
        return (
            bool(self.seconds[until] - self.seconds[index + 1])
            or card in self.shown[index + 1 : until]
        )

    def _in_hand(self, card: str, index: int) -> bool:
        """Can ``card`` (exists once), taken into a hand at turn ``index``, stay there until
        the taker's next turn (a drop) without the seat seeing it elsewhere meanwhile?"""
        drop = index + len(self.seats)
        spot = self._next_sighting(card, index)
        if spot is not None and spot[0] <= drop:
            return False
        return card not in self.shown[index + 1 : drop]

    def _draw_choices(self, world: CloakState, index: int, n: int) -> list[tuple[str, int]]:
        """The cards another seat's place at ``index`` into ``n`` may draw, weighted."""
        unknown = world.pile_unknown
        if not unknown:
            return [(card, 1) for card in world.pile[:1]]
        later_own = Counter(self.own_draws[self.own_before[index] :])
        pool = Counter(unknown) - later_own
        # the schedule: every card the seat will see outside the pile must be drawn by a
        # place of another seat before then; where the places left are just enough,
        # this one must draw one of the cards due by then
        due = sorted((self.deadline[c], c) for c in pool if c in self.deadline)
        limit = None
        for count, (when, _card) in enumerate(due, start=1):
            slots = self.places[when] - self.places[index]
            if count > slots:
                raise Contradiction
            if count == slots:
                limit = when
                break
        choices = []
        for card in sorted(pool):
            if limit is not None and self.deadline.get(card, self.end + 1) > limit:
                continue
            weight = self._stays(card, n, index) if card in self.unique else 1
            if weight and self._fits(n, [card], index):
                choices.append((card, weight))
        return choices

    # --- the deal -------------------------------------------------------------------
    def sample(self, rng: Rng) -> CloakState:
        """One complete state consistent with everything the viewer knows."""
        if self.viewer is None:
            world = self.state.copy()
            if world.pile_unknown is not None:
                unknown = list(world.pile_unknown)
                rng.shuffle(unknown)
                world.pile, world.pile_unknown = unknown + world.pile, None
            return world
        return self.finish(self.deal(rng), rng)

    def deal(self, rng: Rng) -> CloakState:
        """One history consistent with everything the viewer knows, the pile's cards not
        drawn yet left unordered (``pile_unknown``): :meth:`finish` orders them."""
        for _ in range(EXACT_DEALS):
            try:
                world = self.opened_fits(self.deal_turns(rng, 0, self.start_world()))
                self.last = "exact"
                return world
            except (Contradiction, IllegalAction):
                continue
        try:
            world = self._backtracking_deal(rng)
            self.last = "backtracking"
            return world
        except (SamplingFailed, Contradiction):
            pass
        for _ in range(REPAIRED_DEALS):
            try:
                world = self.opened_fits(self.deal_turns(rng, 0, self.start_world(), repair=True))
                self.last = "repaired"
                return world
            except (Contradiction, IllegalAction):
                continue
        raise SamplingFailed(f"no history consistent with {self.viewer}'s observations")

    def start_world(self) -> CloakState:
        world = CloakState(self.options, self.seats, [], sorted(deck(self.options)))
        world.setup_pile = None
        return world

    def opened_fits(self, world: CloakState) -> CloakState:
        """``world`` when the envelope the viewer has opened holds what it sees there."""
        if self.opened is not None:
            at = self.constraints[self.opened][-1][1]
            if Counter(world.envelopes[self.opened]) != at:
                raise Contradiction
        return world

    @staticmethod
    def finish(world: CloakState, rng: Rng) -> CloakState:
        """``world`` (a history dealt by :meth:`deal`) complete: the cards not drawn yet
        put in an order drawn from ``rng``, above the cards returned to the bottom."""
        unknown = list(world.pile_unknown or ())
        rng.shuffle(unknown)
        world.pile, world.pile_unknown = unknown + world.pile, None
        return world

    def _backtracking_deal(self, rng: Rng) -> CloakState:
        """The fallback (see the module's docstring): deal on from the state before the
        seat's own last turn that the deal reached, ``RETRIES`` times, then from the one
        before that, and so on; ``MAX_ATTEMPTS`` deals in all."""
        checkpoints: list[tuple[int, CloakState]] = []
        index, world = 0, self.start_world()
        failures: dict[int, int] = {}
        for _ in range(MAX_ATTEMPTS):
            try:
                return self.opened_fits(self.deal_turns(rng, index, world, checkpoints))
            except (Contradiction, IllegalAction):
                pass
            while checkpoints and failures.get(checkpoints[-1][0], 0) >= RETRIES:
                checkpoints.pop()
            if checkpoints:
                index, saved = checkpoints[-1]
                failures[index] = failures.get(index, 0) + 1
                world = saved.copy()
            else:
                index, world = 0, self.start_world()
        raise SamplingFailed(
            f"no history consistent with {self.viewer}'s observations in {MAX_ATTEMPTS} deals"
        )

    def deal_turns(
        self,
        rng: Rng,
        start: int,
        world: CloakState,
        checkpoints: list[tuple[int, CloakState]] | None = None,
        repair: bool = False,
    ) -> CloakState:
        """Deal the turns from ``start`` on into ``world`` (as dealt before ``start``);
        ``checkpoints`` (when given) gets the world before each of the seat's own turns.
        ``repair``: the last fallback (see the module's docstring)."""
        me = self.me
        seen_turns = self.seen
        for index in range(start, len(seen_turns)):
            seen = seen_turns[index]
            actor = self.seats.index(seen["seat"])
            if actor == me:
                n = seen["envelope"]
                if Counter(world.envelopes[n]) != Counter(seen["saw"]):
                    if not repair:
                        raise Contradiction
                    self._repair(world, n, seen["saw"], rng)
                if (
                    repair
                    and seen["type"] == "place"
                    and world.pile_unknown
                    and seen["card"] not in world.pile_unknown
                ):
                    self._into_pile(world, seen["card"], rng)
                if checkpoints is not None and index > start:
                    checkpoints.append((index, world.copy()))
                action = _key(seen)
            elif repair:
                action = self._repaired_turn(world, index, seen, rng)
            else:
                action = self._choose(world, index, seen, rng)
            rules.apply(world, action)
            if "win" in seen:
                if world.winner != actor:
                    raise Contradiction
            elif world.winner is not None:
                raise Contradiction
        if repair and self.opened is not None:
            self._repair(
                world, self.opened, list(self.constraints[self.opened][-1][1].elements()), rng
            )
        return world

    # --- the last fallback: repairs -------------------------------------------------
    def _repair(self, world: CloakState, n: int, saw: list[str], rng: Rng) -> None:
        """Make envelope ``n`` hold ``saw``: each missing card fetched from where the
        world has it (a hand or the pile, whose sizes are public, gets a card back in
        exchange), each card too many moved to another envelope."""
        contents = world.envelopes[n]
        spare = list((Counter(contents) - Counter(saw)).elements())
        for card in spare:
            contents.remove(card)
        for card in (Counter(saw) - Counter(contents)).elements():
            holder, sized = self._holder(world, card, n)
            holder.remove(card)
            if sized:
                holder.append(spare.pop() if spare else self._steal(world, rng, n))
            contents.append(card)
        for card in spare:
            world.envelopes[self._elsewhere(rng, n)].append(card)

    def _holder(self, world: CloakState, card: str, besides: int) -> tuple[list[str], bool]:
        """The list holding ``card`` outside envelope ``besides`` and the seat's own hand,
        and whether its size is public."""
        for m in range(1, ENVELOPES + 1):
            if m != besides and card in world.envelopes[m]:
                return world.envelopes[m], False
        for j, hand in enumerate(world.hands):
            if j != self.me and card in hand:
                return hand, True
        if world.pile_unknown and card in world.pile_unknown:
            return world.pile_unknown, True
        if card in world.pile:
            return world.pile, True
        raise Contradiction

    def _steal(self, world: CloakState, rng: Rng, besides: int) -> str:
        """A card taken from a random envelope other than ``besides``."""
        full = [m for m in range(1, ENVELOPES + 1) if m != besides and world.envelopes[m]]
        if not full:
            raise Contradiction
        cards = world.envelopes[rng.choice(full)]
        return cards.pop(rng.below(len(cards)))

    @staticmethod
    def _elsewhere(rng: Rng, n: int) -> int:
        m = 1 + rng.below(ENVELOPES - 1)
        return m if m < n else m + 1

    def _into_pile(self, world: CloakState, card: str, rng: Rng) -> None:
        """The seat draws ``card`` next: put it among the cards not drawn yet."""
        holder, _sized = self._holder(world, card, 0)
        holder.remove(card)
        assert world.pile_unknown is not None
        unknown = world.pile_unknown
        holder.append(
            unknown.pop(rng.below(len(unknown)))
        )  # in exchange: the pile's size is public
        unknown.append(card)
        unknown.sort()

    def _repaired_turn(
        self, world: CloakState, index: int, seen: Observation, rng: Rng
    ) -> dict[str, Any]:
        """Another seat's turn, drawn as in an exact deal when it can be; else the world is
        repaired so that the turn can be played as the seat observed it."""
        turns = self.turns(world, index, seen)
        if turns:
            return _weighted(turns, rng)
        seat, kind = seen["seat"], seen["type"]
        told = seen.get("envelope")
        if kind == "drop":
            return {"seat": seat, "type": kind, "envelope": told or 1 + rng.below(ENVELOPES)}
        if kind == "place":
            n = seen["envelope"]
            while world.envelopes[n]:
                world.envelopes[self._elsewhere(rng, n)].append(world.envelopes[n].pop())
            turns = self.turns(world, index, seen)
            if turns:
                return _weighted(turns, rng)
            pool = sorted(world.pile_unknown or world.pile[:1])
            if not pool:
                raise Contradiction
            return {"seat": seat, "type": kind, "envelope": n, "card": rng.choice(pool)}
        letter = seen["spy"] if kind == "take" else seen["card"]
        where = (
            told
            or next((m for m in range(1, ENVELOPES + 1) if letter in world.envelopes[m]), None)
            or 1 + rng.below(ENVELOPES)
        )
        if letter not in world.envelopes[where]:
            holder, sized = self._holder(world, letter, where)
            holder.remove(letter)
            if sized:
                holder.append(self._steal(world, rng, where))
            world.envelopes[where].append(letter)
        if kind == "hazard":
            return {"seat": seat, "type": kind, "envelope": where, "card": letter}
        rest = list(world.envelopes[where])
        rest.remove(letter)
        second = None
        if seen["cards"] == 2:
            if not rest:
                card = self._steal(world, rng, where)
                world.envelopes[where].append(card)
                rest = [card]
            second = rng.choice(sorted(rest))
        return {"seat": seat, "type": kind, "envelope": where, "spy": letter, "second": second}

    def _choose(self, world: CloakState, index: int, seen: Observation, rng: Rng) -> dict[str, Any]:
        """Another seat's turn with its hidden parts drawn (see the module's docstring)."""
        return _weighted(self.turns(world, index, seen), rng)

    def turns(
        self, world: CloakState, index: int, seen: Observation
    ) -> list[tuple[dict[str, Any], int]]:
        """The turns another seat may have played at ``index`` (its observation ``seen``) in
        ``world`` as dealt so far, each with its weight; empty: this deal is contradicted."""
        seat, kind = seen["seat"], seen["type"]
        told = seen.get("envelope")
        if kind == "examine":
            return [
                ({"seat": seat, "type": kind, "envelope": n}, 1)
                for n in ([told] if told else range(1, ENVELOPES + 1))
            ]
        if kind == "drop":
            hand = world.hands[self.seats.index(seat)]
            candidates = [told] if told else range(1, ENVELOPES + 1)
            weights = dict.fromkeys(candidates, 1)
            for card in hand:
                if card not in self.unique:
                    continue
                spot = self._next_sighting(card, index)
                if spot is None:
                    continue
                if self._may_move(card, index, spot[0]):  # may move before it is seen: likely there
                    if spot[1] in weights:
                        weights[spot[1]] *= LIKELY
                else:  # cannot move: there
                    weights = {spot[1]: weights[spot[1]]} if spot[1] in weights else {}
            return [
                ({"seat": seat, "type": kind, "envelope": n}, weight)
                for n, weight in weights.items()
                if self._fits(n, world.envelopes[n] + hand, index)
            ]
        if kind == "place":
            n = seen["envelope"]
            if world.envelopes[n]:
                return []
            return [
                ({"seat": seat, "type": kind, "envelope": n, "card": card}, weight)
                for card, weight in self._draw_choices(world, index, n)
            ]
        letter = seen["spy"] if kind == "take" else seen["card"]
        where = next((n for n in range(1, ENVELOPES + 1) if letter in world.envelopes[n]), None)
        if where is None or (told and told != where):
            return []
        if kind == "hazard":
            return [({"seat": seat, "type": kind, "envelope": where, "card": letter}, 1)]
        rest = Counter(world.envelopes[where])
        rest[letter] -= 1
        if seen["cards"] == 2:
            unwanted = self._unwanted(where, rest, index)
            seconds: list[tuple[str | None, int]] = [
                (card, LIKELY if unwanted[card] else 1)
                for card in sorted(+rest)
                if (card not in self.unique or self._in_hand(card, index))
                and self._fits(where, list((rest - Counter(card)).elements()), index)
            ]
        else:
            seconds = [(None, 1)] if self._fits(where, list(rest.elements()), index) else []
        return [
            (
                {"seat": seat, "type": kind, "envelope": where, "spy": letter, "second": second},
                weight,
            )
            for second, weight in seconds
        ]


def _weighted(options: list[tuple[Any, int]], rng: Rng) -> Any:
    """One of ``options`` (value, weight) with chance proportional to its weight."""
    if not options:
        raise Contradiction
    if len(options) == 1:
        return options[0][0]
    pick = rng.below(sum(weight for _, weight in options))
    for value, weight in options:
        pick -= weight
        if pick < 0:
            return value
    raise AssertionError("weights add up")
