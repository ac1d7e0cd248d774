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
from math import comb, prod
from typing import Any

from django.utils.translation import gettext

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
    # A path names a field of an action: some text, and no NUL (nothing can store one).
    if not isinstance(prefix, dict) or not all(
        isinstance(k, str) and k and "\x00" not in k for k in prefix
    ):
        raise BadPrefix(gettext("prefix must be an object of {path: value}"))
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


def _group(
    actions: Sequence[Action], path: str, stop_after: int | None = None
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
            found = _next_field(actions, [f"{path}/{k}" for k in _child_keys(every)], prefix, fixed)
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


# --- draws: chosen item by item, counted without listing them -------------------------------


def _draw_bounds(
    kinds: list[str], taken: Mapping[str, int], pile: Mapping[str, int], chosen: list[str]
) -> list[tuple[int, int]] | None:
    """Per kind, the (least, most) items drawn from the pile in an outcome whose sorted list
    starts with ``chosen``; None when no outcome does. An outcome M = taken + drawn starts
    with ``chosen`` exactly when M holds ``chosen`` and every other item of M sorts at or
    after ``chosen[-1]``: kinds before it are all in ``chosen``, the others are free."""
    if any(b < a for a, b in zip(chosen, chosen[1:], strict=False)) or any(
        k not in kinds for k in chosen
    ):
        return None
    last = kinds.index(chosen[-1]) if chosen else 0
    bounds = []
    for j, kind in enumerate(kinds):
        want = chosen.count(kind) - taken.get(kind, 0)
        if j < last:  # exactly the chosen ones
            if not 0 <= want <= pile.get(kind, 0):
                return None
            bounds.append((want, want))
        else:
            bounds.append((max(0, want), pile.get(kind, 0)))
    return bounds


def _ways(bounds: list[tuple[int, int]], count: int) -> int:
    """How many ways to pick, per kind, a number within its bounds, ``count`` in all."""
    ways = [1] + [0] * count
    for low, high in bounds:
        ways = [
            sum(ways[total - n] for n in range(low, min(high, total) + 1))
            for total in range(count + 1)
        ]
    return ways[count]


def _outcomes(
    kinds: list[str], taken: Mapping[str, int], bounds: list[tuple[int, int]], count: int
) -> list[list[str]]:
    """Every outcome (a sorted list) within ``bounds``, ``count`` items drawn."""
    found: list[list[str]] = []

    def walk(j: int, left: int, drawn: list[int]) -> None:
        if j == len(kinds):
            if left == 0:
                found.append(
                    [
                        k
                        for k, n in zip(kinds, drawn, strict=True)
                        for _ in range(taken.get(k, 0) + n)
                    ]
                )
            return
        low, high = bounds[j]
        for n in range(low, min(high, left) + 1):
            walk(j + 1, left - n, [*drawn, n])

    walk(0, count, [])
    return found


def choose_draw(
    action: Action,
    field: str,
    taken: Mapping[str, int],
    pile: Mapping[str, int],
    count: int,
    prefix: Mapping[str, Any] | None = None,
) -> Choice:
    """:func:`choose` over the outcomes of a draw (``action[field]`` = the sorted list of
    ``taken`` plus ``count`` items from ``pile``) without listing them: the next field is
    always the next item of the list (``tickets/3``), counted by :func:`_ways`. The same
    steps and counts as :func:`choose` over every completed action."""
    chosen_prefix = check_prefix(prefix)
    kinds = sorted(set(taken) | {k for k, n in pile.items() if n})
    length = sum(taken.values()) + count
    chosen: list[str] = []
    fixed = {key: value for key, value in action.items()}
    for path, value in chosen_prefix.items():
        head, _, index = path.partition("/")
        if head == field and index.isdigit():
            continue
        if _key(fixed.get(path) if "/" not in path else read_path(action, path)) != _key(value):
            return Choice(total=0, prefix=dict(chosen_prefix))
    for i in range(length):
        key = f"{field}/{i}"
        if key not in chosen_prefix:
            break
        chosen.append(chosen_prefix[key])
    if len(chosen) != sum(1 for p in chosen_prefix if p.partition("/")[0] == field):
        return Choice(total=0, prefix=dict(chosen_prefix))  # items chosen out of order
    fixed.update(chosen_prefix)
    bounds = (
        _draw_bounds(kinds, taken, pile, chosen)
        if all(isinstance(c, str) for c in chosen)
        else None
    )
    total = 0 if bounds is None else _ways(bounds, count)
    while bounds is not None and total > LIST_LIMIT and len(chosen) < length:
        start = kinds.index(chosen[-1]) if chosen else 0
        values = []
        for kind in kinds[start:]:
            after = _draw_bounds(kinds, taken, pile, [*chosen, kind])
            ways = 0 if after is None else _ways(after, count)
            if ways:
                values.append({"value": kind, "count": ways})
        path = f"{field}/{len(chosen)}"
        if len(values) > 1:
            return Choice(total=total, prefix=fixed, field=path, values=values)
        chosen.append(values[0]["value"])  # one value left: fixed, as choose() does
        fixed[path] = chosen[-1]
        bounds = _draw_bounds(kinds, taken, pile, chosen)
    if bounds is None or total == 0:
        return Choice(total=0, prefix=dict(chosen_prefix))
    return Choice(
        total=total,
        prefix=dict(chosen_prefix),
        actions=[{**action, field: outcome} for outcome in _outcomes(kinds, taken, bounds, count)],
    )


# --- spreads: placements chosen space by space, counted without listing them ----------------


def _placements(items: dict[str, int], spaces: int) -> int:
    """Ways to place ``items`` (kind -> count, alike within a kind) on ``spaces`` spaces."""
    if spaces == 0:
        return 1 if not any(items.values()) else 0
    return prod(comb(n + spaces - 1, spaces - 1) for n in items.values())


def _sub_groups(items: dict[str, int]) -> list[dict[str, int]]:
    """Every group a space can take from ``items`` (kind order kept; empty first)."""
    groups: list[dict[str, int]] = [{}]
    for kind, count in items.items():
        groups = [{**g, kind: n} if n else g for g in groups for n in range(count + 1)]
    return groups


def choose_spread(
    action: Action,
    field: str,
    items: dict[str, int],
    spaces: int,
    prefix: Mapping[str, Any] | None = None,
) -> Choice:
    """:func:`choose` over every placement of ``items`` on ``spaces`` spaces (``action[field]``
    = ``{"0": {kind: n}, …}``, empty spaces left out) without listing them: space by space
    (``to/0``, ``to/1``, …), each value the group that space gets (None: nothing), counted
    in closed form. The same steps and counts as :func:`choose` over every action while a
    space has at most :data:`MAX_VALUES` possible groups."""
    chosen_prefix = check_prefix(prefix)
    fixed_spaces: dict[int, dict[str, int]] = {}
    for path, value in chosen_prefix.items():
        head, _, rest = path.partition("/")
        if head == field and rest.isdigit() and int(rest) < spaces:
            group = value or {}
            if not isinstance(group, dict) or not all(
                k in items and type(n) is int and n > 0 for k, n in group.items()
            ):
                return Choice(total=0, prefix=dict(chosen_prefix))
            fixed_spaces[int(rest)] = group
        elif _key(read_path(action, path)) != _key(value):
            return Choice(total=0, prefix=dict(chosen_prefix))
    left = {
        kind: n - sum(g.get(kind, 0) for g in fixed_spaces.values()) for kind, n in items.items()
    }
    free = [i for i in range(spaces) if i not in fixed_spaces]
    if any(n < 0 for n in left.values()):
        return Choice(total=0, prefix=dict(chosen_prefix))
    total = _placements(left, len(free))
    if total > LIST_LIMIT:
        space = free[0]
        values = []
        for group in _sub_groups(left):
            rest = {kind: n - group.get(kind, 0) for kind, n in left.items()}
            count = _placements(rest, len(free) - 1)
            if count:
                values.append({"value": group or None, "count": count})
        fixed = {**action, **chosen_prefix}
        return Choice(total=total, prefix=fixed, field=f"{field}/{space}", values=values)
    actions: list[Action] = []

    def place(index: int, rest: dict[str, int], placed: dict[int, dict[str, int]]) -> None:
        if index == len(free):
            if not any(rest.values()):
                every = {**fixed_spaces, **placed}
                to = {str(i): dict(every[i]) for i in range(spaces) if every.get(i)}
                actions.append({**action, field: to})
            return
        for group in _sub_groups(rest) if index < len(free) - 1 else [dict(rest)]:
            after = {kind: n - group.get(kind, 0) for kind, n in rest.items()}
            group = {kind: n for kind, n in group.items() if n}
            place(index + 1, after, {**placed, free[index]: group})

    place(0, left, {})
    return Choice(total=total, prefix=dict(chosen_prefix), actions=actions)
