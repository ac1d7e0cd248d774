"""Cloak & Dagger bots. Each decides only from what its seat knows.

A turn is played as at the table: the bot picks an envelope from its own
knowledge, then looks inside it (:func:`look_inside`, the one place a bot reads
the true state — exactly what the rules let the player see) and decides what to
do there. The greedy bot's knowledge is its
:class:`~engine.games.cloak.knowledge.Knowledge`, folded from its observations.
"""

from __future__ import annotations

import threading
from collections.abc import Set as AbstractSet
from typing import Any

from engine.ai.cloak.particles import Particles
from engine.ai.contract import SamplingFailed
from engine.ai.search import action_key, keep_unless_beaten, paired_playouts
from engine.core.game import Action, Game
from engine.core.rng import Rng
from engine.games.cloak import legal
from engine.games.cloak.knowledge import Knowledge, knowledge_of
from engine.games.cloak.state import DOCUMENTS, ENVELOPE_NUMBERS, HAZARDS, SPY_PAIRS, CloakState

ALL_DOCUMENTS = frozenset(DOCUMENTS)


def look_inside(state: CloakState, envelope: int) -> list[str]:
    """The cards in the envelope the seat to act has chosen: what it sees on opening it."""
    return list(state.envelopes[envelope])


def random_bot(game: Game, state: CloakState, seat: str, rng: Rng) -> Action:
    """Chooses an envelope uniformly, then an action uniformly among those legal there."""
    envelope = 1 + rng.below(len(ENVELOPE_NUMBERS))
    return rng.choice(legal.envelope_actions(state, seat, envelope))


class _Beliefs:
    """What the greedy bot believes is where, from its check sheet: the contents last
    seen, marked stale when it has learnt of events there since."""

    def __init__(self, known: Knowledge):
        self.known = known
        me = known.viewer
        self.own = frozenset(SPY_PAIRS[me])
        self.enemies = frozenset("".join(SPY_PAIRS[: len(known.seats)])) - self.own
        self.contents = {n: known.seen[n] for n in ENVELOPE_NUMBERS}
        self.stale = {n: bool(known.since[n]) for n in ENVELOPE_NUMBERS}
        #: envelopes another player placed a card into since this seat last looked
        self.placed = {
            n for n in ENVELOPE_NUMBERS if any(event["type"] == "place" for event in known.since[n])
        }
        #: per envelope, the cards believed in it (None: not known: never seen, or a card
        #: placed in it since), read once per decision (the plans ask for them many times)
        self.believed: dict[int, frozenset[str] | None] = {
            n: None if cards is None or n in self.placed else frozenset(cards)
            for n, cards in self.contents.items()
        }
        self._docs = {
            n: frozenset() if cards is None else cards & ALL_DOCUMENTS
            for n, cards in self.believed.items()
        }

    def docs(self, n: int) -> frozenset[str]:
        return self._docs[n]

    def has(self, n: int, letters: frozenset[str]) -> bool:
        cards = self.believed[n]
        return cards is not None and not cards.isdisjoint(letters)

    def target(self, extra: AbstractSet[str] = frozenset()) -> int | None:
        """The envelope to gather the documents in: the most documents (with ``extra``
        added), then no enemy spy, then fresh knowledge, then the lowest number."""
        best, best_key = None, None
        for n in ENVELOPE_NUMBERS:
            docs = self.docs(n) | extra
            if not self.docs(n):
                continue
            key = (len(docs), not self.has(n, self.enemies), not self.stale[n], -n)
            if best_key is None or key > best_key:
                best, best_key = n, key
        return best

    def sources(self, missing: AbstractSet[str], besides: int | None) -> list[int]:
        return [n for n in ENVELOPE_NUMBERS if n != besides and self.docs(n) & missing]

    def spy_homes(self) -> list[int]:
        return [n for n in ENVELOPE_NUMBERS if self.has(n, self.own)]

    def empty_guesses(self) -> list[int]:
        """Envelopes believed empty: seen empty with nothing since, or never seen and
        never announced (the best guess for where a card can be placed)."""
        seen_empty = [n for n in ENVELOPE_NUMBERS if self.contents[n] == [] and not self.stale[n]]
        never = [n for n in ENVELOPE_NUMBERS if self.contents[n] is None and not self.stale[n]]
        return seen_empty + never

    def unknown(self) -> list[int]:
        """Envelopes worth a look: an unseen placed card first, then stale, then unseen."""
        for group in (
            sorted(self.placed),
            [n for n in ENVELOPE_NUMBERS if self.stale[n]],
            [n for n in ENVELOPE_NUMBERS if self.contents[n] is None],
        ):
            if group:
                return group
        return list(ENVELOPE_NUMBERS)


