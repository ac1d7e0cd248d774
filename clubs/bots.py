"""The bots as players read them. The engine names its levels ``random``, ``greedy`` and
``search`` (the API, the logs and the player handles such as ``bot-greedy`` keep those
names); a person choosing an opponent picks an easy, a medium or a strong one, in their
language, and is told how it plays."""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import nullcontext

from django.utils import translation
from django.utils.translation import gettext, gettext_lazy

#: the longest bot level a player row keeps (clubs.models.Player.bot)
BOT_LENGTH = 16

#: engine level -> (its name, how it plays), weakest first
LEVELS = {
    "random": (gettext_lazy("easy bot"), gettext_lazy("plays random legal moves")),
    "greedy": (gettext_lazy("medium bot"), gettext_lazy("plays what looks best right now")),
    "search": (
        gettext_lazy("strong bot"),
        gettext_lazy("plays the game out many times in its head before each move"),
    ),
}


def bot_name(bot: str) -> str:
    """The level's name ("strong bot"); a level this page does not know, by its engine name."""
    level = LEVELS.get(bot)
    return str(level[0]) if level else gettext("%(bot)s bot") % {"bot": bot}


def bot_choice(bot: str) -> str:
    """The level as a choice of opponent: its name and how it plays."""
    level = LEVELS.get(bot)
    if level is None:
        return bot_name(bot)
    return gettext("%(name)s: %(how)s") % {"name": level[0], "how": level[1]}


def weakest_first(bots: Iterable[str]) -> list[str]:
    """The levels in the order a person compares them: easy, medium, strong, then others."""
    order = list(LEVELS)
    return sorted(bots, key=lambda bot: (order.index(bot) if bot in order else len(order), bot))


def seat_bot_name(entry: dict) -> str | None:
    """A draft seat's bot as players call it ("strong bot", "strong bot 2"); None for a
    person."""
    bot = entry_bot(entry)
    return player_name(entry["player"], bot) if bot else None


def player_name(handle: str, bot: str) -> str:
    """A player as pages name it: a person (``bot`` blank) by their handle, a bot by its
    level: ``bot-search`` is "strong bot", the second strong bot at a table
    (``bot-search-2``, recorder.services.bot_handles) "strong bot 2", and a bot an
    uploaded log named otherwise "strong bot (deep-x)"."""
    if not bot:
        return handle
    name = bot_name(bot)
    if handle == f"bot-{bot}":
        return name
    number = handle.removeprefix(f"bot-{bot}-")
    if number != handle and number.isdigit():
        return gettext("%(bot)s %(number)s") % {"bot": name, "number": number}
    return gettext("%(bot)s (%(handle)s)") % {"bot": name, "handle": handle}


def names_at_table(seats: list[dict], language: str | None = None) -> dict[str, str]:
    """Each seat of a draft or a log by the name its sentences use: a person's handle, a
    bot's level ("strong bot puts 2 cards into an envelope", not the handle ``bot-search``),
    in ``language`` (the active one by default: a replay's frames name the bots in the
    language they are said in)."""
    with translation.override(language) if language else nullcontext():
        return {entry["seat"]: seat_bot_name(entry) or entry["player"] for entry in seats}


def entry_bot(entry: dict) -> str:
    """The bot level a log's seat entry names (``"bot": "search"``); blank for a person, and
    for a value no level could be (the log format leaves it free)."""
    bot = entry.get("bot")
    return bot if isinstance(bot, str) and 0 < len(bot) <= BOT_LENGTH else ""
