"""Short notation for Cloak & Dagger turns, for full and redacted actions alike.

==================  =========================================================
``p2 examine 4``    looked into envelope 4
``p1 place 10 X``   drew X into envelope 10 (``?``: the card is hidden or left
                    to the seed)
``p1 take 10 d+X``  started a transfer with d and took X too (``d``: no second
                    card; ``d+?``: a hidden second card)
``p1 drop 4``       finished a transfer into envelope 4
``p3 hazard 6 K``   revealed hazard K in envelope 6
==================  =========================================================

A hidden envelope number is ``?``. A winning turn ends with ``wins``.
:func:`parse` reads the full form back into an action (``?`` leaves a field out).
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import IllegalAction
from engine.core.messages import msg

HIDDEN = "?"


def notation(action: dict[str, Any]) -> str:
    kind = action.get("type")
    envelope = action.get("envelope", HIDDEN)
    words = [str(action.get("seat")), str(kind), str(envelope)]
    if kind in ("place", "hazard"):
        words.append(str(action.get("card") or HIDDEN))
    elif kind == "take":
        spy = str(action.get("spy"))
        if "second" in action:
            second = action["second"]
        else:
            second = HIDDEN if action.get("cards") == 2 else None
        words.append(spy if second is None else f"{spy}+{second}")
    if "win" in action:
        words.append("wins")
    return " ".join(words)


def parse(text: str) -> dict[str, Any]:
    """The action written as ``text`` (full notation); IllegalAction(CD-3) when unreadable."""
    words = text.split()
    if len(words) < 3:
        raise IllegalAction(
            "CD-3", msg("cd.refuse.cannot_read_expected_seat_type", text=repr(text))
        )
    seat, kind, envelope = words[:3]
    rest = words[3:]
    action: dict[str, Any] = {"seat": seat, "type": kind}
    if envelope != HIDDEN:
        if not envelope.isdigit():
            raise IllegalAction(
                "CD-1.1",
                msg(
                    "cd.refuse.cannot_read_envelope_number",
                    envelope=repr(envelope),
                    text=repr(text),
                ),
            )
        action["envelope"] = int(envelope)
    expected = 1 if kind in ("place", "take", "hazard") else 0
    if len(rest) != expected and not (kind == "place" and not rest):
        raise IllegalAction(
            "CD-3",
            msg(
                "cd.refuse.cannot_read_takes_more_word", text=repr(text), kind=kind, count=expected
            ),
        )
    if kind in ("place", "hazard") and rest and rest[0] != HIDDEN:
        action["card"] = rest[0]
    elif kind == "take":
        spy, _, second = rest[0].partition("+")
        action["spy"] = spy
        if second != HIDDEN:
            action["second"] = second or None
    return action
