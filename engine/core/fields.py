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

_MISSING = object()


def _get(obj: dict[str, Any], name: str, rule: str, what: str) -> Any:
    value = obj.get(name, _MISSING)
    if value is _MISSING:
        raise IllegalAction(rule, f"{what} needs the field {name!r}")
    return value


def get_int(
    obj: dict[str, Any], name: str, rule: str, what: str = "this action",
    *, lo: int | None = None, hi: int | None = None,
) -> int:
    value = _get(obj, name, rule, what)
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalAction(rule, f"{what}: {name!r} must be a whole number, not {value!r}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise IllegalAction(rule, f"{what}: {name!r} must be between {lo} and {hi}, not {value}")
    return value


def get_str(
    obj: dict[str, Any], name: str, rule: str, what: str = "this action",
    *, choices: Collection[str] | None = None,
) -> str:
    value = _get(obj, name, rule, what)
    if not isinstance(value, str):
        raise IllegalAction(rule, f"{what}: {name!r} must be a string, not {value!r}")
    if choices is not None and value not in choices:
        listed = ", ".join(sorted(choices))
        raise IllegalAction(rule, f"{what}: {name!r} must be one of {listed}, not {value!r}")
    return value


def get_list(obj: dict[str, Any], name: str, rule: str, what: str = "this action") -> list[Any]:
    value = _get(obj, name, rule, what)
    if not isinstance(value, list):
        raise IllegalAction(rule, f"{what}: {name!r} must be a list, not {value!r}")
    return value


def get_dict(obj: dict[str, Any], name: str, rule: str, what: str = "this action") -> dict[str, Any]:
    value = _get(obj, name, rule, what)
    if not isinstance(value, dict):
        raise IllegalAction(rule, f"{what}: {name!r} must be an object, not {value!r}")
    return value


def get_optional(obj: dict[str, Any], name: str) -> Any:
    """The field's value, or None when absent (chance outcomes a seed may supply)."""
    return obj.get(name)