def _plan_drop(beliefs: _Beliefs, hand: list[str], rng: Rng) -> int:
    """Where to finish the transfer: documents to the target, a lone spy to a document."""
    carried = set(hand) & ALL_DOCUMENTS
    target = beliefs.target()
    if carried or not target:
        target = beliefs.target(carried) if carried else None
        if target is not None and not (set(hand) & beliefs.enemies):
            return target
        return rng.choice(beliefs.empty_guesses() or list(ENVELOPE_NUMBERS))
    missing = ALL_DOCUMENTS - beliefs.docs(target)
    if set(hand) & beliefs.enemies:  # a captured spy: take it away from the target
        spare = [n for n in beliefs.empty_guesses() if n != target]
        return rng.choice(spare or list(ENVELOPE_NUMBERS))
    sources = beliefs.sources(missing, target)
    return sources[0] if sources else target


def _plan_turn(beliefs: _Beliefs, rng: Rng) -> tuple[int, dict[str, Any]]:
    """With an empty hand: the envelope to choose and what the bot means to do there."""
    target = beliefs.target()
    homes = beliefs.spy_homes()
    can_place = beliefs.known.pile_size > 0
    if target is None:
        if can_place:
            return rng.choice(beliefs.empty_guesses() or list(ENVELOPE_NUMBERS)), {"do": "place"}
        return rng.choice(beliefs.unknown()), {"do": "examine"}
    missing = ALL_DOCUMENTS - beliefs.docs(target)
    target_spies = beliefs.has(target, beliefs.own)
    if not missing and beliefs.has(target, beliefs.enemies):
        if target_spies:  # carry the enemy spy off with our own (a capture)
            return target, {"do": "take", "capture": True}
        if homes:
            return homes[0], {"do": "take"}
    if not missing and not target_spies and homes:
        return homes[0], {"do": "take"}  # bring a spy to the documents
    for home in homes:
        if home != target and beliefs.docs(home) & missing:
            return home, {"do": "take", "want": beliefs.docs(home) & missing}
    sources = beliefs.sources(missing, target)
    if sources and homes:
        away = [home for home in homes if home != target]
        return (away or homes)[0], {"do": "take"}  # fetch a document with a spy
    if missing and not sources and can_place:
        return rng.choice(beliefs.empty_guesses() or list(ENVELOPE_NUMBERS)), {"do": "place"}
    if not missing and target_spies:
        return target, {"do": "examine"}  # stale: has the enemy left?
    return rng.choice(beliefs.unknown()), {"do": "examine"}


def _act_inside(
    beliefs: _Beliefs, seat: str, n: int, inside: list[str], plan: dict[str, Any], pile_size: int
) -> Action:
    """What to do once envelope ``n`` is open and ``inside`` is seen."""
    own_here = sorted(set(inside) & beliefs.own)
    if plan["do"] == "place" and not inside and pile_size:
        return {"seat": seat, "type": "place", "envelope": n}
    if plan["do"] == "take" and own_here:
        spy = own_here[0]
        rest = list(inside)
        rest.remove(spy)
        second = None
        if plan.get("capture"):
            second = next((c for c in rest if c in beliefs.enemies), None)
        else:
            target = beliefs.target()
            missing = ALL_DOCUMENTS - (
                beliefs.docs(target) if target is not None and target != n else set()
            )
            second = next((c for c in sorted(rest) if c in missing), None)
        return {"seat": seat, "type": "take", "envelope": n, "spy": spy, "second": second}
    if own_here and plan["do"] == "examine":
        target = beliefs.target()
        if target is not None and target != n:
            useful = sorted(set(inside) & (ALL_DOCUMENTS - beliefs.docs(target)))
            if useful:
                return {
                    "seat": seat,
                    "type": "take",
                    "envelope": n,
                    "spy": own_here[0],
                    "second": useful[0],
                }
    hazards = sorted(set(inside) & HAZARDS)
    if hazards and beliefs.known.options["hazards"]:
        return {"seat": seat, "type": "hazard", "envelope": n, "card": hazards[0]}
    return {"seat": seat, "type": "examine", "envelope": n}


def greedy_bot(game: Game, state: CloakState, seat: str, rng: Rng) -> Action:
    """Remembers what it saw and gathers the documents around one of its spies.

    It picks a target envelope (the most documents it believes are together),
    places cards while documents are missing, walks a spy to a missing document and
    carries it to the target, and clears enemy spies out of a complete target.
    """
    known = knowledge_of(state, state.seats.index(seat))
    beliefs = _Beliefs(known)
    if known.hand:
        return {"seat": seat, "type": "drop", "envelope": _plan_drop(beliefs, known.hand, rng)}
    n, plan = _plan_turn(beliefs, rng)
    return _act_inside(beliefs, seat, n, look_inside(state, n), plan, known.pile_size)


