"""Reads of the live tables: a table for its page, a club's open tables and games in
progress, and the one thing a seat is ever sent: :func:`news`, what happened after the
event it last saw and where the game stands, drawn from the engine's view for that
seat's eyes (the public view for a watcher). A socket and a polling page get the same
bytes (:func:`news_text`)."""

from __future__ import annotations

import json
from contextlib import nullcontext
from typing import Any

from django.conf import settings
from django.db.models import Prefetch
from django.utils import translation

from clubs import policy as club_policy
from clubs.bots import names_at_table
from clubs.models import Club
from clubs.policy import AnyUser
from config.sentences import engine_locale, say
from engine import Table, get_game, render
from live import clocks, endings, policy
from live.models import Table as LiveTable
from live.models import TableEvent, TableSeat
from live.services import position_of, seat_entries
from recorder.selectors import seen_position


def table_for(user: AnyUser, table_id: int) -> LiveTable | None:
    """The table if its club is visible to ``user`` (None: answer 404). Whether the user
    may watch it is ``live.policy.can_watch``."""
    table = (
        LiveTable.objects.select_related("club", "created_by", "match")
        .prefetch_related(Prefetch("seats", queryset=TableSeat.objects.select_related("user")))
        .filter(pk=table_id)
        .first()
    )
    if table is None or not club_policy.can_view_club(user, table.club):
        return None
    return table


def club_tables(club: Club, user: AnyUser) -> list[LiveTable]:
    """The club's tables waiting for players and being played, newest first, for its
    members (none for anyone else), each with ``game_name``, ``seat_rows`` and
    ``mine`` (the user holds a seat)."""
    if not user.is_authenticated or club_policy.role_in(user, club) is None:
        return []
    tables = list(
        LiveTable.objects.filter(
            club=club, status__in=[LiveTable.Status.OPEN, LiveTable.Status.PLAYING]
        )
        .prefetch_related(Prefetch("seats", queryset=TableSeat.objects.select_related("user")))
        .order_by("-updated_at", "-id")[:30]
    )
    for table in tables:
        game = get_game(table.game)
        table.game_name = say(game.title()) if game is not None else table.game
        table.seat_rows = seat_rows(table)
        table.mine = policy.seat_of(user, table) is not None
        table.can_abandon = policy.can_abandon(user, table)
        table.free_seats = sum(1 for row in table.seat_rows if row["free"])
    return tables


def seat_rows(table: LiveTable) -> list[dict[str, Any]]:
    """Each seat as players call it (the engine's ``seat_label``) with who plays it: a
    member's handle, a bot by its level ("strong bot"), or free."""
    game = get_game(table.game)
    seats = list(table.seats.all())
    names = names_at_table(
        [{"seat": s.seat, "player": s.player, **({"bot": s.bot} if s.bot else {})} for s in seats]
    )
    words = Table(names, table.options)
    rows = []
    for seat in seats:
        label = render(game.seat_label(seat.seat, words), engine_locale()) if game else seat.seat
        rows.append(
            {
                "seat": seat.seat,
                "label": label,
                "player": names[seat.seat] if not seat.is_free else "",
                "bot": seat.bot or None,
                "free": seat.is_free,
            }
        )
    return rows


# --- what a seat is sent -----------------------------------------------------------------------


def _event_body(
    event: TableEvent, moves: list[dict[str, Any]], rows: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    body: dict[str, Any] = {"n": event.number, "kind": event.kind}
    if event.seat:
        body["seat"] = event.seat
    if event.kind == TableEvent.Kind.SEATED:
        body["player"] = rows[event.seat]["player"]
    if event.kind == TableEvent.Kind.MOVE:
        body["move"] = moves[event.ply - 1]
    return body


def news(table: LiveTable, eyes: str, since: int) -> dict[str, Any]:
    """What ``eyes`` (a seat, or ``public``) is sent about ``table`` after its event
    ``since``: each later event as these eyes see it (a move as ``Game.action_view``
    shows it to them) and where the game stands now (the engine's view for them, who is
    to act, the words to show it with), the clocks and who is at the table, and how it
    ended off the board. Nothing in it is drawn from a fact these eyes could not know: no
    id, no log document; the clocks only from who was to act when, as everyone sees."""
    since = max(0, min(since, table.last_event))
    rows = {row["seat"]: row for row in seat_rows(table)}
    # Up to the table as read: a move committed since has no entry in its moves yet (the
    # push that follows that commit brings it).
    events = list(
        table.events.filter(number__gt=since, number__lte=table.last_event).order_by("number")
    )
    at = clocks.now()
    seats = list(table.seats.all())
    body: dict[str, Any] = {
        "n": table.last_event,
        "status": table.status,
        "eyes": eyes,
        "seats": list(rows.values()),
        **clocks.figures(table, seats, at),
        "presence": {
            seat.seat: here
            for seat in seats
            if table.status == LiveTable.Status.PLAYING
            and (here := clocks.presence(table, seat, at)) is not None
        },
        "ending": {"reason": table.ending, "seat": table.ended_seat} if table.ending else None,
        "claimable": endings.claimable(table, eyes, at),
    }
    if table.status == LiveTable.Status.OPEN or table.seed is None:
        body["events"] = [_event_body(e, [], rows) for e in events]
        body["position"] = None
        return body
    position = position_of(table)
    seen = seen_position(position, seat_entries(table), table.moves, eyes)
    body["events"] = [_event_body(e, seen.moves, rows) for e in events]
    to_act = position.to_act
    body["position"] = {
        "ply": len(seen.moves),
        "to_act": to_act,
        "your_turn": eyes in to_act,
        "is_over": position.is_over,
        "frame": seen.frame,
        "phases": seen.phases,
        "seat_labels": seen.seat_labels,
        "card_words": seen.card_words,
        "result_sentence": seen.result_sentence,
    }
    return body


def news_text(
    table_id: int, user: AnyUser, since: int, language: str | None = None, *, always: bool = False
) -> tuple[bool, str | None, int]:
    """:func:`news` for ``user``'s eyes as the JSON text a socket sends, in ``language`` when
    it is one of the site's: ``(allowed, text, last)``. ``allowed`` is False when the
    user may not watch the table (any more); ``text`` is None when nothing happened after
    ``since`` (unless ``always``: a socket's first message says where the game stands);
    ``last`` is the event number the text brings the client to."""
    table = table_for(user, table_id)
    if table is None or not policy.can_watch(user, table):
        return False, None, since
    if table.last_event <= since and not always:
        return True, None, since
    languages = {code for code, _name in settings.LANGUAGES}
    with translation.override(language) if language in languages else nullcontext():
        body = news(table, policy.eyes(user, table), since)
    return True, json.dumps(body, ensure_ascii=False, separators=(",", ":")), table.last_event
