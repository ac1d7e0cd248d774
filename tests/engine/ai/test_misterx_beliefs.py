"""Belief sampling for Mister X (engine/ai/misterx/beliefs.py).

Every sample must show its viewer exactly what the real state shows it, keep every
ticket somewhere, and put Mister X on a path the public record allows (checked here
by a plain walk over the record, not by the sampler's own filter); over many samples
each consistent path must come up as often as its end city's location category says
(chi-square on a small position; equally often without categories); and a sample must
not depend on anything its viewer cannot know (counterfactual: every hidden fact
changed, the same samples for the same generator), whatever the category weights.
"""

from __future__ import annotations

import math

import pytest

from engine import play, replay
from engine.ai.misterx import beliefs as misterx_beliefs
from engine.ai.registry import ai_of
from engine.core.rng import Rng
from engine.games.misterx.knowledge import distances
from engine.games.misterx.state import HIDDEN_SLOTS, MRX, TEAM, rack_list
from tests.engine.misterx_helpers import GAME, Table
from tests.engine.test_misterx_rules import quiet_round
from tests.engine.test_misterx_views import _hide_differently

VIEWERS = (MRX, "det1", "det2", TEAM)


def consistent_with_record(st, path) -> bool:
    """Does ``path`` satisfy every public event of ``st`` (a plain reading of MX-3.10,
    MX-3.11, MX-6.2 and the events the rules write)?"""
    board, mission = st.board, st.board.missions[st.mission]
    if len(path) != len(st.path) or path[0] not in mission.starts:
        return False
    ends = len(path) - 1 if st.winner is None else len(path) - 2
    if any(path[s] in mission.destinations for s in range(ends + 1)):
        return False
    for event in st.events:
        kind, slot = event[0], event[1]
        if kind == "mx":
            _, _, transport, blocked, public = event
            near = (
                board.neighbours[path[slot - 1]]
                if transport is None
                else board.by_transport[path[slot - 1]].get(transport, ())
            )
            if path[slot] not in near or path[slot] in blocked or public not in (None, path[slot]):
                return False
        elif (
            kind == "not" and path[slot] in event[2] or kind == "reveal" and path[slot] != event[2]
        ):
            return False
    return True


def all_tickets(st) -> list[str]:
    tickets = [t for rack in st.racks.values() for t in rack_list(rack)]
    tickets += rack_list(st.bag) + rack_list(st.out)
    tickets += [st.slots[s][0] for s in range(1, min(st.last_slot, HIDDEN_SLOTS) + 1)]
    return sorted(tickets)


def skewed_weights() -> dict[tuple[int, int], int]:
    """A category table far from the shipped one: weights from 1 to 10^6, so a sampler
    that read a hidden fact through the categories would show it."""
    rng = Rng(99)
    return {
        (a, b): 10 ** rng.below(7)
        for a in range(1, misterx_beliefs.PAWN_CAP + 1)
        for b in range(1, misterx_beliefs.DEST_CAP + 1)
    }


@pytest.fixture(params=["shipped", "skewed"])
def category_weights(request, monkeypatch):
    if request.param == "skewed":
        monkeypatch.setattr(misterx_beliefs, "LOCATION_WEIGHTS", skewed_weights())
    assert misterx_beliefs.LOCATION_WEIGHTS  # categorised either way
    return request.param


@pytest.mark.parametrize("seed", [3, 8])
def test_every_sample_shows_the_viewer_what_it_saw_and_is_a_consistent_world(
    seed, category_weights
):
    log = play("mister-x", seed, ["greedy", "greedy", "random"])
    checked = 0
    for ply, _action, st in replay(log).states():
        if ply % 4 or GAME.is_over(st):
            continue
        total = all_tickets(st)
        for viewer in VIEWERS:
            beliefs = ai_of(GAME).beliefs(st, viewer)
            rng = Rng(ply)
            for _ in range(4):
                sample = beliefs.sample(rng)
                assert GAME.view(sample, viewer) == GAME.view(st, viewer)
                assert consistent_with_record(st, sample.path)
                assert all_tickets(sample) == total  # every ticket is somewhere, once
                if viewer == MRX:
                    assert sample.path == st.path  # he knows where he went
                checked += 1
    assert checked > 100


def test_a_sample_plays_on_with_its_own_chance():
    log = play("mister-x", 5, ["greedy", "greedy", "greedy"])
    st = replay(log).state_at(12)
    sample = ai_of(GAME).sample_state(st, "det1", Rng(1))
    assert sample.rng is not None and sample.rng._state != st.rng._state
    while not GAME.is_over(sample):  # a sample is a complete game state: it plays to the end
        seat, actions = ai_of(GAME).decision(sample)
        GAME.apply(sample, actions[0])


def brute_force_paths(st) -> set[tuple[int, ...]]:
    """Every path on the board consistent with the record, by trying all of them."""
    board = st.board
    starts = board.missions[st.mission].starts
    paths = set()
    for first in starts:
        frontier = [(first,)]
        for _slot in range(st.last_slot):
            frontier = [p + (c,) for p in frontier for c in board.neighbours[p[-1]]]
        paths |= {p for p in frontier if consistent_with_record(st, list(p))}
    return paths