def greedy_inside(state: CloakState, seat: str, n: int, rng: Rng) -> Action:
    """What greedy does in envelope ``n`` once it is open (``n`` need not be the one it
    would have picked): its own plan when it is, else the plan the contents suggest —
    place into an empty envelope, take a spy of its own, otherwise examine (which still
    takes a useful document with a spy, or reveals a hazard)."""
    known = knowledge_of(state, state.seats.index(seat))
    beliefs = _Beliefs(known)
    planned, plan = _plan_turn(beliefs, rng)
    inside = look_inside(state, n)
    if planned != n:
        if not inside and known.pile_size:
            plan = {"do": "place"}
        elif set(inside) & beliefs.own:
            plan = {"do": "take"}
        else:
            plan = {"do": "examine"}
    return _act_inside(beliefs, seat, n, inside, plan, known.pile_size)


#: the search level's worlds per decision and how clearly a move must beat greedy's
#: (bench/search_vs_greedy.py, bench/README.md)
SEARCH_WORLDS = 8
SEARCH_THRESHOLD = 3.0


def make_search_level(
    worlds: int = SEARCH_WORLDS, threshold: float = SEARCH_THRESHOLD, max_plies: int = 400
) -> Any:
    """The ``search`` level: greedy, corrected where playouts show it clearly wrong.

    It plays a turn as at the table (CD-3). ``worlds`` complete states consistent with
    what the seat knows are carried on from its last turn
    (:class:`~engine.ai.cloak.particles.Particles`, kept per thread and seat; dealt
    afresh in another game). With cards in hand, every drop is played out in every
    world by greedy playouts with common random numbers
    (:func:`~engine.ai.search.paired_playouts`); with an empty hand, first every
    envelope, opened and played as greedy would play inside it (:func:`greedy_inside`),
    then, once the seat has looked inside the envelope picked, every action there, over
    worlds holding what it saw. Each time greedy's own choice is kept unless another
    beats it world by world with a paired t above ``threshold``
    (:func:`~engine.ai.search.keep_unless_beaten`). A position whose worlds cannot be
    dealt (``SamplingFailed``) is played as greedy plays it."""
    #: (thread, seat) -> the seat's worlds, carried from one of its turns to the next
    kept: dict[tuple[int, str], Particles] = {}

    def search_level(game: Game, state: CloakState, seat: str, rng: Rng) -> Action:
        own = greedy_bot(game, state, seat, rng.fork())
        seed = rng.next64()
        particles = kept.setdefault((threading.get_ident(), seat), Particles(seat))

        def dealt(opening: Action | None) -> list[CloakState]:
            return particles.worlds(
                state, opening, worlds, lambda purpose, i: Rng.derived(seed, purpose, i)
            )

        def compare(opening: Action | None, candidates: Any, reference: Any) -> Any:
            results = paired_playouts(
                game, dealt(opening), seat, candidates, seed, max_plies=max_plies
            )
            return keep_unless_beaten(results, reference, threshold)

        try:
            if state.hands[state.turn]:  # CD-3.1: a drop, into any envelope
                chosen = compare(
                    None,
                    lambda world: [(action_key(a), a) for a in legal.legal_actions(world, seat)],
                    action_key(own),
                )
                return next(
                    (a for a in legal.legal_actions(state, seat) if action_key(a) == chosen), own
                )
            n = compare(
                None,
                lambda world: [
                    (e, greedy_inside(world, seat, e, Rng(seed))) for e in ENVELOPE_NUMBERS
                ],
                own["envelope"],
            )
            # the seat opens envelope n and sees inside: only now its actions there
            inside = legal.envelope_actions(state, seat, n)
            reference = own if n == own["envelope"] else greedy_inside(state, seat, n, Rng(seed))
            if len(inside) == 1:
                return inside[0]
            opening = {"seat": seat, "type": "open", "envelope": n}
            chosen = compare(
                opening,
                lambda world: [(action_key(a), a) for a in legal.envelope_actions(world, seat, n)],
                action_key(reference),
            )
            return next((a for a in inside if action_key(a) == chosen), reference)
        except SamplingFailed:
            return own

    return search_level


search_level = make_search_level()

BOTS: dict[str, Any] = {"random": random_bot, "greedy": greedy_bot, "search": search_level}
