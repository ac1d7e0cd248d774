"""Who may do what at a live table; whose eyes each person sees it with. The server
decides, for every answer and every socket; the client never chooses a perspective.

- A member of the club opens tables, takes a free seat, and watches the club's tables.
- A seat's person sees with that seat's eyes (the engine's view for it) and plays it.
- Anyone else allowed to watch sees the public view (``engine.PUBLIC``) while the game
  is played. When it ends its seats see everything (``ALL``: the engine's all-seeing
  view); its watchers too, once the club's delay after the end has passed
  (``Club.watchers_see_all_after``).
- The person who opened a table, and the club's organisers, may abandon it, and may
  give a free seat to a guest by a one-time link where the club allows guests.
- A guest who took a seat by such a link watches and plays that table only.
- A seat asks to take back its last move at a table with no bot; the other seats agree
  or decline.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from clubs.models import Club
from clubs.policy import AnyUser, is_organiser, role_in
from engine import PUBLIC
from live.models import Table, TableEvent, TableSeat

#: The all-seeing eyes' name in payloads (the engine calls them None), as the replay's.
ALL = "all"


def can_open_table(user: AnyUser, club: Club) -> bool:
    """Open a table in ``club``: its members."""
    return user.is_authenticated and role_in(user, club) is not None


def can_watch(user: AnyUser, table: Table) -> bool:
    """See a table (its lobby, its game from the public view, or a seat's if held): the
    club's members, and whoever holds one of its seats (a guest who came by a link)."""
    if not user.is_authenticated:
        return False
    return seat_of(user, table) is not None or role_in(user, table.club) is not None


def can_take_seat(user: AnyUser, table: Table) -> bool:
    """Take a free seat: a member, at a table still waiting for players."""
    return can_watch(user, table) and table.status == Table.Status.OPEN


def can_abandon(user: AnyUser, table: Table) -> bool:
    """Abandon a table (whatever its status: the service refuses one already over): the
    person who opened it, or an organiser of its club."""
    return can_watch(user, table) and (
        table.created_by_id == user.pk or is_organiser(user, table.club)
    )


def can_link_seat(user: AnyUser, table: Table) -> bool:
    """Make a one-time link to a free seat, for a guest: the opener of a table still waiting
    for players, or an organiser, in a club that allows guests at its tables."""
    return (
        table.club.guests_at_tables
        and table.status == Table.Status.OPEN
        and can_abandon(user, table)
        and role_in(user, table.club) is not None
    )


def can_ask_takeback(user: AnyUser, table: Table) -> bool:
    """Ask to take back a move, or answer such a request: a person holding a seat at a
    table being played without bots (a bot's reply, once made, is seen: the recorder's
    undo policy, ``recorder.services.REC_UNDO``)."""
    return (
        table.status == Table.Status.PLAYING
        and seat_of(user, table) is not None
        and takes_back(table)
    )


def takes_back(table: Table) -> bool:
    """Whether moves at ``table`` may be taken back at all: only with no bot seated."""
    return not any(seat.bot for seat in table.seats.all())


def seat_of(user: AnyUser, table: Table) -> TableSeat | None:
    """The seat ``user`` holds at ``table``, if any."""
    if not user.is_authenticated:
        return None
    return next((seat for seat in table.seats.all() if seat.user_id == user.pk), None)


def all_seen_from(table: Table) -> datetime | None:
    """When a finished table's watchers see everything: the club's delay after its end
    (None: the game is not over)."""
    if table.status != Table.Status.FINISHED:
        return None
    ended = (
        table.events.filter(kind=TableEvent.Kind.FINISHED)
        .values_list("created_at", flat=True)
        .first()
    )
    if ended is None:  # a finished table always has its event; never reveal by accident
        return None
    return ended + timedelta(minutes=table.club.watchers_see_all_after)


def eyes(user: AnyUser, table: Table, now: datetime | None = None) -> str:
    """The eyes ``user`` sees ``table`` with: their seat's while the game is played, else
    the public view; everything (``ALL``) for its seats once it ended, and for its
    watchers once the club's delay after the end passed."""
    seat = seat_of(user, table)
    if table.status == Table.Status.FINISHED:
        if seat is not None:
            return ALL
        revealed = all_seen_from(table)
        if revealed is not None and (now or timezone.now()) >= revealed:
            return ALL
    return seat.seat if seat is not None else PUBLIC
