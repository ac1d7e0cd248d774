"""Belief sampling for Cloak & Dagger (engine/ai/cloak/sampling.py, particles.py).

* every sample is a whole game the seat cannot tell from the real one: replayed by the
  rules, the seat's observation of every turn is exactly the one it had, and so is its
  view; after an opening, the opened envelope holds what the seat sees there;
* the odds: on small games every history consistent with the seat's observations is
  enumerated by brute force (every envelope, every card, every second card for each hidden
  choice); the samples come out on exactly that set, with the odds the module states
  (chi-square);
* counterfactual twins: games the seat observes identically (its unannounced envelopes
  renumbered; or a sample itself, a different world with the same observations) give the
  same samples from the same generator.

The worlds analysis carries from ply to ply (``Particles``) are held to the same: every
one replays what the seat observed (after an opening too), twins carry the same worlds,
and on the small games every consistent history comes up and no other (their odds are
not the stated ones: a choice is weighed with what the seat knew when it was dealt).
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import pytest

from engine import get_game, play, replay
from engine.ai.cloak.particles import FRESH, Particles
from engine.ai.cloak.sampling import Beliefs, _key
from engine.ai.registry import ai_of
from engine.core.errors import IllegalAction
from engine.core.rng import Rng
from engine.games.cloak import rules
from engine.games.cloak.knowledge import observation
from engine.games.cloak.state import ENVELOPES, CloakState, deck
from tests.engine.cloak_helpers import cloak_log
from tests.engine.test_cloak_knowledge import known_numbers, renumbered

GAME = get_game("cloak-and-dagger")

GAMES = [
    play(GAME.id, 0, ["greedy", "greedy"]),
    play(
        GAME.id, 1, ["greedy", "random", "greedy"], options={"hazards": True, "double_agents": True}
    ),
    play(GAME.id, 2, ["greedy"] * 4),
    play(GAME.id, 3, ["greedy", "greedy", "random", "greedy"], options={"document_copies": 3}),
]


def seen_by(state: CloakState, seat: str) -> list[dict[str, Any]]:
    i = state.seats.index(seat)
    return [
        observation(entry, turn + 1, i, state.seats) for turn, entry in enumerate(state.history)
    ]


def world_key(world: CloakState) -> tuple:
    return (
        tuple(tuple(sorted(e.action.items(), key=str)) for e in world.history),
        tuple(tuple(sorted(cards)) for cards in world.envelopes),
        tuple(tuple(sorted(hand)) for hand in world.hands),
        tuple(world.pile),
    )


def seats_every(log, every: int):
    """(ply, state, seat) for every seat at every ``every``-th ply of ``log`` still in play."""
    for ply, _action, st in replay(log).states():
        if ply % every == 0 and not GAME.is_over(st):
            for seat in st.seats:
                yield ply, st, seat


@pytest.mark.parametrize("log", GAMES, ids=["2p", "3p-hazards-agents", "4p", "4p-copies"])
def test_every_sample_replays_what_the_seat_observed(log):
    for ply, st, seat in seats_every(log, 4):
        beliefs = ai_of(GAME).beliefs(st, seat)
        rng = Rng(ply)
        for _ in range(2):
            world = beliefs.sample(rng)
            assert seen_by(world, seat) == seen_by(st, seat)
            assert GAME.view(world, seat) == GAME.view(st, seat)
            assert world.pile_unknown is None and world.pile_size == st.pile_size
            # every card once, somewhere
            everything = (
                [c for cards in world.envelopes for c in cards]
                + world.pile
                + [c for hand in world.hands for c in hand]
            )
            assert sorted(everything) == sorted(
                [c for cards in st.envelopes for c in cards]
                + st.pile
                + list(st.pile_unknown or ())
                + [c for hand in st.hands for c in hand]
            )
            # the world plays on under the rules
            seat_to_act = GAME.to_act(world)[0]
            GAME.apply(world, GAME.legal_actions(world, seat_to_act)[0])


def test_after_an_opening_the_samples_hold_what_the_seat_sees_there():
    r = replay(GAMES[2])
    for ply, _action, st in r.states():
        if ply % 6 or GAME.is_over(st) or st.hands[st.turn]:
            continue
        seat = GAME.to_act(st)[0]
        for n in (1, 7, 20):
            opening = {"seat": seat, "type": "open", "envelope": n}
            beliefs = ai_of(GAME).beliefs_after_opening(st, seat, opening)
            world = beliefs.sample(Rng(n))
            assert sorted(world.envelopes[n]) == sorted(st.envelopes[n])
            assert seen_by(world, seat) == seen_by(st, seat)


# --- the odds on small games -------------------------------------------------------------

SMALL = [
    # the other seat's drop (any envelope but those the seat sees empty or needs empty),
    # its placed card (Y or Z), its take of e with E (forced by where they are)
    [
        "p1 drop 1",
        "p2 drop 2",
        "p1 place 3 X",
        "p2 place 4 Y",
        "p1 examine 5",
        "p2 take 2 e+E",
        "p1 take 1 d",
    ],
    # the seat later sees E and e in 7, after a hidden second card: the first drop may be
    # anywhere (the take may have carried E from there), 7 is the likely one
    [
        "p1 drop 1",
        "p2 drop 2",
        "p1 place 3 X",
        "p2 take 2 e+E",
        "p1 examine 5",
        "p2 drop 7",
        "p1 examine 7",
    ],
]


def all_consistent_histories(st: CloakState, seat: str) -> list[tuple[dict[str, Any], ...]]:
    """Brute force: every way to fill in the other seat's hidden choices (every envelope,
    every card not drawn, every second card) whose replay the seat observes as it did."""
    me = st.seats.index(seat)
    target = seen_by(st, seat)
    found: list[tuple[dict[str, Any], ...]] = []

    def extend(world: CloakState, index: int, chosen: tuple[dict[str, Any], ...]) -> None:
        if index == len(target):
            found.append(chosen)
            return
        seen = target[index]
        candidates = [_key(seen)] if st.seats.index(seen["seat"]) == me else every_turn(world, seen)
        for action in candidates:
            trial = world.copy()
            try:
                rules.apply(trial, action)
            except IllegalAction:
                continue
            if observation(trial.history[-1], index + 1, me, st.seats) != seen:
                continue
            extend(trial, index + 1, (*chosen, action))

    extend(CloakState(st.options, st.seats, [], sorted(deck(st.options))), 0, ())
    return found


def every_turn(world: CloakState, seen: dict[str, Any]) -> list[dict[str, Any]]:
    seat, kind = seen["seat"], seen["type"]
    envelopes = range(1, ENVELOPES + 1)
    if kind in ("drop", "examine"):
        return [{"seat": seat, "type": kind, "envelope": n} for n in envelopes]
    if kind == "place":
        return [
            {"seat": seat, "type": kind, "envelope": seen["envelope"], "card": c}
            for c in sorted(set(world.pile_unknown or world.pile[:1]))
        ]
    if kind == "take":
        return [
            {"seat": seat, "type": kind, "envelope": n, "spy": seen["spy"], "second": s}
            for n in envelopes
            for s in [None, *sorted(set(world.envelopes[n]))]
        ]
    return [{"seat": seat, "type": kind, "envelope": n, "card": seen["card"]} for n in envelopes]


def stated_odds(beliefs: Beliefs, st: CloakState, seat: str, history) -> float:
    """The chance the sampler's deal takes this history (before its rejection): the
    product of each hidden choice's weight over the weights of the choices left open."""
    me = st.seats.index(seat)
    world = CloakState(st.options, st.seats, [], sorted(deck(st.options)))
    odds = 1.0
    for index, action in enumerate(history):
        if st.seats.index(action["seat"]) != me:
            turns = beliefs.turns(world, index, beliefs.seen[index])
            weights = {tuple(sorted(a.items(), key=str)): w for a, w in turns}
            key = tuple(sorted(action.items(), key=str))
            assert key in weights, ("a consistent history ruled out", index, action)
            odds *= weights[key] / sum(weights.values())
        rules.apply(world, action)
    return odds


