"""Why a pairing was made, and the arithmetic of a tie-break, said to each reader in their
language.

The pairing program (``tournaments.pairing``, pure Python) and the standings keep what they
say as the engine's messages whose ids are the site's msgids (``pairing.explanations``),
and ``Pairing.why`` stores that; this module says it in the active language
(``LanguageMiddleware`` activates the reader's) when a page or the API is read. Roles and
seats are named as the game names them at the table (Cryptid, 科学者, Мистер Икс), scores
with their unit (1 pt, 2 очка), lists as the language joins them.
"""

from __future__ import annotations

from typing import Any

from django.utils import formats
from django.utils.translation import gettext, ngettext, pgettext

from games.display import rating_role, seat_role, words
from tournaments.pairing import PLURALS
from tournaments.pairing.explanations import CLAUSES, LISTING, ROLE, SCORE, SEAT, TERMS


def say(said: Any, game_id: str) -> str:
    """``said`` (a message, a list of them, or a plain value) in the active language;
    ``game_id`` names the event's roles."""
    if isinstance(said, list):
        return words([say(item, game_id) for item in said])
    if not isinstance(said, dict):
        return str(said)
    kind, params = said["id"], said.get("params") or {}
    if kind == SEAT:  # a seat of a table: its name depends on the table's seats
        return seat_role(game_id, params["seat"], dict.fromkeys(params["seats"], ""))
    if kind == ROLE:
        return rating_role(game_id, params["role"])
    if kind == SCORE:
        return points(params["points"])
    if kind in (LISTING, CLAUSES, TERMS):
        items = [say(item, game_id) for item in params["items"]]
        if kind == TERMS:  # the terms of a sum: a formula, the same in every language
            return " + ".join(items)
        if kind == LISTING:
            return pgettext("between the items of a list", ", ").join(items)
        return pgettext("between the clauses of a pairing's explanation", "; ").join(items)
    if kind in PLURALS:
        template = ngettext(kind, PLURALS[kind], int(params.get("count", 0)))
    else:
        template = gettext(kind)
    values = {name: say(value, game_id) for name, value in params.items()}
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError):  # a translation that lost a placeholder: English
        return (PLURALS[kind] if kind in PLURALS and params.get("count") != 1 else kind).format(
            **values
        )


def points(value: float) -> str:
    """A score with its unit in the reader's language: ``1 pt``, ``2.5 pts``, ``2 очка``."""
    if float(value).is_integer():
        count = int(value)
        return ngettext("%(points)s pt", "%(points)s pts", count) % {"points": count}
    # A half point and the like: the plural form every language uses for fractions.
    return pgettext("a score that is not a whole number", "%(points)s pts") % {
        "points": formats.number_format(value)
    }


def explanation(why: dict[str, Any], english: str, game_id: str) -> str:
    """A pairing's explanation for its reader: ``why`` said in their language, or the
    English text of a pairing that kept none (``{"plain": …}``, from before it was kept)."""
    if not why:
        return english
    return str(why["plain"]) if "plain" in why else say(why, game_id)
