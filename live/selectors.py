"""Reads of the live tables: a table for its page, a club's open tables and games in
progress, and the one thing a seat is ever sent: :func:`news`, what happened after the
event it last saw and where the game stands, drawn from the engine's view for that
seat's eyes (the public view for a watcher). A socket and a polling page get the same
bytes (:func:`news_text`)."""

from __future__ import annotations

import json
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db.models import Prefetch, prefetch_related_objects
from django.utils import translation

from clubs import policy as club_policy
from clubs.bots import names_at_table
from clubs.models import Club
from clubs.policy import AnyUser
from config.sentences import engine_locale, say
from engine import PUBLIC, Table, end_result, get_game, render
from live import clocks, endings, policy, sessions
from live.models import Table as LiveTable
from live.models import TableEvent, TableSeat
from live.services import position_of, seat_entries
from recorder.selectors import SeenPosition, seen_position


def table_read(table_id: int) -> LiveTable | None:
    """The table with its club and seats (their people), whoever asks: the caller decides
    who may see it (:func:`visible`)."""
    table = table_row(table_id)
    return with_seats(table) if table is not None else None


def table_row(table_id: int) -> LiveTable | None:
    """The table's row with its club, opener and match: :func:`table_read` without the
    seats (``live.shared_reads`` reads them only once it knows nothing fell due)."""
    return (
        LiveTable.objects.select_related("club", "created_by", "match").filter(pk=table_id).first()
    )


def with_seats(table: LiveTable) -> LiveTable:
    """``table`` with its seats and their people read (one query)."""
    prefetch_related_objects(
        [table], Prefetch("seats", queryset=TableSeat.objects.select_related("user"))
    )
    return table


def visible(user: AnyUser, table: LiveTable) -> bool:
    """Does ``table`` exist for ``user``: its club is visible to them, or they hold one of
    its seats (a guest seated by a link sees their table of a private club). Whether they
    may watch it is ``live.policy.can_watch``."""
    return policy.seat_of(user, table) is not None or club_policy.can_view_club(user, table.club)


def table_for(user: AnyUser, table_id: int) -> LiveTable | None:
    """The table if :func:`visible` to ``user`` (None: answer 404)."""
    table = table_read(table_id)
    return table if table is not None and visible(user, table) else None


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
        table.clock_label = clocks.label(table)
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
    event: TableEvent,
    seen: SeenPosition | None,
    rows: dict[str, dict[str, Any]],
    undone: set[int],
) -> dict[str, Any]:
    body: dict[str, Any] = {"n": event.number, "kind": event.kind}
    if event.seat:
        body["seat"] = event.seat
    if event.kind == TableEvent.Kind.SEATED:
        body["player"] = rows[event.seat]["player"]
    if event.kind == TableEvent.Kind.MOVE:
        if event.number in undone:
            # Taken back later (a taken-back event follows): the move is gone from the
            # table, so nothing of it is drawn, for anyone.
            body["undone"] = True
        else:
            assert seen is not None  # a move is made at a dealt table
            body["move"] = seen.moves[event.ply - seen.first]
    if event.kind == TableEvent.Kind.TAKEN_BACK:
        body["ply"] = event.ply
    return body


def _undone(events: list[TableEvent]) -> set[int]:
    """The numbers of the move events among ``events`` that a later one took back (a
    take-back follows the moves it took back, so both are in any run of events)."""
    undone: set[int] = set()
    back_to: int | None = None  # the lowest ply taken back after the event looked at
    for event in reversed(events):
        if event.kind == TableEvent.Kind.TAKEN_BACK:
            back_to = event.ply if back_to is None else min(back_to, event.ply)
        elif event.kind == TableEvent.Kind.MOVE and back_to is not None and event.ply >= back_to:
            undone.add(event.number)
    return undone


def takeback_body(table: LiveTable) -> dict[str, Any] | None:
    """The take-back asked for now, if any: who asked, who agreed, whom it waits for."""
    if not table.takeback_by:
        return None
    others = [s.seat for s in table.seats.all() if s.seat != table.takeback_by]
    return {
        "by": table.takeback_by,
        "agreed": list(table.takeback_agreed),
        "waiting": [seat for seat in others if seat not in table.takeback_agreed],
    }


@dataclass
class Drawn:
    """What was drawn from one read of a table, for those who share that read
    (``live.shared_reads``): its events after each ``since``, and each text by (eyes,
    since, language). A text is only ever taken for the eyes it was drawn with."""

    events: dict[int, list[TableEvent]] = field(default_factory=dict)
    texts: dict[tuple[str, int, str | None], str] = field(default_factory=dict)

    @classmethod
    def after_write(cls, table: LiveTable) -> Drawn:
        """For the table as a write left it: the events that write added (``live.services``
        keeps them on the table) are those after the one before them, read no more."""
        drawn = cls()
        written = list(table.__dict__.get("events_written", ()))
        if written:
            since = written[0].number - 1
            # Exactly the table's last ones, in order (never a write's that was undone).
            if [e.number for e in written] == list(range(since + 1, table.last_event + 1)):
                drawn.events[since] = written
        return drawn


