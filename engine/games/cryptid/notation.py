"""Short human lines for Cryptid actions, full or redacted.

``C split@2 L(w1) R(r2 b1)``, ``S shuffle r@1 >``, ``C align w <``,
``S wild:align b >``, ``C draw split,align`` (or ``C draw 2`` redacted),
``C declare 5``, ``C declare red+white``, ``S blockade left``,
``C relocate 0(r1) 3(b1)``, ``S expand M2|N7``.
"""

from __future__ import annotations

from typing import Any

# Looked up with whatever a log holds there (a notation is written for any action).
_SEAT: dict[Any, str] = {"cryptid": "C", "scientist": "S"}
_DIR: dict[Any, str] = {"left": "<", "right": ">"}
_COLOR_ORDER = ("red", "white", "black")


def _group(value: Any) -> str:
    if not isinstance(value, dict):
        return "(?)"
    inner = " ".join(f"{c[0]}{value[c]}" for c in _COLOR_ORDER if value.get(c))
    return f"({inner})"


def _effect(effect: str, action: dict[str, Any]) -> str:
    colour = str(action.get("color", "?"))[:1]
    if effect == "split":
        left, right = _group(action.get("left")), _group(action.get("right"))
        return f"split@{action.get('space')} L{left} R{right}"
    if effect == "shuffle":
        return f"shuffle {colour}@{action.get('space')} {_DIR.get(action.get('dir'), '?')}"
    if effect == "align":
        return f"align {colour} {_DIR.get(action.get('dir'), '?')}"
    return f"{effect}?"


def notation(action: dict[str, Any]) -> str:
    seat = action.get("seat")
    who = _SEAT.get(seat, str(seat))
    kind = action.get("type")
    if kind == "play":
        return f"{who} {_effect(str(action.get('card')), action)}"
    if kind == "wild":
        return f"{who} wild:{_effect(str(action.get('as')), action)}"
    if kind == "draw":
        cards = action.get("cards")
        if isinstance(cards, list):
            return f"{who} draw {','.join(map(str, cards))}"
        return f"{who} draw {action.get('count', '?')}"
    if kind == "declare":
        if "count" in action:
            return f"{who} declare {action['count']}"
        colours = action.get("colors")
        return f"{who} declare {'+'.join(map(str, colours)) if isinstance(colours, list) else '?'}"
    if kind == "blockade":
        return f"{who} blockade {action.get('side')}"
    if kind == "relocate":
        to = action.get("to")
        if isinstance(to, dict):
            return f"{who} relocate " + " ".join(f"{k}{_group(v)}" for k, v in sorted(to.items()))
        return f"{who} relocate ?"
    if kind == "expand":
        return f"{who} expand {action.get('left')}|{action.get('right')}"
    return f"{who} {kind}"
