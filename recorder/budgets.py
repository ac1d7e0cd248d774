"""A person's share of the bots (docs/fair-share.md): games against a bot open at once
(``LANTERN_BOT_DRAFTS_OPEN``) and moves the bots make for them a minute
(``LANTERN_BOT_MOVES_PER_MINUTE``, counted from the writes' ``bot_moves``). Past either,
config.errors.OverBudget (429). Counted under a lock on the person's row
(config.fair_share), so two requests at once cannot both slip under a limit; one write
may take the count a few moves past the limit (the bots' replies to one move are not
cut short), and the next write waits.

The budgets are one per person across the apps that play bots: an app above the recorder
(the live tables, ``live.budgets``) adds its own counts with :func:`count_also` from its
``AppConfig.ready``, so the recorder counts them without importing it."""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Min, Sum
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import ngettext_lazy

from config.errors import OverBudget
from config.fair_share import lock_person
from recorder.models import Draft, DraftWrite

#: the window of LANTERN_BOT_MOVES_PER_MINUTE
MINUTE = timedelta(minutes=1)
#: Retry-After for a person at their limit of open games: a game is finished or
#: abandoned at a person's pace, not the clock's
OPEN_GAMES_RETRY_AFTER = 60

#: Another app's games against a bot a person has open.
OpenGames = Callable[[Any], int]
#: Another app's bot moves made for a person since a time: (how many, the earliest's time).
BotMovesSince = Callable[[Any, datetime], tuple[int, datetime | None]]
_open_games: list[OpenGames] = []
_bot_moves: list[BotMovesSince] = []


def count_also(open_games: OpenGames, bot_moves_since: BotMovesSince) -> None:
    """Count another app's games against a bot in the same budgets (once per counter)."""
    if open_games not in _open_games:
        _open_games.append(open_games)
    if bot_moves_since not in _bot_moves:
        _bot_moves.append(bot_moves_since)


def open_bot_drafts(user: Any) -> int:
    """The games against a bot ``user`` has open (recording, a seat played by a bot)."""
    seats = Draft.objects.filter(
        created_by=user, status=Draft.Status.RECORDING, chance=Draft.Chance.SERVER
    ).values_list("seats", flat=True)
    return sum(1 for entries in seats if any(entry.get("bot") for entry in entries))


def open_bot_games(user: Any) -> int:
    """The games against a bot ``user`` has open: drafts and the other apps' games."""
    return open_bot_drafts(user) + sum(count(user) for count in _open_games)


def admit_bot_game(user: Any) -> None:
    """Within the transaction that opens a game against a bot for ``user``."""
    lock_person(user)
    limit = settings.LANTERN_BOT_DRAFTS_OPEN
    count = open_bot_games(user)
    if count < limit:
        return
    raise OverBudget(
        format_lazy(
            ngettext_lazy(
                "You have {count} game against a bot open, and the limit is {limit} per person. "
                "Finish or "
                "abandon one of them (from the club's page), then try again.",
                "You have {count} games against a bot open, and the limit is {limit} per person. "
                "Finish or "
                "abandon one of them (from the club's page), then try again.",
                "count",
            ),
            count=count,
            limit=limit,
        ),
        retry_after=OPEN_GAMES_RETRY_AFTER,
        limit=limit,
    )


def admit_bot_moves(user: Any) -> None:
    """Within the transaction of a write that makes bots move for ``user``."""
    lock_person(user)
    limit = settings.LANTERN_BOT_MOVES_PER_MINUTE
    now = timezone.now()
    recent = DraftWrite.objects.filter(user=user, bot_moves__gt=0, created_at__gt=now - MINUTE)
    made = recent.aggregate(moves=Sum("bot_moves"), first=Min("created_at"))
    count, firsts = made["moves"] or 0, [made["first"]]
    for moves_since in _bot_moves:
        more, first = moves_since(user, now - MINUTE)
        count, firsts = count + more, [*firsts, first]
    if count < limit:
        return
    first = min((when for when in firsts if when is not None), default=now)
    wait = max(1, math.ceil((first + MINUTE - now).total_seconds()))
    raise OverBudget(
        format_lazy(
            ngettext_lazy(
                "The bots may make {limit} moves a minute for one person, and have made {count} "
                "for you in "
                "the last minute. Try again in {wait} second.",
                "The bots may make {limit} moves a minute for one person, and have made {count} "
                "for you in "
                "the last minute. Try again in {wait} seconds.",
                "wait",
            ),
            limit=limit,
            count=count,
            wait=wait,
        ),
        retry_after=wait,
        limit=limit,
    )