@pytest.mark.parametrize("actions", SMALL, ids=["drop-place-take", "likely-drop"])
def test_every_consistent_history_comes_up_with_the_stated_odds(actions):
    st = replay(cloak_log(actions)).final_state
    beliefs = ai_of(GAME).beliefs(st, "p1")
    histories = all_consistent_histories(st, "p1")
    assert len(histories) > 5
    key = lambda h: tuple(tuple(sorted(a.items(), key=str)) for a in h)  # noqa: E731
    odds = {key(h): stated_odds(beliefs, st, "p1", h) for h in histories}
    total = sum(odds.values())
    draws = 40 * len(odds)
    rng = Rng(7)
    counts = Counter(key([e.action for e in beliefs.sample(rng).history]) for _ in range(draws))
    assert set(counts) <= set(odds)  # nothing inconsistent ...
    expected = {h: draws * p / total for h, p in odds.items()}
    # ... and every consistent history with a fair chance of coming up does
    assert {h for h, e in expected.items() if e >= 5} <= set(counts)
    chi2 = sum((counts[h] - e) ** 2 / e for h, e in expected.items())
    df = len(expected) - 1
    critical = df * (1 - 2 / (9 * df) + 3.09 * math.sqrt(2 / (9 * df))) ** 3  # p ~ 0.001
    assert chi2 < critical, (chi2, critical)


