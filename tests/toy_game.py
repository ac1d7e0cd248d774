"""A fourth game, for tests only: everything Lantern knows of a game comes from its
:class:`~engine.core.game.Game` (and its bots from its :class:`~engine.ai.contract.GameAI`),
so registering this one (the ``fox_hunt`` fixture of tests/conftest.py) is all it takes
to upload, rate, pair and replay it.

Fox hunt: a fox against one to three hound seats (a team, like Mister X's detectives,
whose members weigh by the dogs each holds: six dogs, not five pawns). Each round the
fox hides in one of ``dens`` dens, seen by nobody else; then each hound seat sniffs a
den in seat order. A hound that sniffs the fox's den wins for the hounds; after
``rounds`` rounds the fox wins.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from engine.ai.contract import GameAI
from engine.core.errors import IllegalAction, require
from engine.core.game import ONE_AGAINST_TEAM, Action, Game, RatingShape
from engine.core.rng import Rng

FOX = "fox"
HOUNDS = "hounds"
#: the dogs the hound seats share out (a hound seat's weight on a ladder is its share)
DOGS = 6
DEFAULT_OPTIONS = {"dens": 4, "rounds": 2}


def hound_seats(count: int) -> list[str]:
    return [f"hound{i}" for i in range(1, count + 1)]


@dataclass
class FoxState:
    options: dict[str, Any]
    seats: list[str]
    round: int = 1
    phase: str = "hide"
    den: int | None = None
    turn: int = 0  # the hound seat to sniff next
    sniffed: list[int] = field(default_factory=list)
    winner: str | None = None


def random_bot(game: Game, state: FoxState, seat: str, rng: Rng) -> Action:
    return rng.choice(game.legal_actions(state, seat))


class FoxHunt(Game):
    id = "toy-fox-hunt"
    name = "Fox hunt (toy)"
    rules_version = "fox-1"
    rule_prefix = "FOX"
    end_rule = "FOX-END"
    result_rule = "FOX-RESULT"
    min_players, max_players = 2, 4
    rating = RatingShape(ONE_AGAINST_TEAM, (FOX, HOUNDS), labels={FOX: "the fox"}, share="dogs")

    # --- game facts ------------------------------------------------------------------
    def side_of(self, seat: str) -> str:
        return FOX if seat == FOX else HOUNDS

    def may_hold_together(self, seats: Collection[str]) -> bool:
        return len(set(seats)) <= 1 or FOX not in seats

    def team_shares(self, options: dict[str, Any], seats: Collection[str]) -> dict[str, int]:
        hounds = [s for s in sorted(seats) if s != FOX]
        base, extra = divmod(DOGS, len(hounds)) if hounds else (0, 0)
        return {seat: base + (1 if n < extra else 0) for n, seat in enumerate(hounds)}

    def team_total(self, options: dict[str, Any]) -> int:
        return DOGS

    # --- envelope --------------------------------------------------------------------
    def normalize_options(self, options: dict[str, Any]) -> dict[str, Any]:
        merged = {**DEFAULT_OPTIONS, **options}
        require(
            all(type(merged[k]) is int and merged[k] >= 1 for k in DEFAULT_OPTIONS),
            "FOX-OPTIONS",
            "dens and rounds are whole numbers from 1",
        )
        return merged

    def check_seats(self, seats: list[dict[str, Any]], options: dict[str, Any]) -> None:
        ids = [entry["seat"] for entry in seats]
        require(
            2 <= len(ids) <= 4 and ids == [FOX, *hound_seats(len(ids) - 1)],
            "FOX-SEATS",
            f"the seats are fox, hound1.. (2 to 4 players), not {ids}",
        )

    def seat_ids(self, options: dict[str, Any], player_count: int | None = None) -> list[str]:
        count = 3 if player_count is None else player_count
        if not 2 <= count <= 4:
            raise ValueError("Fox hunt has 2 to 4 players")
        return [FOX, *hound_seats(count - 1)]

    # --- rules -----------------------------------------------------------------------
    def initial_state(self, options, seats, setup, rng) -> FoxState:
        return FoxState(options, list(seats))

    def setup_record(self, state: FoxState) -> dict[str, Any]:
        return {}

    def to_act(self, state: FoxState) -> list[str]:
        if state.winner is not None:
            return []
        return [FOX] if state.phase == "hide" else [state.seats[1 + state.turn]]

    def legal_actions(self, state: FoxState, seat: str) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        kind = "hide" if state.phase == "hide" else "sniff"
        return [{"seat": seat, "type": kind, "den": d} for d in range(1, state.options["dens"] + 1)]

    def apply(self, state: FoxState, action: Action) -> Action:
        if state.winner is not None:
            raise IllegalAction(self.end_rule, "the hunt is over")
        require(
            action["seat"] in self.to_act(state),
            "FOX-TURN",
            f"it is {self.to_act(state)[0]}'s turn",
        )
        require(
            action in self.legal_actions(state, action["seat"]),
            "FOX-DEN",
            f"{action['type']} a den from 1 to {state.options['dens']}",
        )
        if state.phase == "hide":
            state.den, state.phase, state.turn, state.sniffed = action["den"], "sniff", 0, []
            return action
        state.sniffed.append(action["den"])
        if action["den"] == state.den:
            state.winner = HOUNDS
            return action
        state.turn += 1
        if state.turn == len(state.seats) - 1:
            if state.round == state.options["rounds"]:
                state.winner = FOX
            else:
                state.round, state.phase = state.round + 1, "hide"
        return action

    def is_over(self, state: FoxState) -> bool:
        return state.winner is not None

    def result(self, state: FoxState) -> dict[str, Any] | None:
        return None if state.winner is None else {"winner": state.winner}

    # --- what leaves the engine ----------------------------------------------------------
    def view(self, state: FoxState, viewer: str | None) -> dict[str, Any]:
        # Only the fox (and the all-seeing view) knows the den, until the hunt is over.
        sees_den = viewer in (None, FOX) or state.winner is not None
        return {
            "round": state.round,
            "phase": state.phase,
            "den": state.den if sees_den else None,
            "sniffed": list(state.sniffed),
            "winner": state.winner,
        }

    def action_view(self, state_after: FoxState, action: Action, viewer: str | None) -> Action:
        if action["type"] == "hide" and viewer not in (None, FOX):
            return {"seat": FOX, "type": "hide"}
        return action

    def render_text(self, state: FoxState, locale: str = "en") -> str:
        return f"round {state.round} {state.phase} den={state.den} sniffed={state.sniffed}"

    def json_schema(self) -> dict[str, Any]:
        number = {"type": "integer", "minimum": 1}
        return {
            "options": {"type": "object", "properties": {"dens": number, "rounds": number}},
            "setup": {"type": "object", "properties": {}},
            "actions": [
                {
                    "type": "object",
                    "properties": {
                        "seat": {"type": "string"},
                        "type": {"enum": ["hide", "sniff"]},
                        "den": number,
                    },
                }
            ],
            "result": {"type": "object", "properties": {"winner": {"enum": [FOX, HOUNDS]}}},
        }


def hunt_log(players: list[str], hides: list[int], sniffs: list[list[int]]) -> dict[str, Any]:
    """A log of one hunt: ``players`` in seat order (the fox first), the fox's den each
    round and each round's sniffs; the result is what the engine makes of them."""
    seats = [FOX, *hound_seats(len(players) - 1)]
    actions: list[dict[str, Any]] = []
    for den, round_sniffs in zip(hides, sniffs, strict=True):
        actions.append({"seat": FOX, "type": "hide", "den": den})
        # a round cut short by a hit has fewer sniffs than hounds
        actions += [
            {"seat": seat, "type": "sniff", "den": d}
            for seat, d in zip(seats[1:], round_sniffs, strict=False)
        ]
    return {
        "format": "lantern-log/1",
        "game": FoxHunt.id,
        "options": {},
        "seats": [{"seat": s, "player": p} for s, p in zip(seats, players, strict=True)],
        "seed": None,
        "setup": {},
        "actions": actions,
        "result": None,
        "meta": {},
    }


class FoxHuntAI(GameAI):
    bots = {"random": random_bot}
