"""Mister X: complete states drawn from what one viewer knows (belief sampling).

A search decides for one seat by playing out many complete states, each one a
world that seat cannot tell from the real one. :class:`Beliefs` is built once per
decision from the state and the viewer, reading only what that viewer may know
(the fields its view shows, and the public record), and :meth:`Beliefs.sample`
then deals any number of such worlds:

* **Mister X's path** (for the detectives): every checklist city at a hidden slot,
  drawn among the paths consistent with the public record — the transports of
  face-up tickets, the cities he could not enter, those found empty, revealed
  cities, his start among the mission's, no destination while the game goes on
  (the constraints of :mod:`.knowledge`). Paths are counted slot by slot forward
  over the cities still possible; his city now is drawn in proportion to the
  paths ending there times the weight of its *location category* (below), and
  the path back to it in proportion to the counts (forward filtering, backward
  sampling): among the paths ending in one city, each is equally likely.
* **Location categorisation** (Nijssen & Winands, "Monte Carlo Tree Search for
  the Hide-and-Seek Game Scotland Yard", 2012): Mister X does not wander at
  random — he keeps away from the pawns and heads for his destinations — so a
  possible city is weighed by its category: the fewest moves from it to the
  cities the pawns stood on when he last moved (1..4+; public: the cities he
  could not enter) and to his mission's nearest destination (1..5+). The weight
  of a category is how much more often Mister X was really there than the path
  counts alone would say, measured over played games by
  ``bench/misterx_locations.py`` and shipped in ``location_weights.json``
  (integers, 1000 = no change). Before his first move every city weighs the same.
* **Tickets the viewer cannot place**: the 120 tickets less those it sees (its own
  rack or racks, the tickets out of the game, the tickets on the ticket board it
  knows) are dealt at random into the racks it does not see (their sizes are
  public), Mister X's face-down tickets (for the detectives) and the bag.
* **The future**: the sample carries a new generator drawn from the caller's, so
  its refills are unknown too.

Not used (as in :mod:`.knowledge`, documented over-approximations): a pawn that
stays, or a Mister X who passes, shows its seat held no ticket that moves it; that
is not held against the racks dealt.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from engine.ai.beliefs import entropy, measure
from engine.core.rng import Rng
from engine.games.misterx.knowledge import Possible, board_masks, distances
from engine.games.misterx.state import (
    HIDDEN_SLOTS,
    MRX,
    TEAM,
    MisterXState,
    Rack,
    rack_list,
    remove_all,
)

#: the categories' caps: moves from the pawns (1..PAWN_CAP) and to a destination (1..DEST_CAP)
PAWN_CAP, DEST_CAP = 4, 5
#: the weight of a category with no measured weight (and of every city before his first move)
NEUTRAL = 1000
LOCATION_WEIGHTS_FILE = Path(__file__).with_name("location_weights.json")
_FAR = 99


def load_location_weights(path: Path = LOCATION_WEIGHTS_FILE) -> dict[tuple[int, int], int]:
    """``(moves from the pawns, moves to a destination)`` -> integer weight."""
    data = json.loads(path.read_text())
    return {
        (int(key.split(",")[0]), int(key.split(",")[1])): max(1, int(w))
        for key, w in data["weights"].items()
    }


#: the weights the detectives' samples use (an empty table: every path equally likely)
LOCATION_WEIGHTS: dict[tuple[int, int], int] = load_location_weights()


def location_category(
    dist: Mapping[int, Mapping[int, int]],
    city: int,
    pawns: Iterable[int],
    destinations: Iterable[int],
) -> tuple[int, int]:
    """The category of ``city``: (fewest moves from one of ``pawns``, capped at PAWN_CAP;
    fewest moves to one of ``destinations``, capped at DEST_CAP)."""
    from_pawns = min((dist[p].get(city, _FAR) for p in pawns), default=_FAR)
    to_dest = min((dist[city].get(d, _FAR) for d in destinations), default=_FAR)
    return min(from_pawns, PAWN_CAP), min(to_dest, DEST_CAP)


def pawns_at_last_move(events: list[tuple[Any, ...]]) -> frozenset[int] | None:
    """The cities the pawns stood on when Mister X last moved (public: the cities he could
    not enter, MX-6.2), or None before his first move."""
    for event in reversed(events):
        if event[0] == "mx":
            return frozenset(event[3])
    return None


def sees_rack(viewer: str | None, seat: str | None) -> bool:
    """Does ``viewer`` see ``seat``'s rack (MX-5)?"""
    if viewer is None or viewer == seat:
        return True
    return viewer == TEAM and seat != MRX