# --- counterfactual twins -------------------------------------------------------------------


@pytest.mark.parametrize("log", GAMES, ids=["2p", "3p-hazards-agents", "4p", "4p-copies"])
def test_samples_do_not_depend_on_what_the_seat_cannot_know(log):
    r = replay(log)
    for seat in r.seats:
        twin_log, _mapping = renumbered(log, known_numbers(r, seat), log["seed"] or 0)
        twin = replay(twin_log)
        for (ply, _a, st), (_p, _b, other) in zip(r.states(), twin.states(), strict=True):
            if ply % 7:
                continue
            assert seen_by(st, seat) == seen_by(other, seat)
            one = ai_of(GAME).beliefs(st, seat).sample(Rng(ply))
            two = ai_of(GAME).beliefs(other, seat).sample(Rng(ply))
            assert world_key(one) == world_key(two)


def test_a_sample_is_a_twin_and_samples_the_same():
    """A sample is itself a different world the seat observes the same: dealing from it
    gives the same samples as dealing from the real state, and the twins do differ."""
    differed = 0
    for ply, st, seat in seats_every(GAMES[2], 9):
        twin = ai_of(GAME).beliefs(st, seat).sample(Rng(1000 + ply))
        differed += world_key(twin) != world_key(st)
        for draw in range(2):
            one = ai_of(GAME).beliefs(st, seat).sample(Rng(draw))
            two = ai_of(GAME).beliefs(twin, seat).sample(Rng(draw))
            assert world_key(one) == world_key(two)
    assert differed > 10


def test_the_all_seeing_sample_is_the_real_state():
    st = replay(GAMES[0]).state_at(20)
    world = ai_of(GAME).beliefs(st, None).sample(Rng(1))
    assert world_key(world) == world_key(st)


@pytest.mark.parametrize("fallback", ["backtracking", "repaired"])
def test_the_fallbacks_still_replay_what_the_seat_observed(monkeypatch, fallback):
    """With the exact deal skipped (and the backtracking one, for repair), each fallback's
    samples are still whole games the seat observes exactly as it did."""
    from engine.ai.cloak import sampling

    monkeypatch.setattr(sampling, "EXACT_DEALS", 0)
    if fallback == "repaired":
        monkeypatch.setattr(sampling, "MAX_ATTEMPTS", 0)
    ways = Counter()
    for log in GAMES[1:3]:
        for ply, st, seat in seats_every(log, 9):
            beliefs = ai_of(GAME).beliefs(st, seat)
            world = beliefs.sample(Rng(ply))
            ways[beliefs.last] += 1
            assert seen_by(world, seat) == seen_by(st, seat)
            assert GAME.view(world, seat) == GAME.view(st, seat)
            assert world.pile_size == st.pile_size
    # backtracking gives way to repair where it runs out of deals
    assert ways[fallback] > 10 and set(ways) <= {"backtracking", "repaired"}


# --- worlds carried from ply to ply (analysis) ------------------------------------------------


def generators(seed: int, ply: int):
    def rng(purpose: str, i: int) -> Rng:
        return Rng.derived(seed, ply, purpose, i)

    return rng


def carried_worlds(r, seat: str, count: int = 4, seed: int = 0, plies: int = 80):
    """(ply, state, worlds) along the game as analysis asks for them: the seat's worlds at
    every ply, and before its own turns with an empty hand, those of the envelope it opened."""
    particles = Particles(seat)
    for ply, _action, st in r.states():
        if GAME.is_over(st) or ply > plies:
            return
        yield ply, st, None, particles.worlds(st, None, count, generators(seed, ply))
        following = r.actions[ply] if ply < len(r.actions) else None
        if following is not None and following["seat"] == seat and following["type"] != "drop":
            opening = GAME.opening_of(following)
            yield (
                ply,
                st,
                opening,
                particles.worlds(st, opening, count, generators(seed, ply + 1000)),
            )