def chi_square_critical(df: int, z: float = 3.09) -> float:
    """The chi-square value exceeded with probability ~0.001 (Wilson-Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def category_of_end(st, path) -> tuple[int, int]:
    """The location category of the path's last city, read straight from the record: the
    fewest moves from the cities he could not enter on his last move, and to a destination."""
    blocked = next(e[3] for e in reversed(st.events) if e[0] == "mx")
    dist = distances(st.board)
    from_pawns = min(dist[p][path[-1]] for p in blocked)
    to_dest = min(dist[path[-1]][d] for d in st.destinations)
    return min(from_pawns, misterx_beliefs.PAWN_CAP), min(to_dest, misterx_beliefs.DEST_CAP)


@pytest.mark.parametrize("weights", ["none", "shipped", "skewed"])
def test_each_consistent_path_appears_as_often_as_its_category_says(weights, monkeypatch):
    """Without categories every consistent path is equally likely; with them a path's
    chance is proportional to its end city's category weight (and two paths ending in the
    same city stay equally likely)."""
    table = {"none": {}, "shipped": misterx_beliefs.LOCATION_WEIGHTS, "skewed": skewed_weights()}[
        weights
    ]
    if weights == "skewed":  # not so skewed that a path is next to never drawn
        table = {key: 1 + w % 7 for key, w in table.items()}
    monkeypatch.setattr(misterx_beliefs, "LOCATION_WEIGHTS", table)
    t = Table()  # Mister X at 2 (green starts 1, 2); he steps 2 -> 3 -> 2 -> 3 by car
    for _ in range(3):
        quiet_round(t)
    st = t.state
    paths = brute_force_paths(st)
    assert len(paths) >= 8  # a real choice to sample from
    weight = {
        p: table.get(category_of_end(st, p), misterx_beliefs.NEUTRAL) if table else 1 for p in paths
    }
    if weights != "none":
        assert len(set(weight.values())) > 1  # the categories do tell these paths apart
    beliefs = ai_of(GAME).beliefs(st, "det1")
    rng = Rng(2024)
    draws = 400 * len(paths)
    counts = {p: 0 for p in paths}
    for _ in range(draws):
        path = tuple(beliefs.sample(rng).path)
        assert path in counts, f"sampled an inconsistent path {path}"
        counts[path] += 1
    total = sum(weight.values())
    expected = {p: draws * weight[p] / total for p in paths}
    chi2 = sum((counts[p] - expected[p]) ** 2 / expected[p] for p in paths)
    assert min(counts.values()) > 0
    assert chi2 < chi_square_critical(len(paths) - 1), (chi2, counts, expected)


def test_mister_x_rack_is_dealt_from_the_tickets_the_detectives_cannot_place():
    t = Table()
    quiet_round(t)
    st = t.state
    beliefs = ai_of(GAME).beliefs(st, "det1")
    rng = Rng(7)
    seen: dict[str, int] = {}
    for _ in range(300):
        for ticket in rack_list(beliefs.sample(rng).racks[MRX]):
            seen[ticket] = seen.get(ticket, 0) + 1
    hidden_pool = set(beliefs.unknown)
    assert set(seen) == hidden_pool  # every kind he could hold comes up, nothing else


def hidden_changed(st, viewer):
    """``st`` with everything ``viewer`` cannot know changed (the views' leak test's
    counterfactual; Mister X knows his own path and face-down tickets)."""
    other = _hide_differently(st, viewer)
    if viewer == MRX:
        other.path, other.slots = list(st.path), list(st.slots)
    return other


@pytest.mark.parametrize("viewer", VIEWERS)
def test_samples_do_not_depend_on_what_the_viewer_cannot_know(viewer, category_weights):
    log = play("mister-x", 12, ["greedy", "random", "greedy"])
    for ply, _action, st in replay(log).states():
        if ply % 6 or GAME.is_over(st):
            continue
        other = hidden_changed(st, viewer)
        for k in range(3):
            one = ai_of(GAME).sample_state(st, viewer, Rng(k))
            two = ai_of(GAME).sample_state(other, viewer, Rng(k))
            assert GAME.view(one, None) == GAME.view(two, None), (ply, viewer)
            assert one.rng._state == two.rng._state


def test_the_all_seeing_sample_is_the_state_itself():
    log = play("mister-x", 2, ["greedy", "greedy"])
    st = replay(log).state_at(20)
    assert GAME.view(ai_of(GAME).sample_state(st, None, Rng(0)), None) == GAME.view(st, None)


def test_path_counts_match_brute_force_for_the_heat_map():
    t = Table()
    for _ in range(2):
        quiet_round(t)
    st = t.state
    weights = ai_of(GAME).beliefs(st, TEAM).path_weights()
    by_end: dict[int, int] = {}
    for p in brute_force_paths(st):
        w = misterx_beliefs.LOCATION_WEIGHTS.get(category_of_end(st, p), misterx_beliefs.NEUTRAL)
        by_end[p[-1]] = by_end.get(p[-1], 0) + w
    assert weights == by_end
