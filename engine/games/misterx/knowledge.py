"""Where Mister X could be, given only what the detectives know.

The public record (``MisterXState.events``, written by the rules as the game goes)
gives, per checklist slot: the transport of a face-up ticket (or nothing, for a
secret move), the cities he could not enter (pawns stood there when he moved,
MX-6.2), cities he was *not* in (a pawn entered it without catching him; a
position check found no pawn on it, MX-3.10), cities he *was* in (reveals,
investigations, open play). Together with the mission's start cities and
"not on a destination while the game goes on", these are per-slot constraints
plus the moves between consecutive slots: a chain, so filtering forward slot by
slot gives exactly the set of cities consistent with everything public.

New information only ever concerns the last five slots (position checks look 5
back, investigations at most 4), so an update refilters from the earliest
touched slot: at most a handful of steps per round. Sets are bitmasks over the
board's cities; one step along a transport ORs precomputed neighbour masks one
byte of the set at a time.

Not used (an over-approximation, documented): a pass tells the detectives Mister
X held no usable ticket; the rack is unknown to them, so the inference is weak
and left out.
"""

from __future__ import annotations

from typing import Any

from engine.games.misterx.board import TRANSPORTS, Board

_ANY = "any"


class BoardMasks:
    """Bit per city (sorted by id) and byte-wise neighbour tables per transport."""

    def __init__(self, board: Board):
        self.cities = sorted(board.cities)
        self.bit = {c: 1 << i for i, c in enumerate(self.cities)}
        self.nbytes = (len(self.cities) + 7) // 8
        single: dict[str, list[int]] = {t: [] for t in (*TRANSPORTS, _ANY)}
        for c in self.cities:
            per = board.by_transport[c]
            for t in TRANSPORTS:
                single[t].append(self.mask(per.get(t, ())))
            single[_ANY].append(self.mask(board.neighbours[c]))
        # tables[t][k][v]: the union of neighbours of the cities of byte k's bits v
        self.tables: dict[str, list[list[int]]] = {}
        for t, singles in single.items():
            per_byte = []
            for k in range(self.nbytes):
                table = [0] * 256
                for v in range(1, 256):
                    low = v & -v
                    i = 8 * k + low.bit_length() - 1
                    table[v] = table[v ^ low] | (singles[i] if i < len(singles) else 0)
                per_byte.append(table)
            self.tables[t] = per_byte

    def mask(self, cities: Any) -> int:
        m = 0
        for c in cities:
            m |= self.bit[c]
        return m

    def cities_of(self, mask: int) -> list[int]:
        out = []
        while mask:
            low = mask & -mask
            out.append(self.cities[low.bit_length() - 1])
            mask ^= low
        return out

    def step(self, mask: int, transport: str | None) -> int:
        tables = self.tables[transport or _ANY]
        out = 0
        k = 0
        while mask:
            byte = mask & 255
            if byte:
                out |= tables[k][byte]
            mask >>= 8
            k += 1
        return out


_MASKS: dict[Board, BoardMasks] = {}


def board_masks(board: Board) -> BoardMasks:
    masks = _MASKS.get(board)
    if masks is None:
        masks = _MASKS[board] = BoardMasks(board)
    return masks


_DIST: dict[Board, dict[int, dict[int, int]]] = {}


def distances(board: Board) -> dict[int, dict[int, int]]:
    """All-pairs fewest moves (any transport), computed once per board."""
    table = _DIST.get(board)
    if table is None:
        table = _DIST[board] = {c: board.distances_from(c) for c in board.cities}
    return table


class Possible:
    """Incremental forward filter over Mister X's checklist slots."""

    def __init__(self, board: Board, starts: Any, destinations: Any):
        self.m = board_masks(board)
        self.not_dest = ~self.m.mask(destinations)
        self.transports: list[str | None] = [None]
        self.allowed: list[int] = [self.m.mask(starts)]  # per-slot constraints
        self.sets: list[int] = [self.allowed[0]]
        self.fed = 0
        self._dirty: int | None = None

    # -- events ---------------------------------------------------------------------
    def feed(self, events: list[tuple[Any, ...]]) -> None:
        """Take in the public events not seen yet (``events`` is the whole list so far)."""
        m = self.m
        for event in events[self.fed :]:
            kind, slot = event[0], event[1]
            if kind == "mx":
                _, slot, transport, blocked, public = event
                # the game went on past the previous slot: it was no destination
                self.allowed[slot - 1] &= self.not_dest
                self._touch(slot - 1)
                self.transports.append(transport)
                allowed = m.bit[public] if public is not None else ~m.mask(blocked)
                self.allowed.append(allowed)
                self.sets.append(0)
                self._touch(slot)
            elif kind == "not":
                self.allowed[slot] &= ~m.mask(event[2])
                self._touch(slot)
            elif kind == "reveal":
                self.allowed[slot] &= m.bit[event[2]]
                self._touch(slot)
        self.fed = len(events)

    def _touch(self, slot: int) -> None:
        if self._dirty is None or slot < self._dirty:
            self._dirty = slot

    def _refresh(self) -> None:
        start = self._dirty
        if start is None:
            return
        m, sets, allowed, transports = self.m, self.sets, self.allowed, self.transports
        for slot in range(start, len(sets)):
            prev = sets[slot - 1] if slot else allowed[0]
            sets[slot] = (m.step(prev, transports[slot]) & allowed[slot]) if slot else prev
        self._dirty = None

    # -- queries --------------------------------------------------------------------
    def mask_at(self, slot: int) -> int:
        self._refresh()
        return self.sets[slot]

    def current(self, game_over: bool = False) -> frozenset[int]:
        """Cities Mister X could be in now (while the game goes on: never a destination)."""
        self._refresh()
        mask = self.sets[-1] if game_over else self.sets[-1] & self.not_dest
        return frozenset(self.m.cities_of(mask))


def possible_positions(state: Any) -> frozenset[int]:
    """The set for ``state`` from its public record, kept up to date on the state."""
    tracker = state.possible_cache
    if tracker is None:
        mission = state.board.missions[state.mission]
        tracker = state.possible_cache = Possible(state.board, mission.starts, mission.destinations)
    tracker.feed(state.events)
    return tracker.current(game_over=state.winner is not None)
