"""Why a pairing was made, said to each reader in their language.

The pairing program (``tournaments.pairing``, pure Python) keeps its explanation as what
to say (``pairing.Said``: English msgids marked for the site's catalog, with their
values), and ``Pairing.why`` stores that; this module says it in the active language
(``LanguageMiddleware`` activates the reader's) when the round page or the API is read.
Roles and seats are named as the game names them at the table (Cryptid, 科学者,
Мистер Икс), scores with their unit (1 pt, 2 очка), lists as the language joins them.
"""

from __future__ import annotations

from typing import Any

from django.utils import formats
from django.utils.translation import gettext, ngettext, pgettext

from games.display import rating_role, seat_role, words


def say(said: Any, game_id: str) -> str:
    """``said`` (a ``pairing.Said`` or a plain value) in the active language; ``game_id``
    names the event's roles."""
    if not isinstance(said, dict):
        return str(said)
    if "role" in said:
        if said.get("seats"):  # a seat of a table: its name depends on the table's seats
            return seat_role(game_id, said["role"], dict.fromkeys(said["seats"], ""))
        return rating_role(game_id, said["role"])
    if "points" in said:
        return points(said["points"])
    if "list" in said:
        items = [say(item, game_id) for item in said["list"]]
        if said["join"] == "and":
            return words(items)
        if said["join"] == "plus":  # the terms of a sum: a formula, the same in every language
            return " + ".join(items)
        if said["join"] == "comma":
            return pgettext("between the items of a list", ", ").join(items)
        return pgettext("between the clauses of a pairing's explanation", "; ").join(items)
    if "plain" in said:  # a row stored before explanations were kept as what to say
        return str(said["plain"])
    params = said.get("params") or {}
    if "plural" in said:
        template = ngettext(said["id"], said["plural"], int(params.get("count", 0)))
    else:
        template = gettext(said["id"])
    try:
        return template.format(**{name: say(value, game_id) for name, value in params.items()})
    except (KeyError, IndexError, ValueError):  # a translation that lost a placeholder: English
        return said["id"].format(**{name: say(value, game_id) for name, value in params.items()})


def points(value: float) -> str:
    """A score with its unit in the reader's language: ``1 pt``, ``2.5 pts``, ``2 очка``."""
    if float(value).is_integer():
        count = int(value)
        return ngettext("%(points)s pt", "%(points)s pts", count) % {"points": count}
    # A half point and the like: the plural form every language uses for fractions.
    return pgettext("a score that is not a whole number", "%(points)s pts") % {
        "points": formats.number_format(value)}


def explanation(why: dict[str, Any], english: str, game_id: str) -> str:
    """A pairing's explanation for its reader: ``why`` said in their language, or the
    English text of a pairing that kept none."""
    return say(why, game_id) if why else english