def below(rng: Rng, n: int) -> int:
    """A uniform integer in ``[0, n)`` for any positive ``n`` (path counts outgrow 64 bits)."""
    if n <= 1 << 63:
        return rng.below(n)
    words = (n.bit_length() + 63) // 64
    span = 1 << (64 * words)
    limit = span - span % n
    while True:
        x = 0
        for _ in range(words):
            x = (x << 64) | rng.next64()
        if x < limit:
            return x % n


def _weighted(rng: Rng, options: list[tuple[int, int]]) -> int:
    """One ``city`` of ``[(city, weight), ...]``, in proportion to its weight."""
    total = sum(w for _, w in options)
    index = below(rng, total)
    for city, w in options:
        if index < w:
            return city
        index -= w
    raise AssertionError("weights changed under the draw")


def _at_quantile(options: list[tuple[int, int]], quantile: float) -> int:
    """The ``city`` of ``[(city, weight), ...]`` at ``quantile`` (0-1) of the cumulated weights."""
    total = sum(w for _, w in options)
    index = min(total - 1, int(quantile * total))
    for city, w in options:
        if index < w:
            return city
        index -= w
    raise AssertionError("weights changed under the draw")


class Beliefs:
    """What ``viewer`` knows of ``state``, ready to deal complete states from."""

    #: :meth:`sample` takes a quantile: the analysis deals its worlds stratified
    stratified = True

    def __init__(self, state: MisterXState, viewer: str | None):
        self.state = state
        self.viewer = viewer
        self.knows_path = viewer is None or viewer == MRX
        self.hidden_racks = [s for s in state.seats() if not sees_rack(viewer, s)]
        last = state.last_slot
        # face-down tickets on the ticket board the viewer cannot read (slots 1..24)
        self.hidden_slots = (
            []
            if self.knows_path
            else [slot for slot in range(1, min(last, HIDDEN_SLOTS) + 1) if not state.slot(slot)[1]]
        )
        self.unknown = self._unknown_tickets()
        self.counts = None if self.knows_path else self._path_counts()
        #: Mister X's city now -> the weight it is drawn by (paths ending there x category)
        self.weights = None if self.counts is None else self._location_weights(self.counts[-1])

    # -- tickets --------------------------------------------------------------------
    def _unknown_tickets(self) -> list[str]:
        """Every ticket the viewer cannot place, as a sorted list: the board's tickets
        less the racks it sees, the tickets out of the game and the ticket board's
        tickets it can read (those stay there: MX-3.11)."""
        state = self.state
        pool: Rack = {t: n for t, n in state.board.tickets.items() if n}
        for seat in state.seats():
            if seat not in self.hidden_racks:
                remove_all(pool, state.racks[seat])
        remove_all(pool, state.out)
        hidden = set(self.hidden_slots)
        for slot in range(1, min(state.last_slot, HIDDEN_SLOTS) + 1):
            if slot not in hidden:
                remove_all(pool, {state.slot(slot)[0]: 1})
        return rack_list(pool)

    # -- Mister X's path ------------------------------------------------------------
    def _path_counts(self) -> list[dict[int, int]]:
        """``counts[slot][city]``: how many paths consistent with the public record up to
        ``slot`` end in ``city`` (cities outside the forward-filtered set left out)."""
        state = self.state
        mission = state.board.missions[state.mission]
        tracker = Possible(state.board, mission.starts, mission.destinations)
        tracker.feed(state.events)
        masks = board_masks(state.board)
        last = state.last_slot
        allowed = list(tracker.allowed)
        if state.winner is None:  # the game goes on: he is on no destination now
            allowed[last] &= tracker.not_dest
        by_transport, neighbours = state.board.by_transport, state.board.neighbours
        counts: list[dict[int, int]] = [{c: 1 for c in masks.cities_of(allowed[0])}]
        for slot in range(1, last + 1):
            transport = tracker.transports[slot]
            prev = counts[-1]
            here: dict[int, int] = {}
            reach = masks.step(masks.mask(prev), transport) & allowed[slot]
            for city in masks.cities_of(reach):
                near = (
                    neighbours[city] if transport is None else by_transport[city].get(transport, ())
                )
                n = sum(prev.get(p, 0) for p in near)
                if n:
                    here[city] = n
            counts.append(here)
        self.transports = tracker.transports
        return counts

    def _location_weights(self, counts: dict[int, int]) -> dict[int, int]:
        state = self.state
        pawns = pawns_at_last_move(state.events)
        if pawns is None or not LOCATION_WEIGHTS:
            return dict(counts)
        dist = distances(state.board)
        return {
            city: n
            * LOCATION_WEIGHTS.get(
                location_category(dist, city, pawns, state.destinations), NEUTRAL
            )
            for city, n in counts.items()
        }

    def path_weights(self) -> dict[int, int]:
        """Mister X's city now -> the weight the samples draw it by (for a heat map): the
        consistent paths ending there times its location category's weight."""
        if self.weights is None:
            return {self.state.path[-1]: 1}
        return dict(self.weights)

    def _sample_path(self, rng: Rng, quantile: float | None = None) -> list[int]:
        state = self.state
        counts = self.counts
        assert counts is not None
        board = state.board
        last = state.last_slot
        path = [0] * (last + 1)
        assert self.weights is not None
        options = sorted(self.weights.items())
        city = _weighted(rng, options) if quantile is None else _at_quantile(options, quantile)
        path[last] = city
        for slot in range(last, 0, -1):
            transport = self.transports[slot]
            near = (
                board.neighbours[city]
                if transport is None
                else board.by_transport[city].get(transport, ())
            )
            prev = counts[slot - 1]
            city = _weighted(rng, [(p, prev[p]) for p in near if p in prev])
            path[slot - 1] = city
        return path

    # -- sampling -------------------------------------------------------------------
    def sample(self, rng: Rng, quantile: float | None = None) -> MisterXState:
        """One complete state consistent with everything the viewer knows. ``quantile``
        (0-1, analysis): Mister X's city now is the one at that point of the cumulated
        weights instead of drawn, so that ``n`` worlds at ``(i + u) / n`` hold each city
        in proportion to its weight, give or take one (stratified: the analysis's
        chances then vary less from one set of worlds to another)."""
        st = self.state
        new = st.clone()
        new.rng = Rng(rng.next64())
        if self.viewer is None:
            return new
        if self.counts is not None:
            new.path = self._sample_path(rng, quantile)
        tickets = list(self.unknown)
        rng.shuffle(tickets)
        for slot in self.hidden_slots:
            new.slots[slot] = (tickets.pop(), False)
        for seat in self.hidden_racks:
            size = sum(st.racks[seat].values())
            rack: Rack = {}
            for t in tickets[len(tickets) - size :]:
                rack[t] = rack.get(t, 0) + 1
            del tickets[len(tickets) - size :]
            new.racks[seat] = rack
        bag: Rack = {}
        for t in tickets:
            bag[t] = bag.get(t, 0) + 1
        new.bag = bag
        return new


def summary(state: MisterXState, viewer: str | None) -> list[dict[str, Any]]:
    """The detectives' belief about Mister X's city now (:meth:`GameAI.belief_summary`):
    each city still possible, with its share of the weights the detectives' samples draw
    by (the paths consistent with the public record that end there, times the city's
    location category's weight). Made of public
    facts only, so every perspective may see it (Mister X's: where the detectives can
    place him)."""
    weights = Beliefs(state, TEAM).path_weights()
    total = sum(weights.values())
    cities = sorted(
        ((city, n / total) for city, n in weights.items()), key=lambda item: (-item[1], item[0])
    )
    return [
        {
            "holder": TEAM,
            "kind": "position",
            "about": MRX,
            "cities": [[city, round(p, 4)] for city, p in cities],
            "measure": measure(len(cities), "cities", entropy(weights.values())),
        }
    ]
