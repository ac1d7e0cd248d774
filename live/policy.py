"""Who may do what at a live table; whose eyes each person sees it with. The server
decides, for every answer and every socket; the client never chooses a perspective.

- A member of the club opens tables, takes a free seat, and watches the club's tables.
- A seat's person sees with that seat's eyes (the engine's view for it) and plays it.
- Anyone else allowed to watch sees the public view (``engine.PUBLIC``).
- The person who opened a table, and the club's organisers, may abandon it.
"""

from __future__ import annotations

from clubs.models import Club
from clubs.policy import AnyUser, is_organiser, role_in
from engine import PUBLIC
from live.models import Table, TableSeat


def can_open_table(user: AnyUser, club: Club) -> bool:
    """Open a table in ``club``: its members."""
    return user.is_authenticated and role_in(user, club) is not None


def can_watch(user: AnyUser, table: Table) -> bool:
    """See a table (its lobby, its game from the public view, or a seat's if held): the
    club's members."""
    return user.is_authenticated and role_in(user, table.club) is not None


def can_take_seat(user: AnyUser, table: Table) -> bool:
    """Take a free seat: a member, at a table still waiting for players."""
    return can_watch(user, table) and table.status == Table.Status.OPEN


def can_abandon(user: AnyUser, table: Table) -> bool:
    """Abandon a table (whatever its status: the service refuses one already over): the
    person who opened it, or an organiser of its club."""
    return can_watch(user, table) and (
        table.created_by_id == user.pk or is_organiser(user, table.club)
    )


def seat_of(user: AnyUser, table: Table) -> TableSeat | None:
    """The seat ``user`` holds at ``table``, if any."""
    if not user.is_authenticated:
        return None
    return next((seat for seat in table.seats.all() if seat.user_id == user.pk), None)


def eyes(user: AnyUser, table: Table) -> str:
    """The engine viewer ``user`` sees ``table`` with: their seat, else the public view."""
    seat = seat_of(user, table)
    return seat.seat if seat is not None else PUBLIC
