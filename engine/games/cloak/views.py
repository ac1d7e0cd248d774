"""Views of a Cloak & Dagger game: all-seeing, per seat (its check sheet), per action.

A seat's view is built from :class:`~engine.games.cloak.knowledge.Knowledge`
alone, so it holds what that seat observed and nothing else (CD-5).
"""

from __future__ import annotations

from typing import Any

from engine.core.game import PUBLIC, Action, Table
from engine.core.messages import DEFAULT_LOCALE, Message, msg, render
from engine.games.cloak.knowledge import Knowledge, knowledge_of, observation
from engine.games.cloak.sentences import seat_name
from engine.games.cloak.state import (
    ENVELOPE_NUMBERS,
    ENVELOPES,
    SEAT_IDS,
    SPY_PAIRS,
    CloakState,
    deck,
)


def static_view(options: dict[str, Any]) -> dict[str, Any]:
    """The components every viewer knows (CD-1): the envelopes, each seat's spy pair,
    and the cards shuffled into the pile (not their order)."""
    return {
        "envelopes": ENVELOPES,
        "spies": dict(zip(SEAT_IDS, SPY_PAIRS, strict=True)),
        "pile_cards": sorted(deck(options)),
    }


def _clock(turns: int, seats: int, to_act: int | None, hand_size: int) -> dict[str, Any]:
    """The public clock: ``turn`` is the number of the turn to be played next."""
    phase = "over" if to_act is None else "transfer" if hand_size else "turn"
    return {"round": turns // seats + 1, "turn": turns + 1, "phase": phase}


def clock(state: CloakState) -> dict[str, Any]:
    """The public round and phase of ``state`` (as every view has them)."""
    to_act = None if state.winner is not None else state.turn
    shown = _clock(
        state.ply, len(state.seats), to_act, 0 if to_act is None else len(state.hands[to_act])
    )
    return {"round": shown["round"], "phase": shown["phase"]}


def view(state: CloakState, viewer: str | None) -> dict[str, Any]:
    if viewer is None:
        return _all_seeing(state)
    if viewer == PUBLIC:
        return seat_view(knowledge_of(state, len(state.seats)))
    if viewer not in state.seats:
        raise ValueError(f"{viewer!r} is not a seat of this game")
    return seat_view(knowledge_of(state, state.seats.index(viewer)))


def seat_view(known: Knowledge) -> dict[str, Any]:
    """A seat's view: a function of its :class:`Knowledge` only."""
    seats = known.seats
    to_act = known.to_act
    return {
        **_clock(
            known.turns, len(seats), to_act, 0 if to_act is None else known.hand_sizes[to_act]
        ),
        "viewer": known.seat,
        "to_act": None if to_act is None else seats[to_act],
        "hand": sorted(known.hand),
        "hand_sizes": dict(zip(seats, known.hand_sizes, strict=True)),
        "pile_size": known.pile_size,
        "must_tell": _must_tell(seats, known.owed),
        "spies_shown": [dict(event) for event in known.spies_shown],
        "hazards": [dict(event) for event in known.hazards],
        "check_sheet": known.check_sheet(),
        "winner": None if known.winner is None else seats[known.winner],
        "win": None
        if known.win is None
        else {**known.win, "contents": list(known.win["contents"])},
    }


def _must_tell(seats: list[str], owed: list[tuple[int, ...]]) -> dict[str, list[str]]:
    return {seats[j]: [seats[o] for o in owners] for j, owners in enumerate(owed) if owners}


def _all_seeing(state: CloakState) -> dict[str, Any]:
    seats = state.seats
    to_act = None if state.winner is not None else state.turn
    last = state.history[-1] if state.history else None
    return {
        **_clock(state.ply, len(seats), to_act, 0 if to_act is None else len(state.hands[to_act])),
        "viewer": None,
        "to_act": None if to_act is None else seats[to_act],
        "envelopes": [
            {"envelope": n, "contents": sorted(state.envelopes[n])} for n in ENVELOPE_NUMBERS
        ],
        "hands": {seat: list(state.hands[i]) for i, seat in enumerate(seats)},
        "hand_sizes": {seat: len(state.hands[i]) for i, seat in enumerate(seats)},
        "pile": None if state.pile_unknown is not None else list(state.pile),
        "pile_size": state.pile_size,
        "must_tell": _must_tell(seats, state.owed),
        "winner": None if state.winner is None else seats[state.winner],
        "win": None
        if state.winner is None or last is None
        else {
            "turn": state.ply,
            "seat": seats[state.winner],
            "envelope": last.action["envelope"],
            "contents": sorted(last.win or ()),
        },
    }


def action_view(state_after: CloakState, action: Action, viewer: str | None) -> Action:
    """The action as ``viewer`` observed it (see :func:`knowledge.observation`)."""
    if viewer is None:
        return action
    history = state_after.history
    index = len(history) - 1
    if index < 0 or history[index].action != action:
        raise ValueError("action_view needs the state just after the action")
    seat = len(state_after.seats) if viewer == PUBLIC else state_after.seats.index(viewer)
    return observation(history[index], index + 1, seat, state_after.seats)


def render_text(state: CloakState, locale: str = DEFAULT_LOCALE) -> str:
    """The all-seeing state as text in ``locale``; cards by their letters (the notation)."""

    def say(message: Message | str) -> str:
        return render(message, locale)

    table = Table({}, {})
    status = (
        msg("cd.text.won", seat=seat_name(state.seats[state.winner], table))
        if state.winner is not None
        else msg("cd.text.turn", turn=state.ply + 1, seat=seat_name(state.seats[state.turn], table))
    )
    lines = [say(msg("cd.text.head", status=status))]
    for i, seat in enumerate(state.seats):
        lines.append(
            "  "
            + say(
                msg(
                    "cd.text.hand",
                    seat=seat_name(seat, table),
                    cards="".join(state.hands[i]) or "-",
                )
            )
        )
    pile = "?" * len(state.pile_unknown or ()) + "".join(state.pile)
    lines.append("  " + say(msg("cd.text.pile", cards=pile or "-")))
    for n in ENVELOPE_NUMBERS:
        if state.envelopes[n]:
            lines.append(
                "  "
                + say(
                    msg(
                        "cd.text.envelope",
                        number=f"{n:2}",
                        cards="".join(sorted(state.envelopes[n])),
                    )
                )
            )
    return "\n".join(lines)
