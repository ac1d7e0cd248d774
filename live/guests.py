"""Guests at a club's tables, by one-time seat links: where the club allows guests
(``Club.guests_at_tables``), the person who opened a table waiting for players (or an
organiser) makes a link to one of its free seats; whoever opens it first takes the seat,
signed in or not, and the link is spent.

The token is ``secrets.token_urlsafe`` (32 bytes), shown once to whoever made the link;
only its SHA-256 is stored. Spent once: the table's row lock orders two clicks, and the
link is marked used by a conditional update (``used_at IS NULL``), so a second taker
finds nothing to take even outside that lock. A person who is not signed in gets a guest
account of their own (no password: it lives in their session) and a guest handle in the
club (``clubs.services.guest_player``); a guest sees that table only
(``live.policy.can_watch``).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from clubs import services as club_services
from clubs.policy import role_in
from live import policy
from live.models import SeatLink, Table
from live.services import (
    LIVE_SEATS,
    ClosedTable,
    TableIllegal,
    TableInvalid,
    _save,
    _seat,
    _start,
)

#: Rule id of the seat links' refusals.
LIVE_LINK = "LIVE-LINK"

#: The longest name a guest may give (a club handle has at most 64 characters, and a
#: number may be added to it).
NAME_LENGTH = 40


def token_hash(token: str) -> str:
    """How a link's token is stored: its SHA-256, in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def make_link(table_id: int, user: Any, seat: str) -> str:
    """A one-time link's token for the free ``seat`` of a table waiting for players (a
    link made before for that seat and not used is void from now). The caller checks
    ``live.policy.can_link_seat``."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if table.status != Table.Status.OPEN:
            raise ClosedTable(gettext("this table is not waiting for players any more"))
        free = {s.seat for s in table.seats.all() if s.is_free}
        if seat not in free:
            raise TableIllegal(gettext("that seat is not free"), rule=LIVE_SEATS)
        SeatLink.objects.filter(table=table, seat=seat, used_at__isnull=True).delete()
        token = secrets.token_urlsafe(32)
        SeatLink.objects.create(
            table=table, seat=seat, token_hash=token_hash(token), created_by=user
        )
    return token


def waiting_link(token: str) -> SeatLink | None:
    """The link ``token`` names, if it was made and is not spent yet."""
    if not isinstance(token, str) or not token or len(token) > 100:
        return None
    return (
        SeatLink.objects.select_related("table__club")
        .filter(token_hash=token_hash(token), used_at__isnull=True)
        .first()
    )


def guest_account(name: str) -> Any:
    """A new account for a person who opened a seat link without being signed in, named
    after the name they gave (``guest-Kenji``, ``guest-Kenji-2``…: what the site's header
    shows them), with no password (the session it is signed into holds it)."""
    users = get_user_model()
    word = re.sub(r"[^\w.@+-]+", "_", name).strip("_")[:NAME_LENGTH] or "guest"
    base = f"guest-{word}"
    username, n = base, 1
    while users.objects.filter(username=username).exists():
        n += 1
        username = f"{base}-{n}"
    return users.objects.create_user(username=username, password=None)


def clean_name(name: Any) -> str:
    """The name a guest gave, as a handle of the club may read (refused: empty or long)."""
    name = " ".join(str(name or "").split())
    if not name:
        raise TableInvalid(gettext("give the name you play under"), field="name")
    if len(name) > NAME_LENGTH:
        raise TableInvalid(
            gettext("a name has at most %(count)s characters") % {"count": NAME_LENGTH},
            field="name",
        )
    return name


def take_by_link(token: str, user: Any, name: str | None = None) -> tuple[Table, Any]:
    """``user`` (None: a person not signed in, who gets a guest account) takes the seat
    the link ``token`` names, and the link is spent; the last seat taken deals the game.
    A member of the club plays as their handle; anyone else as a guest handle: ``name``
    (a signed-in person's user name when not given). The table and who sat down.
    Refused, nothing changes (no account made): a link unknown or spent (LIVE-LINK), a
    table no longer waiting, a person seated there already, no name from a guest."""
    link = waiting_link(token)
    if link is None:
        raise TableIllegal(
            gettext("this seat link is not valid: it was used already, or replaced"),
            rule=LIVE_LINK,
        )
    if user is None:
        name = clean_name(name)
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=link.table_id)
        if table.status != Table.Status.OPEN:
            raise ClosedTable(gettext("this table is not waiting for players any more"))
        if user is None:
            user = guest_account(name)
        elif policy.seat_of(user, table) is not None:
            raise TableIllegal(gettext("you already have a seat at this table"), rule=LIVE_SEATS)
        spent = SeatLink.objects.filter(pk=link.pk, used_at__isnull=True).update(
            used_at=timezone.now(), used_by=user
        )
        free = [s for s in table.seats.all() if s.is_free]
        if not spent or link.seat not in {s.seat for s in free}:
            raise TableIllegal(
                gettext("this seat link is not valid: it was used already, or replaced"),
                rule=LIVE_LINK,
            )
        handle = None
        if role_in(user, table.club) is None:
            wanted = clean_name(name) if name else user.get_username()
            handle = club_services.guest_player(user, table.club, user, wanted).handle
        _seat(table, user, link.seat, handle)
        _save(table, _start(table) if len(free) == 1 else None)
    return table, user
