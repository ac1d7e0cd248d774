"""Who may see a club's upload attempts and imports (the rejections): its organisers, and
each uploader their own. Operators see every upload (the dashboard links its rejections
and slowest validations to them, in any club); an operator reading a private club's
upload is written to that club's audit trail. The roles come from ``clubs.policy``.

Who may see a match's hidden facts (its log, its all-seeing and seats' replays, its
analysis): whoever sees its club, except a game played at a live table, whose watchers
see only what a spectator saw (the replay's public perspective) until the club's delay
after its end has passed (``Club.watchers_see_all_after``), as at the table itself
(``live.policy.eyes``). The people who sat at it see it all at once."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from clubs.models import Club
from clubs.policy import AnyUser, can_import, can_operate, can_view_club, role_in
from config.errors import AppError
from games.models import Import, Match, MatchSeat, Upload

#: The time now; tests put a fixed clock of their own here (``monkeypatch``).
now = timezone.now


def can_see_upload(user: AnyUser, upload: Upload) -> bool:
    if can_operate(user):
        return True
    if not can_view_club(user, upload.club):
        return False
    return can_import(user, upload.club) or (
        user.is_authenticated and upload.uploaded_by_id == user.pk
    )


def is_staff_reading_private_upload(user: AnyUser, upload: Upload) -> bool:
    """An operator reading an upload of a private club they could not otherwise see (not
    its member, not its uploader): allowed — the dashboard links rejections in any club —
    and written to that club's audit trail, which its organisers read."""
    if not can_operate(user) or upload.club.is_public:
        return False
    if role_in(user, upload.club) is not None and not user.is_superuser:
        return False
    return upload.uploaded_by_id != user.pk


def can_see_import(user: AnyUser, run: Import) -> bool:
    return can_view_club(user, run.club) and can_import(user, run.club)


def hidden_until(match: Match) -> datetime | None:
    """When the hidden facts of ``match`` open to everyone who sees its club: the club's
    delay after the game ended at a live table; None for a match with no delay (uploaded,
    recorded, or its delay passed)."""
    if match.ended_at_table is None:
        return None
    opens = match.ended_at_table + timedelta(minutes=match.club.watchers_see_all_after)
    return opens if now() < opens else None


def sat_at(user: AnyUser, match: Match) -> bool:
    """Whether ``user`` held a seat of ``match`` (a handle of its club linked to them)."""
    return (
        user.is_authenticated
        and MatchSeat.objects.filter(match=match, player__user_id=user.pk).exists()
    )


def opens_to(user: AnyUser, match: Match) -> datetime | None:
    """When the hidden facts of ``match`` open to ``user`` (who sees its club); None: they
    see them now (they sat at it, or nothing is kept back)."""
    opens = hidden_until(match)
    return None if opens is None or sat_at(user, match) else opens


def sees_hidden(user: AnyUser, match: Match) -> bool:
    """Whether ``user`` (who sees the club) may see the hidden facts of ``match`` now."""
    return opens_to(user, match) is None


def hidden_from(user: AnyUser, club: Club) -> Q:
    """Filter on Match (of ``club``): the matches whose hidden facts ``user`` may not see
    now, for a list that hands out logs (the club's export, an event's games)."""
    since = now() - timedelta(minutes=club.watchers_see_all_after)
    hidden = Q(ended_at_table__gt=since)
    if user.is_authenticated:
        hidden &= ~Q(pk__in=MatchSeat.objects.filter(player__user_id=user.pk).values("match_id"))
    return hidden


def without_hidden(user: AnyUser, club: Club, matches: QuerySet[Match]) -> QuerySet[Match]:
    """``matches`` of ``club`` less those whose hidden facts ``user`` may not see now."""
    return matches.exclude(hidden_from(user, club))


class HiddenForNow(AppError):
    """The hidden facts of a game played at a live table, asked for by someone who did
    not sit at it before the club's delay after its end has passed: 403 ``hidden``, with
    ``visible_from`` (ISO 8601) saying when they open."""

    code = "hidden"


def require_hidden(user: AnyUser, match: Match) -> None:
    """Raise :class:`HiddenForNow` unless ``user`` may see the hidden facts of ``match``."""
    opens = opens_to(user, match)
    if opens is None:
        return
    raise HiddenForNow(
        gettext(
            "what was hidden in this game shows to those who did not play it from %(time)s "
            "(the club's delay after a game played online); until then, only what a "
            "spectator saw"
        )
        % {"time": opens.isoformat()},
        details={"visible_from": opens.isoformat()},
    )
