"""What each seat sees (CUL-5), as JSON-ready views, redacted actions, and text.

Public: the table, discard piles, wild cards, hand and deck sizes, declarations
and played cards. Private to a seat: its hand (and so what its own deck still
holds). Hidden from both: the order of the decks; the all-seeing view (``None``)
shows every pile's contents.
"""

from __future__ import annotations

from typing import Any

from engine.core.game import Table
from engine.core.messages import DEFAULT_LOCALE, Message, msg, render
from engine.games.cryptid.groups import describe_group, group_dict
from engine.games.cryptid.legal import to_act
from engine.games.cryptid.sentences import describe_result
from engine.games.cryptid.state import COLORS, MYSTERIOUS, PRESENCE_MARKERS, SEATS, CryptidState


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
        return {
            "seat": action.get("seat"),
            "type": "draw",
            "count": len(cards) if isinstance(cards, list) else None,
        }
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


def _seat(seat: Any) -> Message | str:
    return msg(f"cul.seat_word.{seat}") if seat in SEATS else str(seat)


def _cards(cards: Any) -> Message | list[Message | str]:
    """Cards by their names ("align, shuffle and split"; "none"), never as Python prints a list."""
    if not cards:
        return msg("cul.text.none")
    return [
        msg(f"cul.card_word.{c}") if c in ("align", "shuffle", "split") else str(c) for c in cards
    ]


def _blocks(blocks: Any) -> Message | list[str]:
    return [str(block) for block in blocks] if blocks else msg("cul.text.none")


def _by_seat(counts: dict[str, Any]) -> list[Message]:
    """{"cryptid": 0, "scientist": 2} as "cryptid 0, scientist 2"."""
    return [
        msg("cul.text.seat_count", seat=_seat(seat), count=count) for seat, count in counts.items()
    ]


def _trace(trace: dict[str, Any]) -> Message:
    """The last declaration: its count or colours, the blocks it matched, those marked."""
    declared = (
        trace["count"]
        if "count" in trace
        else [msg(f"cul.colour.{c}") for c in trace.get("colors", [])]
    )
    return msg(
        "cul.text.trace",
        trace=declared,
        matching=_blocks(trace.get("matching")),
        marked=_blocks(trace.get("marked")),
    )


def render_text(state: CryptidState, locale: str = DEFAULT_LOCALE) -> str:
    """The all-seeing state as text in ``locale``: the two rows (notation: block ids,
    markers, sensors), then markers, hands and piles in words."""

    def say(message: Message | str) -> str:
        return render(message, locale)

    if state.phase == "over":
        result = state.result or {}
        head = msg(
            "cul.text.over",
            round=state.round,
            result=describe_result(result, Table({}, {})) if result else msg("cul.phase.over"),
        )
    else:
        head = msg(
            "cul.text.head",
            round=state.round,
            phase=msg(f"cul.phase.{state.phase}"),
            seats=[_seat(seat) for seat in to_act(state)],
        )
    lines = [say(head)]
    # The scientist's row is drawn on top, the cryptid's below, each seat at its own edge.
    for seat in ("scientist", "cryptid"):
        role = "active" if state.active == seat else "inactive"
        lines.append("  " + say(msg(f"cul.text.row.{role}", seat=_seat(seat))))
        lines.append(_row_text(state, seat))
    lines.append("  " + say(msg("cul.text.marks")))
    lines.append(
        "  "
        + say(
            msg(
                "cul.text.supply",
                presence=PRESENCE_MARKERS - len(state.presence),
                deck=len(state.block_pool),
                normal=state.guaranteed,
                evidence=_by_seat(state.held),
            )
        )
    )
    for seat in SEATS:
        lines.append(
            "  "
            + say(
                msg(
                    "cul.text.hand",
                    seat=_seat(seat),
                    hand=_cards(state.hands[seat]),
                    deck=len(state.decks[seat]),
                    discard=_cards(state.discards[seat]),
                    wild=msg("cul.text.wild_up" if state.wild[seat] else "cul.text.wild_down"),
                )
            )
        )
    if state.trace is not None:
        lines.append("  " + say(_trace(state.trace)))
    if state.pending_blocks is not None:
        lines.append("  " + say(msg("cul.text.blocks_drawn", blocks=_blocks(state.pending_blocks))))
    if state.displaced is not None:
        lines.append("  " + say(msg("cul.text.relocate", sensors=describe_group(state.displaced))))
    return "\n".join(lines)
