"""Read-only actions: what a game may hand out to every caller alike.

A search asks for the legal actions at every node; building a fresh dictionary per
action is most of the cost of answering. A game may instead build each action once
(per board, per city, per ticket...) and hand out the same objects on every call, if
no caller can change them: a caller that changed one would change the engine's
answers for good. :class:`FrozenAction` and :class:`FrozenList` are a ``dict`` and a
``list`` that refuse every change (``TypeError``); everything else about them is a
dict's and a list's (``json.dumps``, ``==`` with plain ones, ``dict(a)``, ``{**a}``).
A copy (``copy.copy``, ``copy.deepcopy``, pickling) is a plain, changeable one.

To change an action, copy it first: ``{**action, "to": 5}``, ``dict(action)``, or
:func:`thaw` for a deep copy. What a log keeps is its own plain copy (:func:`as_recorded`:
``play`` and ``Session.step`` record so): a log holding the same shared object twice
would change in two places when a deep copy of it was changed in one.
"""

from __future__ import annotations

from typing import Any, NoReturn

_REFUSAL = (
    "a legal action is shared and read only: "
    "copy it first ({**action}, dict(action) or thaw(action))"
)


def _refuse(self: Any, *args: Any, **kwargs: Any) -> NoReturn:
    raise TypeError(_REFUSAL)


def thaw(value: Any) -> Any:
    """A plain deep copy of a JSON-like value: dicts and lists (frozen or not) copied."""
    if isinstance(value, dict):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, list):
        return [thaw(v) for v in value]
    return value


class FrozenAction(dict):  # a dict[str, Any], as an action is
    """A dict that cannot be changed (see the module's docstring)."""

    __slots__ = ()

    __setitem__ = __delitem__ = _refuse
    update = pop = popitem = clear = setdefault = __ior__ = _refuse

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return thaw(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return dict, (thaw(self),)

    def __repr__(self) -> str:
        return dict.__repr__(self)


class FrozenList(list):
    """A list that cannot be changed (a field of a :class:`FrozenAction`)."""

    __slots__ = ()

    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __copy__(self) -> list[Any]:
        return list(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        return thaw(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return list, (thaw(self),)

    def __repr__(self) -> str:
        return list.__repr__(self)


def as_recorded(action: dict[str, Any]) -> dict[str, Any]:
    """``action`` as a log keeps it: a plain deep copy when it or a field of it is read only
    (shared with other actions), else itself."""
    if action.__class__ is FrozenAction:
        return thaw(action)
    for value in action.values():
        if value.__class__ is FrozenList or value.__class__ is FrozenAction:
            return thaw(action)
    return action


def freeze(value: Any) -> Any:
    """A JSON-like value with every dict and list in it made read only."""
    if isinstance(value, dict):
        return FrozenAction({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return FrozenList(freeze(v) for v in value)
    return value
