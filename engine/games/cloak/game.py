"""Cloak & Dagger plugged into the engine core (see :class:`engine.core.game.Game`)."""

from __future__ import annotations

from typing import Any

from engine.core.game import FREE_FOR_ALL, Action, Game, RatingShape
from engine.core.messages import DEFAULT_LOCALE
from engine.core.rng import Rng
from engine.games.cloak import legal, notation, rules, schema, sentences, views
from engine.games.cloak.state import (
    ENVELOPE_NUMBERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SEAT_IDS,
    CloakState,
)


class CloakGame(Game):
    id = "cloak-and-dagger"
    name = "Cloak & Dagger"
    title_id = "cd.title"
    rules_version = "1"
    rule_prefix = "CD"
    end_rule = "CD-7.2"
    result_rule = "CD-7.4"
    opening_rule = "CD-3"
    min_players, max_players = MIN_PLAYERS, MAX_PLAYERS  # CD-1.3
    rating = RatingShape(FREE_FOR_ALL)  # EL-6: one winner, every pair a game
    renderer = "cloak"
    sentences = sentences

    # --- envelope -----------------------------------------------------------
    def normalize_options(self, options: dict[str, Any]) -> dict[str, Any]:
        return rules.normalize_options(options)

    def check_seats(self, seats: list[dict[str, Any]], options: dict[str, Any]) -> None:
        rules.check_seats(seats, options)

    def seat_ids(self, options: dict[str, Any], player_count: int | None = None) -> list[str]:
        count = 4 if player_count is None else player_count
        if not MIN_PLAYERS <= count <= MAX_PLAYERS:
            raise ValueError(f"Cloak & Dagger needs 2 to 6 players, not {count}")
        return SEAT_IDS[:count]

    # --- setup and turns ------------------------------------------------------
    def initial_state(
        self, options: dict[str, Any], seats: list[str], setup: dict[str, Any], rng: Rng | None
    ) -> CloakState:
        return rules.new_state(options, seats, setup, rng)

    def setup_record(self, state: CloakState) -> dict[str, Any]:
        return rules.setup_record(state)

    def to_act(self, state: CloakState) -> list[str]:
        return legal.to_act(state)

    def legal_actions(self, state: CloakState, seat: str) -> list[Action]:
        return legal.legal_actions(state, seat)

    def chance_options(self, state: CloakState, action: Action) -> list[Action]:
        return legal.chance_options(state, action)

    # --- what a seat may know while it chooses (CD-3: it picks an envelope, then looks) ---
    def openings(self, state: CloakState, seat: str) -> list[Action] | None:
        """With an empty hand a turn starts by secretly taking one envelope and looking
        inside (CD-3): which actions are legal depends on what is inside, so the seat first
        picks the envelope — ``{"type": "open", "envelope": n}`` — and only then learns
        its contents and its choices there. With cards in hand every envelope takes the
        drop (CD-3.1): nothing to pick first."""
        if state.winner is not None or state.seats[state.turn] != seat or state.hands[state.turn]:
            return None
        return [{"seat": seat, "type": "open", "envelope": n} for n in ENVELOPE_NUMBERS]

    def opening_of(self, action: Action) -> Action | None:
        if action.get("type") in ("drop", "open") or not isinstance(action.get("seat"), str):
            return None
        return {"seat": action["seat"], "type": "open", "envelope": action.get("envelope")}

    def opened_view(self, state: CloakState, opening: Action) -> dict[str, Any]:
        n = opening["envelope"]
        return {"envelope": n, "contents": sorted(state.envelopes[n])}

    def chance_fields(self, state: CloakState, action: Action) -> dict[str, str]:
        return {"card": "CD-2.2"} if action.get("type") == "place" else {}

    #: bound straight to the rules: validation calls it once per action
    apply = staticmethod(rules.apply)

    def is_over(self, state: CloakState) -> bool:
        return state.winner is not None

    def result(self, state: CloakState) -> dict[str, Any] | None:
        return rules.result(state)

    def clone(self, state: CloakState) -> CloakState:
        return state.copy()

    # --- what leaves the engine ---------------------------------------------
    def view(self, state: CloakState, viewer: str | None) -> dict[str, Any]:
        return views.view(state, viewer)

    def clock(self, state: CloakState) -> dict[str, Any]:
        return views.clock(state)

    def static_view(self, options: dict[str, Any]) -> dict[str, Any]:
        return views.static_view(options)

    def action_view(self, state_after: CloakState, action: Action, viewer: str | None) -> Action:
        return views.action_view(state_after, action, viewer)

    def notation(self, action: Action) -> str:
        return notation.notation(action)

    def render_text(self, state: CloakState, locale: str = DEFAULT_LOCALE) -> str:
        return views.render_text(state, locale)

    def json_schema(self) -> dict[str, Any]:
        return schema.json_schema()

    def form_schema(
        self, options: dict[str, Any], seats: list[str], locale: str = DEFAULT_LOCALE
    ) -> dict[str, Any]:
        return schema.form_schema(options, seats, locale)
