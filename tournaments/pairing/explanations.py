"""Why a table was made, kept as what to say so that each reader is told it in their
language (``tournaments.explanations`` says it), and said in English."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

#: A sentence kept as what to say, so that each reader is told it in their language:
#: ``{"id": msgid, "params": {...}}``, the msgid an English template with ``{name}``
#: placeholders marked for the site's catalog; a plural adds ``"plural"`` and chooses by
#: ``params["count"]``. A parameter is text or a number written as it is (a player's
#: name), another sentence, or one of: ``{"role": id}`` (a role or seat, named as the
#: game names it; ``"seats"`` lists the table's seats when the name depends on them),
#: ``{"points": n}`` (a score, with its unit), ``{"list": [...], "join": "and" |
#: "comma" | "semicolon" | "plus"}`` (``plus``: the terms of a sum, `` + `` in every language).
Said = dict[str, Any]


def gettext_noop(text: str) -> str:
    """Marks ``text`` for the site's translation catalog (``makemessages`` extracts calls of
    this name) and returns it as it is: this module is pure Python; the pages translate
    what it says (``pairing_rules(translate=...)``, ``tournaments.explanations``)."""
    return text


def ngettext(singular: str, plural: str, count: int) -> tuple[str, str, int]:
    """Marks a plural pair for the site's catalog as :func:`gettext_noop` marks a text
    (``makemessages`` extracts both forms of calls of this name); translates nothing."""
    return singular, plural, count


def say(msgid: str, **params: Any) -> Said:
    return {"id": msgid, "params": params}


def say_count(forms: tuple[str, str, int], **params: Any) -> Said:
    singular, plural, count = forms
    return {"id": singular, "plural": plural, "params": {"count": count, **params}}


def said_role(role: str, seats: Sequence[str] = ()) -> Said:
    return {"role": role, "seats": list(seats)} if seats else {"role": role}


def said_points(value: float) -> Said:
    return {"points": value}


def listed(items: Sequence[Any], join: str) -> Said:
    return {"list": list(items), "join": join}


_ENGLISH_JOINS = {"and": " and ", "comma": ", ", "semicolon": "; ", "plus": " + "}


def english(said: Any) -> str:
    """What ``said`` says, in English: roles by their ids, points as ``1 pt``."""
    if not isinstance(said, dict):
        return str(said)
    if "role" in said:
        return str(said["role"])
    if "points" in said:
        return fmt_pts(said["points"])
    if "list" in said:
        return _ENGLISH_JOINS[said["join"]].join(english(item) for item in said["list"])
    params = said.get("params") or {}
    template = said["plural"] if "plural" in said and params.get("count") != 1 else said["id"]
    return template.format(**{name: english(value) for name, value in params.items()})


def fmt_points(value: float) -> str:
    """``3`` or ``2.5``: points as organisers write them."""
    return f"{value:g}"


def fmt_pts(value: float) -> str:
    """``1 pt``, ``2.5 pts``."""
    return f"{fmt_points(value)} pt" + ("" if value == 1 else "s")
