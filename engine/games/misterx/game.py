"""Mister X plugged into the engine core (see :class:`engine.core.game.Game`)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from engine.core.errors import require
from engine.core.game import ONE_AGAINST_TEAM, Action, Draw, Game, RatingShape
from engine.core.messages import DEFAULT_LOCALE, msg
from engine.core.rng import Rng
from engine.games.misterx import legal, notation, opening, rules, schema, sentences, views
from engine.games.misterx.board import resolve_board
from engine.games.misterx.state import (
    DEFAULT_BOARD,
    MRX,
    TEAM,
    MisterXState,
    default_shares,
    det_seat_ids,
)


class MisterXGame(Game):
    id = "mister-x"
    name = "Mister X"
    title_id = "mx.title"
    rules_version = "mx-1"
    rule_prefix = "MX"
    end_rule = "MX-3.6"
    result_rule = "MX-6.11"
    sentences = sentences
    # MX-1.4: mrx and 1 to 5 detective players
    min_players = 2
    max_players = 6
    # EL-5: Mister X against the detective players, weighed by the pawns each controls
    rating = RatingShape(ONE_AGAINST_TEAM, (MRX, TEAM), labels={MRX: "Mister X"}, share="pawns")
    renderer = "misterx"

    def side_of(self, seat: str) -> str:
        return MRX if seat == MRX else TEAM

    def may_hold_together(self, seats: Collection[str]) -> bool:
        """One player may control several detective seats (log-format: a detective player
        holds one or more of the pawns), never Mister X and a detective."""
        return len(set(seats)) <= 1 or MRX not in seats

    def team_shares(self, options: dict[str, Any], seats: Collection[str]) -> dict[str, int]:
        """Pawns per detective seat (EL-5.1): ``options.pawns``, else the documented default
        (MX-6.10: the board's pawns dealt in seat order, the first seats taking one more)."""
        detectives = sorted((s for s in seats if s != MRX), key=lambda s: (len(s), s))
        pawns = options.get("pawns")
        if isinstance(pawns, dict) and pawns:
            return {seat: len(pawns.get(seat) or []) for seat in detectives}
        board = resolve_board(options.get("board", DEFAULT_BOARD))
        return {seat: len(share) for seat, share in default_shares(board.pawns, detectives).items()}

    def team_total(self, options: dict[str, Any]) -> int:
        return len(resolve_board(options.get("board", DEFAULT_BOARD)).pawns)

    def normalize_options(self, options: dict[str, Any]) -> dict[str, Any]:
        out = dict(options)
        out.setdefault("board", DEFAULT_BOARD)
        resolve_board(out["board"])  # a bad board is rejected before anything else (MX-1.2)
        return out

    def check_seats(self, seats: list[dict[str, Any]], options: dict[str, Any]) -> None:
        ids = [entry["seat"] for entry in seats]
        k = len(ids) - 1
        require(
            1 <= k <= 5 and sorted(ids) == sorted([MRX, *det_seat_ids(k)]),
            "MX-1.4",
            msg("mx.refuse.seats_mrx_det_detk_detective", seats=", ".join(map(str, ids))),
        )
        board = resolve_board(options.get("board", DEFAULT_BOARD))
        opening.check_pawn_shares(board, det_seat_ids(k), options.get("pawns"))

    def seat_ids(self, options: dict[str, Any], player_count: int | None = None) -> list[str]:
        count = 3 if player_count is None else player_count
        if not 2 <= count <= 6:
            raise ValueError("Mister X has 2 to 6 players (mrx and 1 to 5 detective players)")
        return [MRX, *det_seat_ids(count - 1)]

    def viewers(self, options: dict[str, Any], seats: list[str]) -> list[str]:
        return [*seats, TEAM]

    def initial_state(
        self, options: dict[str, Any], seats: list[str], setup: dict[str, Any], rng: Rng | None
    ) -> MisterXState:
        return opening.new_state(options, seats, setup, rng)

    def setup_record(self, state: MisterXState) -> dict[str, Any]:
        return opening.setup_record(state)

    def random_setup_choices(
        self, options: dict[str, Any], seats: list[str], rng: Rng
    ) -> dict[str, Any]:
        board = resolve_board(options.get("board", DEFAULT_BOARD))
        mission = rng.choice(sorted(board.missions))
        return {"mission": mission, "start": rng.choice(board.missions[mission].starts)}

    def to_act(self, state: MisterXState) -> list[str]:
        return legal.to_act(state)

    def controller(self, seat: str) -> str:
        return "det1" if seat == TEAM else seat

    def acts_for(self, viewer: str, seat: str) -> bool:
        """The detectives' team view decides for every detective seat and the team's own."""
        if viewer == TEAM:
            return seat != MRX
        return super().acts_for(viewer, seat)

    def chance_fields(self, state: MisterXState, action: Action) -> dict[str, str]:
        return {"tickets": "MX-6.8"} if action.get("type") == "refill" else {}

    def legal_actions(self, state: MisterXState, seat: str) -> list[Action]:
        return legal.legal_actions(state, seat)

    def chance_options(self, state: MisterXState, action: Action) -> list[Action]:
        return legal.chance_options(state, action)

    def chance_draw(self, state: MisterXState, action: Action) -> Draw | None:
        draw = legal.refill_draw(state, action)
        return None if draw is None else Draw("tickets", *draw)

    #: bound straight to the rules: a replay or a search calls it for every action
    apply = staticmethod(rules.apply)

    def is_over(self, state: MisterXState) -> bool:
        return state.winner is not None

    def result(self, state: MisterXState) -> dict[str, Any] | None:
        return rules.result(state)

    def clone(self, state: MisterXState) -> MisterXState:
        return state.clone()

    def view(self, state: MisterXState, viewer: str | None) -> dict[str, Any]:
        return views.view(state, viewer)

    def clock(self, state: MisterXState) -> dict[str, Any]:
        return {"round": state.round, "phase": state.phase}

    def static_view(self, options: dict[str, Any]) -> dict[str, Any]:
        return {"board": views.board_view(resolve_board(options.get("board", DEFAULT_BOARD)))}

    def action_view(self, state_after: MisterXState, action: Action, viewer: str | None) -> Action:
        return views.action_view(state_after, action, viewer)

    def notation(self, action: Action) -> str:
        return notation.notation(action)

    def render_text(self, state: MisterXState, locale: str = DEFAULT_LOCALE) -> str:
        return views.render_text(state, locale)

    def json_schema(self) -> dict[str, Any]:
        return schema.json_schema()

    def form_schema(
        self, options: dict[str, Any], seats: list[str], locale: str = DEFAULT_LOCALE
    ) -> dict[str, Any]:
        return schema.form_schema(options, seats, locale)
