"""A person's share of the bots (docs/fair-share.md): games against a bot open at once
(``LANTERN_BOT_DRAFTS_OPEN``) and moves the bots make for them a minute
(``LANTERN_BOT_MOVES_PER_MINUTE``, counted from the writes' ``bot_moves``). Past either,
config.errors.OverBudget (429). Counted under a lock on the person's row
(config.fair_share), so two requests at once cannot both slip under a limit; one write
may take the count a few moves past the limit (the bots' replies to one move are not
cut short), and the next write waits."""

from __future__ import annotations

import math
from datetime import timedelta
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


def open_bot_drafts(user: Any) -> int:
    """The games against a bot ``user`` has open (recording, a seat played by a bot)."""
    seats = Draft.objects.filter(
        created_by=user, status=Draft.Status.RECORDING, chance=Draft.Chance.SERVER
    ).values_list("seats", flat=True)
    return sum(1 for entries in seats if any(entry.get("bot") for entry in entries))


def admit_bot_draft(user: Any) -> None:
    """Within the transaction that opens a game against a bot for ``user``."""
    lock_person(user)
    limit = settings.LANTERN_BOT_DRAFTS_OPEN
    count = open_bot_drafts(user)
    if count < limit:
        return
    raise OverBudget(
        format_lazy(
            ngettext_lazy(
                "You have {count} game against a bot open, and the limit is {limit} per person. Finish or "
                "abandon one of them (from the club's page), then try again.",
                "You have {count} games against a bot open, and the limit is {limit} per person. Finish or "
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
    if (made["moves"] or 0) < limit:
        return
    wait = max(1, math.ceil((made["first"] + MINUTE - now).total_seconds()))
    raise OverBudget(
        format_lazy(
            ngettext_lazy(
                "The bots may make {limit} moves a minute for one person, and have made {count} for you in "
                "the last minute. Try again in {wait} second.",
                "The bots may make {limit} moves a minute for one person, and have made {count} for you in "
                "the last minute. Try again in {wait} seconds.",
                "wait",
            ),
            limit=limit,
            count=made["moves"],
            wait=wait,
        ),
        retry_after=wait,
        limit=limit,
    )
