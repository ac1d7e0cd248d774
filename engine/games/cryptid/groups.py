"""Cryptid: a group of sensors as a log writes it (a count per colour) and as the rules
hold it (a list of colour ids), read, written and said."""

from __future__ import annotations

from typing import Any

from engine.core.errors import IllegalAction
from engine.core.fields import get_dict
from engine.core.messages import Message, Text, msg
from engine.games.cryptid.state import (
    COLOR_INDEX,
    COLORS,
)


# --------------------------------------------------------------------------- reading fields
def read_group(obj: dict[str, Any], name: str, rule: str, what: Text) -> list[int]:
    """A sensor group written as colour counts (``{"red": 2, "black": 1}``) as [r, w, b]."""
    return group_from(
        get_dict(obj, name, rule, what), rule, msg("core.what.field", what=what, name=repr(name))
    )


def group_from(value: dict[str, Any], rule: str, what: Text) -> list[int]:
    counts = [0, 0, 0]
    for colour, n in value.items():
        i = COLOR_INDEX.get(colour)
        if i is None:
            raise IllegalAction(
                rule,
                msg("cul.refuse.unknown_sensor_colour_red_white", what=what, colour=repr(colour)),
            )
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise IllegalAction(
                rule, msg("cul.refuse.count_whole_number", what=what, colour=colour, n=repr(n))
            )
        counts[i] = n
    return counts


def group_dict(group: list[int]) -> dict[str, int]:
    """[r, w, b] as the log writes it: colour counts, zeros left out."""
    return {COLORS[i]: n for i, n in enumerate(group) if n}


def describe_group(group: list[int]) -> Message:
    """``2 red, 1 black`` (``no sensors``): colour counts as a message, items joined by commas."""
    items = [msg(f"cul.group.{COLORS[i]}", count=n) for i, n in enumerate(group) if n]
    if not items:
        return msg("cul.group.none")
    said = items[0]
    for item in items[1:]:
        said = msg("cul.group.more", a=said, b=item)
    return said
