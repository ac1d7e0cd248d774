"""A tiny two-seat game with hidden hands, for testing the replay viewer apart from
any real game: each seat draws a secret card and then guesses the other's.

Round r has two phases: ``draw`` (each seat draws one card from a seeded or
recorded pile, seen only by itself) and ``guess`` (each seat names a number; a
right guess of the other's last card wins). A seat's view holds its own hand and
only the *size* of the other's; a seat's view of the other's draw hides the card.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import require
from engine.core.game import Game

SEATS = ("north", "south")


@dataclass
class ToyState:
    round: int = 1
    phase: str = "draw"
    turn: int = 0
    hands: dict[str, list[int]] = field(default_factory=lambda: {s: [] for s in SEATS})
    winner: str | None = None


class ToyGame(Game):
    id = "toy-secret-hands"
    name = "Toy: secret hands"
    rules_version = "toy-1"
    end_rule = "TOY-END"
    result_rule = "TOY-RESULT"
    min_players = max_players = len(SEATS)

    def check_seats(self, seats: list[dict[str, Any]], options: dict[str, Any]) -> None:
        require([e["seat"] for e in seats] == list(SEATS), "TOY-SEATS", "seats are north, south")

    def seat_ids(self, options: dict[str, Any], player_count: int | None = None) -> list[str]:
        return list(SEATS)

    def initial_state(self, options, seats, setup, rng) -> ToyState:
        return ToyState()

    def to_act(self, state: ToyState) -> list[str]:
        return [] if state.winner else [SEATS[state.turn]]

    def apply(self, state: ToyState, action: dict[str, Any]) -> dict[str, Any]:
        seat = action["seat"]
        require(seat == SEATS[state.turn], "TOY-TURN", f"it is {SEATS[state.turn]}'s turn")
        require(action["type"] == state.phase, "TOY-PHASE", f"the phase is {state.phase}")
        if state.phase == "draw":
            state.hands[seat].append(int(action["card"]))
        else:
            other = SEATS[1 - state.turn]
            if state.hands[other] and action["value"] == state.hands[other][-1]:
                state.winner = seat
        state.turn = 1 - state.turn
        if state.turn == 0 and not state.winner:
            if state.phase == "draw":
                state.phase = "guess"
            else:
                state.phase, state.round = "draw", state.round + 1
        return action

    def is_over(self, state: ToyState) -> bool:
        return state.winner is not None

    def result(self, state: ToyState) -> dict[str, Any] | None:
        return {"winner": state.winner, "reason": "guess"} if state.winner else None

    def view(self, state: ToyState, viewer: str | None) -> dict[str, Any]:
        hands: dict[str, Any] = {
            seat: list(cards) if viewer in (None, seat) else len(cards)
            for seat, cards in state.hands.items()
        }
        return {"round": state.round, "phase": state.phase, "hands": hands, "winner": state.winner}

    def action_view(self, state_after: ToyState, action: dict[str, Any], viewer: str | None):
        if action["type"] == "draw" and viewer not in (None, action["seat"]):
            return {"seat": action["seat"], "type": "draw"}
        return action

    def notation(self, action: dict[str, Any]) -> str:
        if action["type"] == "draw":
            drawn = f"draws {action['card']}" if "card" in action else "draws a card"
            return f"{action['seat']} {drawn}"
        return f"{action['seat']} guesses {action['value']}"


def toy_log(cards: list[tuple[int, int]], guesses: list[tuple[int, int]]) -> dict[str, Any]:
    """A log of ``len(cards)`` rounds: each round both draw, then both guess."""
    actions: list[dict[str, Any]] = []
    for (north_card, south_card), (north_guess, south_guess) in zip(cards, guesses, strict=True):
        actions += [
            {"seat": "north", "type": "draw", "card": north_card},
            {"seat": "south", "type": "draw", "card": south_card},
            {"seat": "north", "type": "guess", "value": north_guess},
            {"seat": "south", "type": "guess", "value": south_guess},
        ]
    return {
        "format": "lantern-log/1",
        "game": ToyGame.id,
        "options": {},
        "seats": [{"seat": "north", "player": "nora"}, {"seat": "south", "player": "sam"}],
        "seed": None,
        "setup": {},
        "actions": actions,
        "result": None,
        "meta": {},
    }
