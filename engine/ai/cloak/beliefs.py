"""Cloak & Dagger: what a seat's check sheet proves about the envelopes (CD-5).

No probabilities here, on purpose. A probability of "X is in envelope 7" needs a
model of where the other players chose to go on the turns whose envelope nobody
announced, and those are choices, not chance: any number put on them would be a
guess presented as a fact. What a seat *can* know for certain is computed instead,
from its own observations only (:func:`~engine.games.cloak.knowledge.observation`,
the same as its view): per envelope, the cards certainly inside now and whether
the contents are known exactly.

The fold, turn by turn (``low``: the cards certainly inside; ``exact``: nothing else):

* at the start every envelope is empty, exactly (CD-2.2);
* the seat's own turn: it looked inside, so it knows the envelope exactly after its
  action; a win shows the envelope to everyone (CD-7.2);
* an announced place (CD-3.2): the envelope was empty and now holds one card unseen;
* another seat's take shows a spy, which exists once: if the sheet proves it was in
  envelope n, the take was there; otherwise it was in an envelope not known exactly
  (known exactly without that spy rules an envelope out), and if only one is left,
  there. A second card taken secretly (the hand shows 2 cards) may be any card of
  that envelope, so one of every kind there is no longer certain;
* a revealed hazard (CD-6.2) is located the same way, and leaves its envelope;
* a drop whose number the seat was not told may be in any envelope: none of them
  is known exactly any more, but what was certainly inside still is (a drop adds);
* an examine changes nothing.

So ``low`` only ever holds cards that are in the envelope, and ``exact`` only
envelopes whose contents are exactly ``low`` (``tests/engine/cloak/test_beliefs.py``
checks both against the true state of many games with hazards and double agents).
The measure is how many envelopes are *not* known exactly; ``located`` counts the
cards the sheet places for certain.
"""

from __future__ import annotations

from typing import Any

from engine.ai.beliefs import measure
from engine.games.cloak.knowledge import Knowledge, observation, setup_observation
from engine.games.cloak.state import DOUBLE_AGENTS, ENVELOPES, HAZARDS, LOYAL_SPIES, CloakState

#: cards that exist once: where the sheet proves one is, a take or reveal of it happened
UNIQUE = LOYAL_SPIES | DOUBLE_AGENTS | HAZARDS


class Proofs:
    """One seat's proofs about the envelopes, folded from its own observations."""

    def __init__(self, options: dict[str, Any], seats: list[str], viewer: int):
        self.viewer = viewer
        self.seats = seats
        self.knowledge = Knowledge(setup_observation(options, seats, viewer))
        self.low: list[dict[str, int]] = [{} for _ in range(ENVELOPES + 1)]
        self.exact = [True] * (ENVELOPES + 1)
        self.turns = 0

    def _set(self, n: int, cards: list[str], exact: bool) -> None:
        low: dict[str, int] = {}
        for card in cards:
            low[card] = low.get(card, 0) + 1
        self.low[n] = low
        self.exact[n] = exact

    def _locate(self, card: str) -> int | None:
        """The envelope a take or reveal of the unique ``card`` happened in, when provable."""
        for n in range(1, ENVELOPES + 1):
            if card in self.low[n]:
                return n
        candidates = [n for n in range(1, ENVELOPES + 1) if not self.exact[n]]
        return candidates[0] if len(candidates) == 1 else None

    def _remove(self, n: int, card: str) -> None:
        low = self.low[n]
        if card in low:
            low[card] -= 1
            if not low[card]:
                del low[card]

    def _secret_second(self, n: int) -> None:
        """A second card, unseen, left envelope n: one of each kind there is in doubt,
        unless the envelope was known exactly and holds one kind only."""
        low = self.low[n]
        if self.exact[n] and len(low) == 1:
            self._remove(n, next(iter(low)))
            return
        self.exact[n] = False
        for card in list(low):
            self._remove(n, card)

    def observe(self, seen: dict[str, Any]) -> None:
        """Fold in this seat's observation of the next turn."""
        self.knowledge.observe(seen)
        self.turns += 1
        actor = self.seats.index(seen["seat"])
        kind = seen["type"]
        n: int | None = seen.get("envelope")
        if "win" in seen or actor == self.viewer or kind == "place":
            # a win shows the envelope to all (CD-7.2), the seat's own turns name theirs,
            # and a place is announced (CD-3.2)
            assert n is not None, "this turn's envelope is known"
            if "win" in seen:
                self._set(n, list(seen["win"]), True)
            elif actor == self.viewer:
                self._set(n, list(self.knowledge.seen[n] or []), True)
            else:
                self._set(n, [], False)  # an empty envelope, one card unseen put in
            return
        if kind == "take":
            where = n if n is not None else self._locate(seen["spy"])
            if where is not None:
                self._remove(where, seen["spy"])
                if seen["cards"] == 2:
                    self._secret_second(where)
            else:
                for m in range(1, ENVELOPES + 1):
                    if self.exact[m] and seen["spy"] not in self.low[m]:
                        continue
                    self.exact[m] = False
                    if seen["cards"] == 2:
                        self._secret_second(m)
        elif kind == "hazard":
            where = n if n is not None else self._locate(seen["card"])
            if where is not None:
                self._remove(where, seen["card"])
            # else: from an envelope not known exactly, none of whose certain cards it was
        elif kind == "drop":
            for m in [n] if n is not None else range(1, ENVELOPES + 1):
                self.exact[m] = False

    def summary(self) -> dict[str, Any]:
        """``certain[n - 1]``: the cards certainly in envelope n, as one sorted string of
        card letters (compact: a long game's track holds one per envelope, seat and ply);
        ``exact[n - 1]``: nothing else is in it."""
        certain = [
            "".join(sorted(c for c, k in self.low[n].items() for _ in range(k)))
            for n in range(1, ENVELOPES + 1)
        ]
        exact = self.exact[1:]
        return {
            "holder": self.seats[self.viewer],
            "kind": "envelopes",
            "certain": certain,
            "exact": exact,
            "located": sum(len(cards) for cards in certain),
            "measure": measure(exact.count(False), "envelopes in doubt"),
        }


def proofs_of(state: CloakState, viewer: int) -> Proofs:
    """Seat ``viewer``'s proofs after the turns played so far, from its observations only
    (cached on the state and extended as the game goes on, as its knowledge is)."""
    proofs = state.proofs[viewer]
    if proofs is None:
        proofs = state.proofs[viewer] = Proofs(state.options, state.seats, viewer)
    history = state.history
    for index in range(proofs.turns, len(history)):
        proofs.observe(observation(history[index], index + 1, viewer, state.seats))
    return proofs


def summary(state: CloakState, viewer: str | None) -> list[dict[str, Any]]:
    """Each seat's proofs (:meth:`GameAI.belief_summary`): a seat's perspective its own,
    the all-seeing one every seat's."""
    return [
        proofs_of(state, i).summary()
        for i, seat in enumerate(state.seats)
        if viewer is None or viewer == seat
    ]