def news(table: LiveTable, eyes: str, since: int, drawn: Drawn | None = None) -> dict[str, Any]:
    """What ``eyes`` (a seat, ``public``, or ``all`` once the game is over: see
    ``live.policy.eyes``) is sent about ``table`` after its event ``since``: each later
    event as these eyes see it (a move as ``Game.action_view`` shows it to them; a move
    taken back since, nothing of it) and where the game stands now (the engine's view for
    them, who is to act, the words to show it with), the take-back asked for, the clocks
    and who is at the table, and how it ended off the board. Nothing in it is drawn from
    a fact these eyes could not know: no id, no log document; the clocks only from who
    was to act when, as everyone sees."""
    since = max(0, min(since, table.last_event))
    rows = {row["seat"]: row for row in seat_rows(table)}
    # Up to the table as read: a move committed since has no entry in its moves yet (the
    # push that follows that commit brings it).
    events = drawn.events.get(since) if drawn is not None else None
    if events is None:
        events = list(
            table.events.filter(number__gt=since, number__lte=table.last_event).order_by("number")
        )
        if drawn is not None:
            drawn.events[since] = events
    undone = _undone(events)
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
        "takeback": takeback_body(table),
    }
    if eyes == PUBLIC and policy.all_seen_from(table) is not None:
        # A watcher of a finished game: everything shows once the club's delay passes
        # (the page asks again now and then; the moment itself is sent to nobody).
        body["sees_all_later"] = True
    if table.status == LiveTable.Status.OPEN or table.seed is None:
        body["events"] = [_event_body(e, None, rows, undone) for e in events]
        body["position"] = None
        return body
    position = position_of(table)
    engine_eyes = None if eyes == policy.ALL else eyes
    # Only the moves sent are described (the sentences are most of a drawing's cost).
    first = min(
        (e.ply for e in events if e.kind == TableEvent.Kind.MOVE and e.number not in undone),
        default=len(table.actions),
    )
    seen = seen_position(position, seat_entries(table), table.moves, engine_eyes, first)
    body["events"] = [_event_body(e, seen, rows, undone) for e in events]
    to_act = position.to_act
    body["position"] = {
        "ply": seen.frame["ply"],
        "to_act": to_act,
        "your_turn": eyes in to_act,
        "is_over": position.is_over,
        "frame": seen.frame,
        "phases": seen.phases,
        "seat_labels": seen.seat_labels,
        "card_words": seen.card_words,
        "result_sentence": seen.result_sentence,
    }
    if table.ending in (LiveTable.Ending.TIME, LiveTable.Ending.CLAIM):
        body["position"].update(is_over=True, result_sentence=_ending_sentence(table, position))
    sessions.keep(table.pk, position.session)  # drawn from, never changed: the next read's
    return body


def _ending_sentence(table: LiveTable, position: Any) -> str:
    """How a game ended by time or claim, as the engine says it (LIVE-1.1, LIVE-1.2)."""
    entries = seat_entries(table)
    end = {"reason": table.ending, "seat": table.ended_seat}
    result = end_result(position.game, position.session.state, [e["seat"] for e in entries], end)
    words = Table(names_at_table(entries), table.options)
    return render(position.game.describe_result(result, words), engine_locale())


def news_text(
    table: LiveTable | None,
    user: AnyUser,
    since: int,
    language: str | None = None,
    *,
    always: bool = False,
    eyes_before: str | None = None,
    drawn: Drawn | None = None,
) -> tuple[bool, str | None, int, str | None]:
    """:func:`news` of ``table`` (:func:`table_read`) for ``user``'s eyes as the JSON text a
    socket sends, in ``language`` when it is one of the site's: ``(allowed, text, last,
    eyes)``. ``allowed`` is False when the user may not watch the table (any more);
    ``text`` is None when nothing happened after ``since`` (unless ``always``: a socket's
    first message says where the game stands); ``last`` is the event number the text
    brings the client to; ``eyes`` whose eyes it is drawn with. When they see everything
    and ``eyes_before`` did not (the game ended), the text tells everything again from
    the first event, for the new eyes. ``drawn``: what was drawn from this same read of
    the table already (:class:`Drawn`), shared by the sockets that heard the same push."""
    if table is None or not visible(user, table) or not policy.can_watch(user, table):
        return False, None, since, None
    eyes = policy.eyes(user, table)
    if eyes == policy.ALL and eyes_before not in (None, policy.ALL):
        since, always = 0, True  # every move looks otherwise now: all of them again
    if table.last_event <= since and not always:
        return True, None, since, eyes
    languages = {code for code, _name in settings.LANGUAGES}
    language = language if language in languages else None
    key = (eyes, since, language)
    text = drawn.texts.get(key) if drawn is not None else None
    if text is None:
        with translation.override(language) if language else nullcontext():
            body = news(table, eyes, since, drawn)
        text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
        if drawn is not None:
            drawn.texts[key] = text
    return True, text, table.last_event, eyes
