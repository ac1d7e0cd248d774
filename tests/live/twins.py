"""Counterfactual twins of a table: two deals whose games one pair of eyes (a
seat, or the public) cannot tell apart, played move for move the same, while what is
hidden from those eyes differs. Each seat plays by a fixed rule from its own choices
(the first value of every field, as a person walking the entry would), so its moves
depend on nothing it cannot see."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from engine import Session, get_game
from recorder.choices import choose


def first_walked(listed: list[dict[str, Any]]) -> dict[str, Any]:
    """The first value of every field the chooser asks for, then the first action listed."""
    prefix: dict[str, Any] = {}
    while True:
        step = choose(listed, prefix)
        if step.field is None:
            return step.actions[0]
        prefix = {**step.prefix, step.field: step.values[0]["value"]}


def seat_ids(game_id: str, count: int = 2) -> list[str]:
    game = get_game(game_id)
    return game.seat_ids(game.normalize_options({}), count)


Deal = tuple[int, dict[str, Any]]  # a seed, and the setup given with it (the rest dealt)


def dealt(game_id: str, deal: Deal, count: int = 2) -> Session:
    """The game ``deal`` starts at a table of ``count`` seats, as a live table deals it
    (``recorder.services.start_session``)."""
    from recorder.services import start_session

    game = get_game(game_id)
    seed, given = deal
    ids = seat_ids(game_id, count)
    return start_session(game, game.normalize_options({}), ids, given, seed)[0]


def transcript(game_id: str, deal: Deal, eyes: str, turns: int, count: int = 2) -> tuple[str, str]:
    """(What ``eyes`` saw over the scripted game, the all-seeing view at its end)."""
    game = get_game(game_id)
    session = dealt(game_id, deal, count)
    seen: list[Any] = []
    made = 0
    while not session.is_over and made < turns:
        seat = session.to_act[0]
        choices = session.legal_actions(seat, seat)
        seen.append([session.view(eyes), session.history(eyes), choices if seat == eyes else None])
        session.step(first_walked(choices), seat)
        made += 1
    seen.append([session.view(eyes), session.history(eyes)])
    return json.dumps(seen, sort_keys=True), json.dumps(
        game.view(session.state, None), sort_keys=True
    )


def find_twins(
    game_id: str, eyes: str, turns: int, deals: Iterable[Deal], count: int = 2
) -> tuple[Deal, Deal]:
    """Two deals whose scripted games ``eyes`` sees alike for ``turns`` moves while the
    hidden state differs. Deals are first grouped by what the eyes see before any move."""
    starts: dict[str, list[Deal]] = {}
    for deal in deals:
        starts.setdefault(transcript(game_id, deal, eyes, 0, count)[0], []).append(deal)
    by_seen: dict[str, tuple[Deal, str]] = {}
    for deal in [d for group in starts.values() if len(group) > 1 for d in group]:
        seen, hidden = transcript(game_id, deal, eyes, turns, count)
        if seen in by_seen and by_seen[seen][1] != hidden:
            return by_seen[seen][0], deal
        by_seen.setdefault(seen, (deal, hidden))
    raise AssertionError(f"no two deals of {game_id} look alike to {eyes}")


def deals_for(game_id: str, eyes: str, count: int = 2) -> list[Deal]:
    """Deals among which ``eyes`` has twins: what it sees at the start given the same,
    what it cannot see dealt otherwise."""
    game = get_game(game_id)
    record = game.setup_record(dealt(game_id, (1, {}), count).state)
    if game_id == "mister-x":
        if eyes == "mrx":  # all dealt alike but the order of the bag the refills come from
            return [(seed, record) for seed in range(1, 40)]
        # the detectives and the public: Mister X's mission and start city are his
        return [
            (1, {**record, "mission": other["mission"], "start": other["start"]})
            for other in (
                game.setup_record(dealt(game_id, (seed, {}), count).state) for seed in range(1, 40)
            )
        ]
    if game_id == "cryptid-urban-legends" and eyes == "scientist":
        # the scientist's own hand and the board alike; the cryptid's hand, the decks not
        hands = [
            game.setup_record(dealt(game_id, (seed, {})).state)["hands"]["cryptid"]
            for seed in range(1, 40)
        ]
        return [
            (seed, {**record, "hands": {**record["hands"], "cryptid": hand}})
            for seed in range(1, 6)
            for hand in hands
        ]
    return [(seed, {}) for seed in range(1, 400)]
