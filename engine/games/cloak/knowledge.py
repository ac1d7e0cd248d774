"""What each seat knows (CD-5): its observations, and the check sheet derived from them.

Two steps, kept apart so that a leak is impossible by construction:

1. :func:`observation` turns one turn (a history :class:`Entry`) into what one
   seat observed of it: the full action and the envelope's contents for the
   actor; for everyone else only the public part (who, which kind, an announced
   envelope number, the spy shown, how many cards in hand, a revealed hazard) plus
   what a rule makes them learn (a hazard obligation tells the envelope number to
   the hazard's owner, CD-6.2; a win shows the envelope to all, CD-7.2).
2. :class:`Knowledge` folds a seat's observations, and nothing else, into its
   check sheet: per envelope, the contents it last saw and when, and the events
   there since that it could know — including where a spy shown was certainly
   taken from (see :meth:`Knowledge._deduce_take`).

A seat's view (:mod:`engine.games.cloak.views`) and the greedy bot read only a
:class:`Knowledge`; ``action_view`` is :func:`observation`. So what a seat is
shown is a function of what it observed, which the leak tests check against
counterfactual games.
"""

from __future__ import annotations

from typing import Any

from engine.core.game import PUBLIC
from engine.games.cloak.state import (
    DOUBLE_AGENTS,
    ENVELOPES,
    LOYAL_SPIES,
    SPY_PAIRS,
    CloakState,
    Entry,
    deck,
)

#: Cards that only move when shown (CD-3.3) or taken secretly as a second card:
#: each letter exists once, so a sighting pins it down until then.
TRACKED = LOYAL_SPIES | DOUBLE_AGENTS

Observation = dict[str, Any]


def setup_observation(options: dict[str, Any], seats: list[str], viewer: int) -> Observation:
    """What a seat knows before the first turn: the seats, the options (hence the pile's
    size, not its order) and its own spy pair in hand (CD-2.1). ``viewer`` ==
    ``len(seats)`` is the public: someone at the table with no seat and no hand."""
    public = viewer == len(seats)
    return {
        "viewer": PUBLIC if public else seats[viewer],
        "seats": list(seats),
        "options": dict(options),
        "hand": [] if public else list(SPY_PAIRS[viewer]),
        "pile_size": len(deck(options)),
    }


def observation(entry: Entry, turn: int, viewer: int | None, seats: list[str]) -> Observation:
    """What ``viewer`` (a seat index; None = all-seeing) observed of turn number ``turn``."""
    action = entry.action
    kind = action["type"]
    if viewer is None:
        seen: Observation = dict(action)
    elif viewer == entry.actor:
        seen = dict(action)
        seen["saw"] = sorted(entry.saw)
    else:
        seen = {"seat": action["seat"], "type": kind}
        if kind == "place":
            seen["envelope"] = action["envelope"]  # announced to all (CD-3.2)
        elif kind == "take":
            seen["spy"] = action["spy"]  # shown to all (CD-3.3)
        elif kind == "hazard":
            seen["card"] = action["card"]  # revealed to all (CD-6.2, CD-7.3)
        if viewer in entry.told:
            seen["envelope"] = action["envelope"]  # told to the hazard's owner (CD-6.2)
            seen["told"] = True
    if kind in ("take", "drop"):
        seen["cards"] = entry.cards  # hand sizes are public (CD-5)
    if entry.win is not None:
        seen["envelope"] = action["envelope"]  # a win shows the envelope (CD-7.2)
        seen["win"] = sorted(entry.win)
    seen["turn"] = turn
    return seen


