"""Why a table was made, kept as what to say: the engine's :data:`~engine.Message`, so that
each reader is told it in their language (``tournaments.explanations`` says it) and the
tests and the site's search read it in English (:func:`english`).

A message's id is the site's msgid: an English template with ``{name}`` placeholders,
which the site's catalog translates. A parameter is what the engine's messages allow: a
plain value (a player's name, a number), another message, or a list of them, joined as
the language joins a list (``a, b and c``). A few ids name values the site says its own
way, since the pairing knows no game: :data:`ROLE` and :data:`SEAT` (a role or a seat, as
the event's game names it), :data:`SCORE` (points with their unit) and the lists joined
otherwise than by "and": :data:`LISTING` (``a, b``), :data:`CLAUSES` (``a; b``),
:data:`TERMS` (the terms of a sum, ``a + b`` in every language).

:func:`sentence` and :class:`Counted` build the messages; ``make messages`` extracts their
English templates for the site's catalog (``config.catalogs.KEYWORDS`` names both for
xgettext), so a template is written once, where it is said.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine import Message, join_list, msg

#: Ids of the values the site says its own way (the module docstring).
ROLE, SEAT, SCORE = "pairing.role", "pairing.seat", "pairing.score"
LISTING, CLAUSES, TERMS = "pairing.listing", "pairing.clauses", "pairing.terms"
_JOINS = {LISTING: ", ", CLAUSES: "; ", TERMS: " + "}

#: The plural template of each counted sentence, by its singular (its id).
PLURALS: dict[str, str] = {}


def sentence(template: str, **params: Any) -> Message:
    """The sentence ``template`` (English, marked for the site's catalog) with ``params``."""
    return msg(template, **params)


class Counted:
    """A sentence that depends on a number, ``{count}``: its singular and plural English
    templates, kept by the singular (the message's id) in :data:`PLURALS`."""

    def __init__(self, singular: str, plural: str) -> None:
        self.singular = singular
        PLURALS[singular] = plural

    def __call__(self, count: int, **params: Any) -> Message:
        return msg(self.singular, count=count, **params)


def role_name(role: str, seats: Sequence[str] = ()) -> Message:
    """A role (or, with the table's ``seats``, a seat) as the event's game names it."""
    return msg(SEAT, seat=role, seats=list(seats)) if seats else msg(ROLE, role=role)


def score(value: float) -> Message:
    """Points with their unit: ``1 pt``, ``2.5 pts``."""
    return msg(SCORE, points=value)


def listing(items: Sequence[Any]) -> Message:
    return msg(LISTING, items=list(items))


def clauses(items: Sequence[Any]) -> Message:
    return msg(CLAUSES, items=list(items))


def summed(items: Sequence[Any]) -> Message:
    """The terms of a sum: ``a + b`` in every language."""
    return msg(TERMS, items=list(items))


def english(said: Any) -> str:
    """What ``said`` (a message, a list or a plain value) says in English: roles by their
    ids, points as ``1 pt``."""
    if isinstance(said, list):
        return join_list([english(item) for item in said])
    if not isinstance(said, dict):
        return str(said)
    params = said.get("params") or {}
    kind = said["id"]
    if kind == ROLE:
        return str(params["role"])
    if kind == SEAT:
        return str(params["seat"])
    if kind == SCORE:
        return fmt_pts(params["points"])
    if kind in _JOINS:
        return _JOINS[kind].join(english(item) for item in params["items"])
    template = PLURALS[kind] if kind in PLURALS and params.get("count") != 1 else kind
    return template.format(**{name: english(value) for name, value in params.items()})


def fmt_points(value: float) -> str:
    """``3`` or ``2.5``: points as organisers write them."""
    return f"{value:g}"


def fmt_pts(value: float) -> str:
    """``1 pt``, ``2.5 pts``."""
    return f"{fmt_points(value)} pt" + ("" if value == 1 else "s")
