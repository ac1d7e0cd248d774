"""Filters that name games, seats and results as the engine does (games.display)."""

from __future__ import annotations

from typing import Any

from django import template

from games import display

register = template.Library()


def _players(match: Any) -> dict[str, str]:
    """Each seat's player as pages name them (a bot by its level: ``Player.name``)."""
    return {s.seat: s.player.name for s in match.seats.all()}


@register.filter
def game_name(game_id: str) -> str:
    return display.game_name(game_id)


@register.filter
def upload_error(code: str) -> str:
    """``{{ row.error|upload_error }}``: an upload's error code as the reader's language
    names it ("Illegal action", 不正なアクション)."""
    from games.models import Upload

    return str(dict(Upload.Error.choices).get(code, code))


@register.filter
def join_words(items: list[str]) -> str:
    """``{{ names|join_words }}``: "a, b and c" in the reader's language."""
    return display.words(list(items))


@register.filter
def result_sentence(match: Any) -> str:
    """``{{ match|result_sentence }}``: "Mister X (alice) escaped after 24 moves."."""
    return display.result_sentence(
        match.game, match.status, match.result, _players(match), getattr(match, "options", None)
    )


@register.filter
def seat_role(seat: str, match: Any) -> str:
    """``{{ seat.seat|seat_role:match }}``: the seat as the game calls it."""
    return display.seat_role(match.game, seat, _players(match), getattr(match, "options", None))


@register.filter
def role_in(seat: str, game_id: str) -> str:
    """``{{ seat|role_in:tournament.game }}``: a seat of ``game_id`` by its name, where no
    match is at hand (a pairing not played yet)."""
    return display.seat_role(game_id, seat, {})


@register.filter
def rating_role(role: str, game_id: str) -> str:
    """``{{ role|rating_role:ladder.game }}``: a ladder's role by the game's name for it."""
    return display.rating_role(game_id, role)