class Knowledge:
    """One seat's knowledge, folded from its observations only."""

    __slots__ = (
        "viewer",
        "seat",
        "seats",
        "options",
        "turns",
        "hand",
        "hand_sizes",
        "pile_size",
        "seen",
        "seen_turn",
        "since",
        "owed",
        "spies_shown",
        "hazards",
        "winner",
        "win",
        "sighted",
        "secret_take",
    )

    def __init__(self, start: Observation):
        self.seats: list[str] = start["seats"]
        self.seat: str = start["viewer"]
        #: the seat's index; the public's is len(seats), which never acts
        self.viewer = len(self.seats) if self.seat == PUBLIC else self.seats.index(self.seat)
        self.options: dict[str, Any] = start["options"]
        self.turns = 0
        self.hand: list[str] = list(start["hand"])
        self.hand_sizes = [2] * len(self.seats)  # every pair starts in hand (CD-2.1)
        self.pile_size: int = start["pile_size"]
        #: per envelope (index 0 unused): contents last seen, the turn, events since
        self.seen: list[list[str] | None] = [None] * (ENVELOPES + 1)
        self.seen_turn: list[int | None] = [None] * (ENVELOPES + 1)
        self.since: list[list[Observation]] = [[] for _ in range(ENVELOPES + 1)]
        #: per seat: the seats it must tell its next envelope number to (public, CD-6.2)
        self.owed: list[tuple[int, ...]] = [() for _ in self.seats]
        self.spies_shown: list[Observation] = []
        self.hazards: list[Observation] = []
        self.winner: int | None = None
        self.win: Observation | None = None
        #: spy or double agent letter -> (envelope, turn) where this seat last saw it
        self.sighted: dict[str, tuple[int, int]] = {}
        #: the last turn another seat took a second card this seat did not see (or 0)
        self.secret_take = 0

    def observe(self, seen: Observation) -> None:
        """Fold in the observation of the next turn."""
        self.turns += 1
        turn = seen["turn"]
        actor = self.seats.index(seen["seat"])
        kind = seen["type"]
        self.owed[actor] = ()
        if kind == "place":
            self.pile_size -= 1
        elif kind == "take":
            self.hand_sizes[actor] = seen["cards"]
            self.spies_shown.append(
                {"turn": turn, "seat": seen["seat"], "spy": seen["spy"], "cards": seen["cards"]}
            )
            if actor != self.viewer:
                self._deduce_take(seen)
        elif kind == "drop":
            self.hand_sizes[actor] = 0
        elif kind == "hazard":
            self.pile_size += 1
            self.hazards.append({"turn": turn, "seat": seen["seat"], "card": seen["card"]})
            for j, size in enumerate(self.hand_sizes):
                if j != actor and not size and actor not in self.owed[j]:
                    self.owed[j] = (*self.owed[j], actor)

        n = seen.get("envelope")
        if actor == self.viewer:
            assert n is not None, "the viewer's own turns name their envelope"
            self._own_turn(seen, n)
        elif n is not None:
            event = {key: value for key, value in seen.items() if key not in ("envelope", "win")}
            self.since[n].append(event)
        if "win" in seen:
            self.winner = actor
            self.win = {"turn": turn, "seat": seen["seat"], "envelope": n, "contents": seen["win"]}
            assert n is not None, "a win opens an envelope"
            self._saw(n, list(seen["win"]), turn)

    def _own_turn(self, seen: Observation, n: int) -> None:
        kind = seen["type"]
        contents = list(seen["saw"])
        if kind == "drop":
            contents += self.hand
            self.hand = []
        elif kind == "place":
            contents = [seen["card"]]
        elif kind == "take":
            self.hand = [seen["spy"]] + ([] if seen["second"] is None else [seen["second"]])
            for card in self.hand:
                contents.remove(card)
        elif kind == "hazard":
            contents.remove(seen["card"])
        self._saw(n, contents, seen["turn"])

    def _saw(self, n: int, contents: list[str], turn: int) -> None:
        self.seen[n] = sorted(contents)
        self.seen_turn[n] = turn
        self.since[n] = []
        for letter, (where, _when) in list(self.sighted.items()):
            if where == n and letter not in contents:
                del self.sighted[letter]
        for letter in contents:
            if letter in TRACKED:
                self.sighted[letter] = (n, turn)

    def _deduce_take(self, seen: Observation) -> None:
        """Another seat showed ``spy``. Each letter exists once and moves only when shown
        or taken as a hidden second card, so if this seat saw it in envelope n and no
        hidden second card was taken since, the take certainly happened in n: noted
        there as ``"deduced": True``. Either way the spy has left where it was seen."""
        spy, turn = seen["spy"], seen["turn"]
        sighting = self.sighted.pop(spy, None)
        certain = sighting is not None and self.secret_take <= sighting[1]
        if seen["cards"] == 2:
            self.secret_take = turn
        if (
            certain and sighting is not None and "envelope" not in seen
        ):  # (a number told is already noted)
            self.since[sighting[0]].append(
                {
                    "seat": seen["seat"],
                    "type": "take",
                    "spy": spy,
                    "cards": seen["cards"],
                    "deduced": True,
                    "turn": turn,
                }
            )

    # --- reading ----------------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        return None if self.winner is not None else self.turns % len(self.seats)

    def check_sheet(self) -> list[dict[str, Any]]:
        """Per envelope (CD-5): ``seen``, the contents as this seat last knew them for
        certain — what it saw inside on its own turn ``seen_turn``, changed by what it
        did there (or the winning envelope shown to all); ``None``: never opened — and
        ``since``, the events there it learnt of afterwards: another player's announced
        place, a turn whose number was told to it under a hazard obligation, or a take
        it can place there for certain (``"deduced": True``)."""
        return [
            {
                "envelope": n,
                "seen": None if (seen := self.seen[n]) is None else list(seen),
                "seen_turn": self.seen_turn[n],
                "since": [dict(event) for event in self.since[n]],
            }
            for n in range(1, ENVELOPES + 1)
        ]


def knowledge_of(state: CloakState, viewer: int) -> Knowledge:
    """Seat ``viewer``'s (``len(state.seats)``: the public's) knowledge after the turns played so
    far, folded from its own
    observations (cached on the state and extended as the game goes on)."""
    known = state.knowledge[viewer]
    if known is None:
        known = Knowledge(setup_observation(state.options, state.seats, viewer))
        state.knowledge[viewer] = known
    history = state.history
    for index in range(known.turns, len(history)):
        known.observe(observation(history[index], index + 1, viewer, state.seats))
    return known