@pytest.mark.parametrize("log", GAMES[1:3], ids=["3p-hazards-agents", "4p"])
def test_carried_worlds_replay_what_the_seat_observed(log):
    r = replay(log)
    ways = Counter()
    for seat in r.seats:
        particles_seen = 0
        for _ply, st, opening, worlds in carried_worlds(r, seat):
            assert len(worlds) == 4
            for world in worlds:
                assert seen_by(world, seat) == seen_by(st, seat)
                assert world.pile_unknown is None and world.pile_size == st.pile_size
                if opening is not None:
                    n = opening["envelope"]
                    assert sorted(world.envelopes[n]) == sorted(st.envelopes[n])
                particles_seen += 1
        assert particles_seen > 40
    # most worlds are carried on, not dealt again
    for seat in r.seats:
        particles = Particles(seat)
        for ply, _a, st in r.states():
            if not GAME.is_over(st) and ply <= 80:
                particles.worlds(st, None, 4, generators(1, ply))
                ways.update(particles.ways)
    assert ways["carried"] > 2 * sum(n for way, n in ways.items() if way != "carried")


def test_a_carried_world_keeps_the_lineage_of_the_world_dealt_from_scratch_it_descends_from():
    """Analysis clusters its estimates by lineage (engine.ai.evidence.clustered): a first
    deal makes FRESH lineages and the other worlds follow them; carried on, a world keeps
    its lineage or takes the survivor's it stands in for; new lineages come only with a
    fresh deal, when no world survived."""
    r = replay(GAMES[2])
    checked = 0
    for seat in r.seats:
        particles = Particles(seat)
        before: list[int] | None = None
        for ply, _a, st in r.states():
            if GAME.is_over(st) or ply > 80:
                break
            particles.worlds(st, None, 12, generators(2, ply))
            lineage = list(particles.lineage)
            assert len(lineage) == 12
            if before is None:
                assert sorted(set(lineage)) == list(range(FRESH))
            elif any(way.startswith("fresh") for way in particles.ways):
                assert len(set(lineage)) <= FRESH and not set(lineage) & set(before)
            else:
                assert set(lineage) <= set(before)
                if particles.ways["carried"] == 12:
                    assert lineage == before
                checked += 1
            before = lineage
    assert checked > 100


def test_twins_carry_the_same_worlds():
    log = GAMES[2]
    r = replay(log)
    for seat in r.seats:
        twin = replay(renumbered(log, known_numbers(r, seat), 3)[0])
        one, two = carried_worlds(r, seat), carried_worlds(twin, seat)
        for (ply, st, _o, a), (_p, other, _q, b) in zip(one, two, strict=True):
            assert [world_key(w) for w in a] == [world_key(w) for w in b], (seat, ply)
            assert seen_by(st, seat) == seen_by(other, seat)


@pytest.mark.parametrize("actions", SMALL, ids=["drop-place-take", "likely-drop"])
def test_carried_worlds_come_up_on_every_consistent_history(actions):
    r = replay(cloak_log(actions))
    st = r.final_state
    key = lambda h: tuple(tuple(sorted(a.items(), key=str)) for a in h)  # noqa: E731
    histories = {key(h) for h in all_consistent_histories(st, "p1")}
    counts: Counter = Counter()
    for chain in range(12 * len(histories)):
        particles = Particles("p1")
        for ply, _a, state in r.states():
            worlds = particles.worlds(state, None, 4, generators(chain, ply))
        counts.update(key([e.action for e in w.history]) for w in worlds)
    assert set(counts) == histories


def test_carried_worlds_without_redeals_still_replay_what_the_seat_observed(monkeypatch):
    """Every world contradicted is replaced by a survivor copied as it is (or, when none
    survives, dealt afresh): still worlds the seat observes exactly as it did."""
    from engine.ai.cloak import particles

    monkeypatch.setattr(particles, "REDEALS", 0)
    monkeypatch.setattr(particles, "SURVIVOR_REDEALS", 0)
    r = replay(GAMES[2])
    ways = Counter()
    for seat in r.seats:
        for _ply, st, _opening, worlds in carried_worlds(r, seat, count=3, seed=5):
            for world in worlds:
                assert seen_by(world, seat) == seen_by(st, seat)
        particles = Particles(seat)
        for ply, _a, st in r.states():
            if not GAME.is_over(st):
                particles.worlds(st, None, 3, generators(5, ply))
                ways.update(particles.ways)
    assert ways["survivor copied"] > 5 and not ways["dealt again"]
