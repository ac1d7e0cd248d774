"""Cryptid: Urban Legends plugged into the engine core (see :class:`engine.core.game.Game`)."""

from __future__ import annotations

from typing import Any

from engine.core.errors import IllegalAction
from engine.core.game import TWO_SEATS, Action, Game, RatingShape, Spread
from engine.core.messages import DEFAULT_LOCALE, msg
from engine.core.rng import Rng
from engine.games.cryptid import legal, notation, opening, rules, schema, sentences, views
from engine.games.cryptid.state import COLORS, OTHER, SEATS, CryptidState


class CryptidGame(Game):
    id = "cryptid-urban-legends"
    name = "Cryptid: Urban Legends"
    title_id = "cul.title"
    #: bump when a reading of docs/rules/cryptid-urban-legends.md changes
    rules_version = "cul-2026.11-1"
    rule_prefix = "CUL"
    end_rule = "CUL-3.10"
    result_rule = "CUL-6.6"
    sentences = sentences
    min_players = max_players = len(SEATS)  # CUL-1.1
    # EL-4, the cryptid's advantage over the scientist estimated (EL-3.3)
    rating = RatingShape(TWO_SEATS, (SEATS[0], SEATS[1]))
    renderer = "cryptid"

    def normalize_options(self, options: dict[str, Any]) -> dict[str, Any]:
        return opening.normalize_options(options)

    def check_seats(self, seats: list[dict[str, Any]], options: dict[str, Any]) -> None:
        named = sorted(str(entry.get("seat")) for entry in seats)
        if named != sorted(SEATS):
            raise IllegalAction(
                "CUL-1.1", msg("cul.refuse.seats_exactly_cryptid_scientist", named=str(named))
            )

    def seat_ids(self, options: dict[str, Any], player_count: int | None = None) -> list[str]:
        return list(SEATS)

    def initial_state(
        self, options: dict[str, Any], seats: list[str], setup: dict[str, Any], rng: Rng | None
    ) -> CryptidState:
        return opening.new_state(options, setup, rng)

    def setup_record(self, state: CryptidState) -> dict[str, Any]:
        return {
            "sensors_2r2w1b": state.setup["sensors_2r2w1b"],
            "hands": {seat: list(cards) for seat, cards in state.setup["hands"].items()},
            "first_blocks": list(state.setup["first_blocks"]),
        }

    def random_setup_choices(
        self, options: dict[str, Any], seats: list[str], rng: Rng
    ) -> dict[str, Any]:
        return {"sensors_2r2w1b": rng.choice(["left", "right"])}

    def to_act(self, state: CryptidState) -> list[str]:
        return legal.to_act(state)

    def legal_actions(self, state: CryptidState, seat: str) -> list[Action]:
        return legal.legal_actions(state, seat)

    def legal_spread(self, state: CryptidState, seat: str) -> Spread | None:
        """CUL-6.4: the relocation of the displaced sensors, described (it can have 10k+
        placements; :func:`legal.relocations` lists the same ones)."""
        if state.phase != "relocate" or seat not in legal.to_act(state):
            return None
        assert state.displaced is not None, "the relocate phase keeps the sensors it displaced"
        items = {COLORS[c]: n for c, n in enumerate(state.displaced) if n}
        spaces = len(state.sensors[OTHER[state.active]])
        return Spread({"seat": seat, "type": "relocate"}, "to", items, spaces)

    def chance_fields(self, state: CryptidState, action: Action) -> dict[str, str]:
        """A draw's cards; an expansion's blocks while not yet drawn (once drawn, the
        active seat sees them and chooses their order)."""
        kind = action.get("type")
        if kind == "draw":
            return {"cards": "CUL-2.4"}
        if kind == "expand" and state.pending_blocks is None:
            return {"left": "CUL-2.4", "right": "CUL-2.4"}
        return {}

    def chance_options(self, state: CryptidState, action: Action) -> list[Action]:
        return legal.chance_options(state, action)

    #: bound straight to the rules: validation calls it once per action
    apply = staticmethod(rules.apply)

    def is_over(self, state: CryptidState) -> bool:
        return state.result is not None

    def result(self, state: CryptidState) -> dict[str, Any] | None:
        return state.result

    def clone(self, state: CryptidState) -> CryptidState:
        return state.copy()

    def view(self, state: CryptidState, viewer: str | None) -> dict[str, Any]:
        return views.view(state, viewer)

    def clock(self, state: CryptidState) -> dict[str, Any]:
        return {"round": state.round, "phase": state.phase}

    def action_view(self, state_after: CryptidState, action: Action, viewer: str | None) -> Action:
        return views.action_view(action, viewer)

    def notation(self, action: Action) -> str:
        return notation.notation(action)

    def render_text(self, state: CryptidState, locale: str = DEFAULT_LOCALE) -> str:
        return views.render_text(state, locale)

    def json_schema(self) -> dict[str, Any]:
        return schema.json_schema()

    def form_schema(
        self, options: dict[str, Any], seats: list[str], locale: str = DEFAULT_LOCALE
    ) -> dict[str, Any]:
        return schema.form_schema(options, seats, locale)
