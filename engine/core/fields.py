"""Typed reads of action and setup fields, each failing with the rule that governs it.

Logs come from outside: a field may be missing, of the wrong type, or a bool
where an int belongs (``True`` is an ``int`` in Python). Every game reads its
fields through these so that bad input is an :class:`IllegalAction`, never a
``KeyError`` escaping the engine.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from engine.core.errors import IllegalAction
from engine.core.messages import Text, msg

#: What a field belongs to when a caller names nothing else.
THIS_ACTION = msg("core.what.action")
THE_SETUP = msg("core.what.setup")


def _refuse(rule: str, what: Text, name: str, message_id: str, **params: Any) -> IllegalAction:
    """The refusal of field ``name`` of ``what``: of the action, named in the game's words
    once the action is known (IllegalAction.at_action); of the setup, with its path."""
    return IllegalAction(
        rule,
        msg(message_id, what=what, name=repr(name), **params),
        field=name if what == THIS_ACTION else None,
        path=f"setup.{name}" if what == THE_SETUP else None,
    )


_MISSING = object()


def _get(obj: dict[str, Any], name: str, rule: str, what: Text) -> Any:
    value = obj.get(name, _MISSING)
    if value is _MISSING:
        raise _refuse(rule, what, name, "core.refuse.needs_field")
    return value


def get_int(
    obj: dict[str, Any],
    name: str,
    rule: str,
    what: Text = THIS_ACTION,
    *,
    lo: int | None = None,
    hi: int | None = None,
) -> int:
    value = _get(obj, name, rule, what)
    if not isinstance(value, int) or isinstance(value, bool):
        raise _refuse(rule, what, name, "core.refuse.whole_number", value=repr(value))
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise _refuse(rule, what, name, "core.refuse.between", lo=lo, hi=hi, value=str(value))
    return value


def get_str(
    obj: dict[str, Any],
    name: str,
    rule: str,
    what: Text = THIS_ACTION,
    *,
    choices: Collection[str] | None = None,
) -> str:
    value = _get(obj, name, rule, what)
    if not isinstance(value, str):
        raise _refuse(rule, what, name, "core.refuse.string", value=repr(value))
    if choices is not None and value not in choices:
        listed = ", ".join(sorted(choices))
        raise _refuse(rule, what, name, "core.refuse.one_of", listed=listed, value=repr(value))
    return value


def get_list(obj: dict[str, Any], name: str, rule: str, what: Text = THIS_ACTION) -> list[Any]:
    value = _get(obj, name, rule, what)
    if not isinstance(value, list):
        raise _refuse(rule, what, name, "core.refuse.list", value=repr(value))
    return value


def get_dict(obj: dict[str, Any], name: str, rule: str, what: Text = THIS_ACTION) -> dict[str, Any]:
    value = _get(obj, name, rule, what)
    if not isinstance(value, dict):
        raise _refuse(rule, what, name, "core.refuse.object", value=repr(value))
    return value
