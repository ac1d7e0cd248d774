"""The state of one game of Cryptid: Urban Legends, and the components it is made of.

Geometry (CUL-2.1, CUL-2.2), in the indices the log uses: a row of ``k`` blocks
has ``k + 1`` spaces numbered from the left. At the start of every round the
active row has one block fewer than the inactive row, and then

* active space ``i`` is diagonally adjacent to inactive spaces ``i`` and ``i + 1``;
* inactive block ``j`` touches inactive spaces ``j`` and ``j + 1``;
* active block ``i`` is diagonally adjacent to inactive blocks ``i`` and ``i + 1``.

(In half-block x coordinates with the inactive row's blocks at even x: inactive
block ``j`` at ``2j``, inactive space ``j`` at ``2j - 1``, active block ``i`` at
``2i + 1``, active space ``i`` at ``2i``.)

Piles of cards and blocks are kept as *sorted* lists: every draw is
``Rng.draw`` on the sorted pile (equivalent to a shuffle and deal, and
independent of the order cards were put back in), and a recorded draw is a
multiset checked against the pile.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from engine.core.rng import Rng

SEATS = ("cryptid", "scientist")
OTHER = {"cryptid": "scientist", "scientist": "cryptid"}
#: The sensor colours; a group of sensors is a list of counts in this order.
COLORS = ("red", "white", "black")
COLOR_INDEX = {c: i for i, c in enumerate(COLORS)}
SENSORS_TOTAL = (4, 3, 3)  # CUL-1.5
#: Movement cards, in the order of a sorted pile.
CARDS = ("align", "shuffle", "split")
#: (a tuple, not a set: ``x in EFFECTS`` must not fail on an unhashable value from a log)
EFFECTS = CARDS
NORMAL_BLOCKS = tuple(f"N{i}" for i in range(1, 13))  # CUL-1.4
MYSTERIOUS_BLOCKS = tuple(f"M{i}" for i in range(1, 6))
#: The block deck's sorted order (the order ``Rng.draw`` indexes into).
BLOCK_ORDER = NORMAL_BLOCKS + MYSTERIOUS_BLOCKS
BLOCK_RANK = {b: i for i, b in enumerate(BLOCK_ORDER)}
MYSTERIOUS = frozenset(MYSTERIOUS_BLOCKS)
#: Normal blocks put on top of the block deck (CUL-2.3 step 3).
GUARANTEED_NORMAL = 4
PRESENCE_MARKERS = 4  # CUL-1.6
EVIDENCE_MARKERS = 5
HAND_LIMIT = 4
MAX_BLOCKS = 7

_DECKS = json.loads((Path(__file__).with_name("decks.json")).read_text())
CARDS_PER_DECK: int = _DECKS["cards_per_deck"]
DECK_MIXES: dict[str, dict[str, int]] = _DECKS["mixes"]
DEFAULT_DECK: dict[str, int] = DECK_MIXES[_DECKS["default"]]


def deck_cards(mix: dict[str, int]) -> list[str]:
    """The sorted pile of one deck with this composition."""
    return [card for card in CARDS for _ in range(mix.get(card, 0))]


class CryptidState:
    """Everything on and around the table. Mutated in place by the rules.

    ``rows[seat]`` is the row nearer ``seat`` (block ids, left to right) and
    ``sensors[seat]`` its spaces (``len(rows[seat]) + 1`` lists of colour counts).
    ``active`` names the active row, which is also the round's first player.
    """

    __slots__ = (
        "options",
        "rng",
        "setup",
        "round",
        "phase",
        "turn",
        "active",
        "rows",
        "sensors",
        "active_sensors",
        "presence",
        "evidence",
        "held",
        "wild",
        "hands",
        "decks",
        "discards",
        "block_pool",
        "guaranteed",
        "pending_blocks",
        "displaced",
        "trace",
        "result",
    )

    options: dict[str, Any]
    rng: Rng | None
    #: the setup as a log records it (every chance outcome explicit)
    setup: dict[str, Any]
    round: int
    #: ``sensor``, ``hiding``, ``blockade``, ``relocate``, ``expansion`` or ``over``
    phase: str
    #: the seat to act in the Sensor phase
    turn: str
    active: str
    rows: dict[str, list[str]]
    sensors: dict[str, list[list[int]]]
    #: sensors left in the active row (the Sensor phase ends at 0)
    active_sensors: int
    presence: set[str]
    evidence: set[str]
    held: dict[str, int]
    #: wild card per seat: True = up (usable)
    wild: dict[str, bool]
    hands: dict[str, list[str]]
    decks: dict[str, list[str]]
    discards: dict[str, list[str]]
    #: blocks still in the block deck, sorted by BLOCK_ORDER
    block_pool: list[str]
    #: how many of the guaranteed normal blocks are still on top of the deck
    guaranteed: int
    #: with a seed: the two blocks drawn for the coming expansion, in drawing order
    pending_blocks: list[str] | None
    #: sensors (colour counts) a blockade pushed off the table, to be relocated
    displaced: list[int] | None
    #: the last trace declared: ``{"count": n}`` or ``{"colors": [...]}``, with
    #: ``matching`` (inactive-row blocks the trace matched) and ``marked`` (those that
    #: received a presence marker) as they stood at the declaration
    trace: dict[str, Any] | None
    result: dict[str, Any] | None

    @property
    def inactive(self) -> str:
        return OTHER[self.active]

    def block_count(self) -> int:
        return len(self.rows["cryptid"]) + len(self.rows["scientist"])

    def copy(self) -> CryptidState:
        """A deep copy (the rng too: a copy draws what the original would)."""
        new = CryptidState.__new__(CryptidState)
        new.options = self.options
        new.rng = None if self.rng is None else copy.copy(self.rng)
        new.setup = self.setup
        new.round = self.round
        new.phase = self.phase
        new.turn = self.turn
        new.active = self.active
        new.rows = {s: list(r) for s, r in self.rows.items()}
        new.sensors = {s: [list(sp) for sp in spaces] for s, spaces in self.sensors.items()}
        new.active_sensors = self.active_sensors
        new.presence = set(self.presence)
        new.evidence = set(self.evidence)
        new.held = dict(self.held)
        new.wild = dict(self.wild)
        new.hands = {s: list(h) for s, h in self.hands.items()}
        new.decks = {s: list(d) for s, d in self.decks.items()}
        new.discards = {s: list(d) for s, d in self.discards.items()}
        new.block_pool = list(self.block_pool)
        new.guaranteed = self.guaranteed
        new.pending_blocks = None if self.pending_blocks is None else list(self.pending_blocks)
        new.displaced = None if self.displaced is None else list(self.displaced)
        new.trace = self.trace
        new.result = self.result
        return new
