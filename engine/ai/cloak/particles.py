"""Cloak & Dagger: one seat's worlds carried from ply to ply (analysis).

**Lantern reading** (worlds carried): analysis needs a seat's worlds after every ply,
and dealing each one as a whole history (tens of deals until one is not contradicted,
at four players; :mod:`engine.ai.cloak.sampling`) cost more than the rest of the
analysis together. So a seat's worlds are dealt once and carried on: at the next ply
each world gets the turns played since, dealt as :meth:`Beliefs.deal` deals them (its
hidden choices drawn among those the look ahead leaves open) and kept if the seat
observes them as it did — a particle filter whose particles are whole histories. A
world the new turns contradict (mostly: the seat opens an envelope and the world holds
something else there) is dealt again from the seat's own last turn before them
(``REDEALS`` tries); failing that, it is replaced by another surviving world dealt again
from that survivor's last turn before them (or copied); only when no world survives are
``FRESH`` dealt afresh and the rest follow them. Each carried world is still a history
the seat observes exactly as it did, and every consistent history can come up (tested);
the odds are not those of a fresh deal (:mod:`engine.ai.cloak.sampling`'s reading): a
choice was weighed with what the seat knew when it was dealt (a card it sees only later
does not pull the choice towards where it sees it), survivors are over-represented after
a contradiction, and the worlds of successive plies are not independent (which makes a
seat's chances from ply to ply steadier). ``bench/README.md`` says how many are carried.

Nor are the worlds of one call independent of each other: a world that stands in for a
lost one is a survivor's, and a fresh deal makes only ``FRESH`` worlds from scratch. So
each world carries its **lineage** (:attr:`Particles.lineage`): the world dealt from
scratch it descends from (carried, dealt again from its own history, or copied from a
survivor). Worlds of one lineage share their history up to some turn and their playouts
are correlated; worlds of different lineages were dealt apart. An estimate over the
worlds clusters its samples by lineage (:func:`engine.ai.evidence.clustered`).

Like :class:`~engine.ai.cloak.sampling.Beliefs`, which deals the turns, nothing here
reads the real state beyond the seat's own observations (plus, when the seat has just
opened an envelope, what it sees there).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from engine.ai.cloak.sampling import Beliefs, Contradiction
from engine.core.errors import IllegalAction
from engine.core.rng import Rng
from engine.games.cloak import rules
from engine.games.cloak.knowledge import Observation
from engine.games.cloak.state import CloakState

#: a world contradicted by the turns since: deals of the turns since the seat's own last
#: turn before them, from its own history, before it gives way to a survivor's
REDEALS = 10
#: deals from a survivor's own last turn on, before the survivor is copied as it is
SURVIVOR_REDEALS = 3
#: when no world survives, the ones dealt afresh (the rest follow them as survivors)
FRESH = 4

#: ``rng(purpose, i)``: the generator of world ``i`` for one step of carrying the worlds on
WorldRng = Callable[[str, int], Rng]


class Particles:
    """``viewer``'s worlds carried from one point of a game to a later one (analysis).

    :meth:`worlds` gives ``count`` complete states consistent with what the viewer knows
    of a state. Called again on a later state of the same game (the viewer's observations
    then extend those the worlds were dealt for), it carries each world on instead of
    dealing a whole history again (see the module's docstring): the turns since are
    dealt into it as :meth:`Beliefs.deal` deals them;
    a world they contradict is dealt again from the viewer's own last turn before them
    (``REDEALS`` tries), else replaced by a surviving world dealt again from that
    survivor's last turn (``SURVIVOR_REDEALS`` tries, else copied); only when no world
    survives are ``FRESH`` dealt afresh, the others following them as survivors. On any
    other state (another game, an earlier point, a different opening) they are dealt
    afresh, as :meth:`Beliefs.sample` deals. Like :class:`Beliefs`, it reads nothing but
    the viewer's observations (and, after an opening, what it sees there)."""

    def __init__(self, viewer: str):
        self.viewer = viewer
        #: the observations and the opened envelope the kept worlds were dealt for
        self.seen: list[Observation] | None = None
        self.opened: int | None = None
        #: the kept worlds, their piles' cards not drawn yet left unordered (Beliefs.deal)
        self.kept: list[CloakState] = []
        #: how the last call got its worlds (bench/analysis.py reports them)
        self.ways: Counter[str] = Counter()
        #: per kept world (and so per world the last call returned), the number of the
        #: world dealt from scratch it descends from (see the module's docstring)
        self.lineage: list[int] = []
        self._lineages = 0

    def worlds(
        self, state: CloakState, opening: dict[str, Any] | None, count: int, rng: WorldRng
    ) -> list[CloakState]:
        """``count`` complete states consistent with what the viewer knows of ``state``
        (having opened the envelope of ``opening``, when given), each the caller's to
        change. ``rng(purpose, i)``: the generator of world ``i`` for each step."""
        opened = None if opening is None else opening["envelope"]
        beliefs = Beliefs(state, self.viewer, opened)
        self.ways = Counter()
        if beliefs.seen == self.seen and opened == self.opened and len(self.kept) == count:
            kept, lineage = self.kept, self.lineage
        elif self._carries(beliefs, opened) and len(self.kept) == count:
            kept, lineage = self._carry(beliefs, rng)
        else:
            kept, lineage = self._deal(beliefs, rng, list(range(count)), [None] * count, [])
        self.seen, self.opened, self.kept, self.lineage = beliefs.seen, opened, kept, lineage
        return [Beliefs.finish(world.copy(), rng("finish", i)) for i, world in enumerate(kept)]

    def _carries(self, beliefs: Beliefs, opened: int | None) -> bool:
        """Can the kept worlds be carried on to ``beliefs``: the viewer's observations then
        extend theirs, and an envelope opened then is the one the next turn was played in
        (its own; worlds holding what it saw there are then no other law than the rest)?"""
        seen = self.seen
        if seen is None or len(beliefs.seen) < len(seen) or beliefs.seen[: len(seen)] != seen:
            return False
        if len(beliefs.seen) == len(seen):
            return self.opened is None and opened is not None
        return (
            self.opened is None
            or beliefs.seen[len(seen)].get("envelope") == self.opened
            and beliefs.seen[len(seen)]["seat"] == self.viewer
        )

    def _carry(self, beliefs: Beliefs, rng: WorldRng) -> tuple[list[CloakState], list[int]]:
        assert self.seen is not None
        start = len(self.seen)
        carried: list[CloakState | None] = []
        for i, world in enumerate(self.kept):
            try:
                carried.append(
                    beliefs.opened_fits(beliefs.deal_turns(rng("carry", i), start, world.copy()))
                )
                self.ways["carried"] += 1
                continue
            except (Contradiction, IllegalAction):
                pass
            again = _redeal(beliefs, world, start, rng("redeal", i), REDEALS)
            self.ways["dealt again" if again is not None else "lost"] += 1
            carried.append(again)
        lost = [i for i, world in enumerate(carried) if world is None]
        return self._deal(beliefs, rng, lost, carried, list(self.lineage), start)

    def _deal(
        self,
        beliefs: Beliefs,
        rng: WorldRng,
        lost: list[int],
        worlds: list[CloakState | None],
        lineage: list[int],
        start: int | None = None,
    ) -> tuple[list[CloakState], list[int]]:
        """``worlds`` with those at ``lost`` replaced: by survivors dealt again, or afresh;
        with each world's lineage (``lineage``: the kept worlds', empty on a first deal)."""
        lineage = lineage or [0] * len(worlds)
        if all(world is None for world in worlds):
            for i in lost[:FRESH]:
                worlds[i] = beliefs.deal(rng("fresh", i))
                lineage[i], self._lineages = self._lineages, self._lineages + 1
                self.ways[f"fresh ({beliefs.last})"] += 1
            lost = lost[FRESH:]
        survivors = [i for i, world in enumerate(worlds) if world is not None]
        for i in lost:
            pick = rng("survivor", i)
            source = survivors[pick.below(len(survivors))]
            survivor = worlds[source]
            assert survivor is not None
            again = _redeal(
                beliefs, survivor, beliefs.end if start is None else start, pick, SURVIVOR_REDEALS
            )
            worlds[i], lineage[i] = (
                (again if again is not None else survivor.copy()),
                lineage[source],
            )
            self.ways["survivor dealt again" if again is not None else "survivor copied"] += 1
        kept = [i for i, world in enumerate(worlds) if world is not None]
        return [w for w in worlds if w is not None], [lineage[i] for i in kept]


def _redeal(
    beliefs: Beliefs, world: CloakState, before: int, rng: Rng, tries: int
) -> CloakState | None:
    """``world``'s history up to the viewer's own last turn before turn ``before`` (an
    index), the turns from there on dealt again as :meth:`Beliefs.deal` deals them
    (``tries`` times); None if none fits, or if the history does not replay (a repaired
    world's)."""
    me = beliefs.me
    start = max(
        (k for k, entry in enumerate(world.history[:before]) if entry.actor == me), default=0
    )
    base = beliefs.start_world()
    try:
        for entry in world.history[:start]:
            rules.apply(base, entry.action)
    except IllegalAction:
        return None
    for _ in range(tries):
        try:
            return beliefs.opened_fits(beliefs.deal_turns(rng, start, base.copy()))
        except (Contradiction, IllegalAction):
            continue
    return None
