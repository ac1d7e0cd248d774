"""Choosing one action among thousands, field by field. Pure Python (no Django).

Some positions have a huge list of legal actions or chance outcomes (a Cryptid
relocation: every way to spread the displaced sensors, 10k and more; a Mister X
refill: every multiset of tickets the bag could give). A phone should not receive
them all, and a person should not scroll them: the client narrows the list one
field at a time (``prefix``: the values chosen so far), and once few actions are
left it gets them listed.

A *path* names a field: ``"card"`` at the top level, ``"to/0"`` inside a nested
object (key ``"0"`` of ``to``), ``"tickets/1"`` inside a list (its second item).
A field an action does not have reads as ``None``. The next field offered is the
first (in the actions' own field order) whose value still differs between the
candidates; when it has more than :data:`MAX_VALUES` values and they are objects or
lists, the chooser descends into it instead (``to`` → ``to/0``), so a step never
offers more than a screenful of buttons.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any

#: Once at most this many actions match, they are listed instead of a field's values.
LIST_LIMIT = 40
#: A field with more distinct values than this is descended into when it can be.
MAX_VALUES = 40

Action = dict[str, Any]


class BadPrefix(ValueError):
    """A prefix that is not an object of ``path: value``."""


def read_path(action: Any, path: str) -> Any:
    """The value at ``path`` in ``action``, None when there is none."""
    if "/" not in path:
        return action.get(path) if isinstance(action, Mapping) else None
    value = action
    for part in path.split("/"):
        if isinstance(value, Mapping):
            value = value.get(part)
        elif isinstance(value, list) and part.isdigit():
            index = int(part)
            value = value[index] if index < len(value) else None
        else:
            return None
        if value is None:
            return None
    return value


def _key(value: Any) -> Any:
    """A hashable stand-in for a JSON value: equal exactly when the values are equal
    as JSON (``true`` is not ``1``; an object's key order does not matter)."""
    kind = type(value)
    if kind is str or kind is int or value is None:
        return value
    if kind is bool:
        return ("bool", value)
    if isinstance(value, Mapping):
        return ("obj", *sorted((k, _key(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return ("list", *(_key(v) for v in value))
    return (kind.__name__, value)


def check_prefix(prefix: Any) -> dict[str, Any]:
    if prefix is None:
        return {}
    if not isinstance(prefix, dict) or not all(isinstance(k, str) and k for k in prefix):
        raise BadPrefix("prefix must be an object of {path: value}")
    return dict(prefix)


def matching(actions: Iterable[Action], prefix: Mapping[str, Any]) -> list[Action]:
    """The actions whose every prefixed field has the prefixed value."""
    wanted = [(path, _key(value)) for path, value in prefix.items()]
    if not wanted:
        return list(actions)
    return [a for a in actions if all(_key(read_path(a, p)) == v for p, v in wanted)]


@dataclass
class Choice:
    """One step: either the next field's values, or the actions left (``field`` None)."""

    total: int
    prefix: dict[str, Any]
    field: str | None = None
    values: list[dict[str, Any]] = dataclass_field(default_factory=list)  # {"value", "count"}
    actions: list[Action] = dataclass_field(default_factory=list)


def _child_keys(values: Sequence[Any]) -> list[str]:
    """Keys of the objects (in first-seen order, digit keys numerically) and indices of the
    lists among ``values``."""
    keys: dict[str, None] = {}
    longest = 0
    for value in values:
        if isinstance(value, Mapping):
            keys.update(dict.fromkeys(value))
        elif isinstance(value, list):
            longest = max(longest, len(value))
    ordered = list(keys)
    if all(k.isdigit() for k in ordered):  # spaces "0".."7": in board order
        ordered.sort(key=int)
    return ordered + [str(i) for i in range(longest)]


def _group(actions: Sequence[Action], path: str, stop_after: int | None = None
           ) -> dict[Any, tuple[Any, int]]:
    """``{key: (value, count)}`` of the values at ``path``; when ``stop_after`` is given,
    stops counting as soon as there are more distinct values than that and a value is an
    object or a list (the caller descends into it then, so the counts are not needed)."""
    groups: dict[Any, tuple[Any, int]] = {}
    nested = False
    for action in actions:
        value = read_path(action, path)
        key = _key(value)
        seen = groups.get(key)
        if seen is None:
            groups[key] = (value, 1)
            nested = nested or isinstance(value, Mapping | list)
            if stop_after is not None and nested and len(groups) > stop_after:
                break
        else:
            groups[key] = (value, seen[1] + 1)
    return groups


def _next_field(
    actions: Sequence[Action], paths: list[str], prefix: dict[str, Any], fixed: dict[str, Any]
) -> tuple[str, dict[str, tuple[Any, int]]] | None:
    for path in paths:
        if path in prefix:
            continue
        inside_prefix = any(p.startswith(path + "/") for p in prefix)
        groups = _group(actions, path, stop_after=None if inside_prefix else MAX_VALUES)
        if len(groups) == 1:
            fixed[path] = next(iter(groups.values()))[0]
            continue
        values = [value for value, _ in groups.values()]
        nested = any(isinstance(v, Mapping | list) for v in values)
        if nested and (inside_prefix or len(groups) > MAX_VALUES):
            every = [read_path(action, path) for action in actions]
            found = _next_field(
                actions, [f"{path}/{k}" for k in _child_keys(every)], prefix, fixed
            )
            if found is not None:
                return found
            continue
        return path, groups
    return None


def choose(actions: Sequence[Action], prefix: Mapping[str, Any] | None = None) -> Choice:
    """The next step of narrowing ``actions`` down, given the fields chosen in ``prefix``."""
    chosen = check_prefix(prefix)
    left = matching(actions, chosen)
    fixed = dict(chosen)
    if len(left) <= LIST_LIMIT:
        return Choice(total=len(left), prefix=fixed, actions=left)
    top: dict[str, None] = {}
    for action in left:
        top.update(dict.fromkeys(action))
    found = _next_field(left, list(top), chosen, fixed)
    if found is None:  # cannot happen for distinct actions; list them rather than fail
        return Choice(total=len(left), prefix=fixed, actions=left)
    path, groups = found
    return Choice(
        total=len(left),
        prefix=fixed,
        field=path,
        values=[{"value": value, "count": count} for value, count in groups.values()],
    )
