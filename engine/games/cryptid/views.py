"""What each seat sees (CUL-5), as JSON-ready views, redacted actions, and text.

Public: the table, discard piles, wild cards, hand and deck sizes, declarations
and played cards. Private to a seat: its hand (and so what its own deck still
holds). Hidden from both: the order of the decks; the all-seeing view (``None``)
shows every pile's contents.
"""

from __future__ import annotations

from typing import Any

from engine.games.cryptid.rules import group_dict, to_act
from engine.games.cryptid.state import COLORS, MYSTERIOUS, PRESENCE_MARKERS, SEATS, CryptidState

PHASE_NAMES = {
    "sensor": "Sensor phase",
    "hiding": "Hiding phase",
    "blockade": "Blockade phase",
    "relocate": "Blockade phase (relocating sensors)",
    "expansion": "Expansion phase",
    "over": "game over",
}


def _row(state: CryptidState, seat: str) -> dict[str, Any]:
    return {
        "role": "active" if state.active == seat else "inactive",
        "blocks": [
            {
                "id": block,
                "kind": "mysterious" if block in MYSTERIOUS else "normal",
                "presence": block in state.presence,
                "evidence": block in state.evidence,
            }
            for block in state.rows[seat]
        ],
        "spaces": [group_dict(space) for space in state.sensors[seat]],
    }


def view(state: CryptidState, viewer: str | None) -> dict[str, Any]:
    """The state as ``viewer`` (a seat, or None for all-seeing) may know it."""
    hands: dict[str, Any] = {}
    decks: dict[str, Any] = {}
    for seat in SEATS:
        hand: dict[str, Any] = {"size": len(state.hands[seat])}
        deck: dict[str, Any] = {"size": len(state.decks[seat])}
        if viewer is None or viewer == seat:
            hand["cards"] = list(state.hands[seat])
            deck["cards"] = list(state.decks[seat])  # contents only: the order is unknown
        hands[seat] = hand
        decks[seat] = deck
    pending = None
    if state.pending_blocks is not None and (viewer is None or viewer == state.active):
        pending = list(state.pending_blocks)
    block_deck: dict[str, Any] = {"size": len(state.block_pool), "normal_on_top": state.guaranteed}
    if viewer is None:
        block_deck["blocks"] = list(state.block_pool)
    return {
        "round": state.round,
        "phase": state.phase,
        "to_act": to_act(state),
        "active_row": state.active,
        "rows": {seat: _row(state, seat) for seat in SEATS},
        "presence_supply": PRESENCE_MARKERS - len(state.presence),
        "evidence_held": dict(state.held),
        "wild": {seat: "up" if state.wild[seat] else "down" for seat in SEATS},
        "hands": hands,
        "decks": decks,
        "discards": {seat: list(state.discards[seat]) for seat in SEATS},
        "block_deck": block_deck,
        "drawn_blocks": pending,
        "displaced": None if state.displaced is None else group_dict(state.displaced),
        "trace": state.trace,
        "result": state.result,
    }


def action_view(action: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    """``action`` as ``viewer`` saw it: the opponent's draw shows how many cards, not which."""
    if action.get("type") == "draw" and viewer is not None and viewer != action.get("seat"):
        cards = action.get("cards")
        return {"seat": action.get("seat"), "type": "draw",
                "count": len(cards) if isinstance(cards, list) else None}
    return action


def _space_text(group: list[int]) -> str:
    inner = " ".join(f"{COLORS[i][0]}{n}" for i, n in enumerate(group) if n)
    return f"({inner})" if inner else "()"


def _block_text(state: CryptidState, block: str) -> str:
    marks = ("*" if block in state.presence else "") + ("!" if block in state.evidence else "")
    return f"[{block}{marks}]"


#: Every space and block is drawn in a cell of this width, so the rows stagger as
#: on the table: the active row (one block fewer) starts half a block to the right.
_CELL = 11


def _row_text(state: CryptidState, seat: str) -> str:
    cells = [_space_text(state.sensors[seat][0])]
    for j, block in enumerate(state.rows[seat]):
        cells += [_block_text(state, block), _space_text(state.sensors[seat][j + 1])]
    indent = " " * _CELL if seat == state.active else ""
    return (indent + "".join(cell.center(_CELL) for cell in cells)).rstrip()


def _listed(items: Any) -> str:
    """A list as a person writes it ("align, shuffle"; "none"), never as Python prints it."""
    return ", ".join(str(item) for item in items) if items else "none"


def _counted(counts: dict[str, Any]) -> str:
    """{"cryptid": 0, "scientist": 2} as "cryptid 0, scientist 2"."""
    return ", ".join(f"{key} {value}" for key, value in counts.items()) or "none"


def _trace_text(trace: dict[str, Any]) -> str:
    """The last trace's fields, each as words: "colours red+white, matching N4, N1"."""
    parts = []
    for key, value in trace.items():
        if isinstance(value, list):
            value = "+".join(map(str, value)) if key == "colors" else _listed(value)
        elif isinstance(value, dict):
            value = _counted(value)
        parts.append(f"{'colours' if key == 'colors' else key} {value}")
    return "; ".join(parts)


def render_text(state: CryptidState) -> str:
    """The all-seeing state as text: the two rows, markers, hands and piles."""
    if state.phase == "over":
        result = state.result or {}
        evidence = result.get("evidence")
        head = (f"Round {state.round}, game over: {result.get('winner')} wins by {result.get('reason')}, "
                f"evidence {_counted(evidence) if isinstance(evidence, dict) else evidence}")
    else:
        head = f"Round {state.round}, {PHASE_NAMES[state.phase]}, {', '.join(to_act(state))} to act"
    lines = [head]
    # The scientist's row is drawn on top, the cryptid's below, each seat at its own edge.
    for seat in ("scientist", "cryptid"):
        role = "active" if state.active == seat else "inactive"
        lines.append(f"  {seat} row ({role})")
        lines.append(_row_text(state, seat))
    lines.append("  [id*] presence, [id!] evidence, (r2 w1 b1) sensors in a space")
    lines.append(
        f"  presence supply {PRESENCE_MARKERS - len(state.presence)}, block deck {len(state.block_pool)}"
        f" ({state.guaranteed} normal on top), evidence held {_counted(state.held)}"
    )
    for seat in SEATS:
        lines.append(
            f"  {seat:<9} hand {_listed(state.hands[seat])}; deck {len(state.decks[seat])}; "
            f"discard {_listed(state.discards[seat])}; wild {'up' if state.wild[seat] else 'down'}"
        )
    if state.trace is not None:
        lines.append(f"  last trace: {_trace_text(state.trace)}")
    if state.pending_blocks is not None:
        lines.append(f"  blocks drawn for the expansion: {_listed(state.pending_blocks)}")
    if state.displaced is not None:
        lines.append(f"  sensors to relocate: {_counted(group_dict(state.displaced))} (the cryptid places them)")
    return "\n".join(lines)

