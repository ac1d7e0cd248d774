"""The bots as players read them. The engine names its levels ``random``, ``greedy`` and
``search`` (the API, the logs and the player handles such as ``bot-greedy`` keep those
names); a person choosing an opponent picks an easy, a medium or a strong one, in their
language, and is told how it plays."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext, gettext_lazy

#: engine level -> (its name, how it plays), weakest first
LEVELS = {
    "random": (gettext_lazy("easy bot"), gettext_lazy("plays random legal moves")),
    "greedy": (gettext_lazy("medium bot"), gettext_lazy("plays what looks best right now")),
    "search": (gettext_lazy("strong bot"),
               gettext_lazy("plays the game out many times in its head before each move")),
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
    """A draft seat's bot as players call it ("strong bot"); None for a person."""
    return bot_name(entry["bot"]) if entry.get("bot") else None


def names_at_table(seats: list[dict]) -> dict[str, str]:
    """Each seat of a draft by the name its sentences use: a person's handle, a bot's
    level ("strong bot puts 2 cards into an envelope", not the handle ``bot-search``)."""
    return {entry["seat"]: seat_bot_name(entry) or entry["player"] for entry in seats}
