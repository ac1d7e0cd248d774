"""Where Mister X could be, from what the detectives know (possible.py).

Exact sets against hand-computed ones on the tiny grid, and against a brute force
over every path on bot games: the incremental filter must equal the set of last
cities of all paths consistent with the public record, and always hold the truth.
"""

from __future__ import annotations

import pytest

from engine import play, replay
from engine.games.misterx.knowledge import Possible, possible_positions
from tests.engine.misterx_helpers import Table, racks


def test_possible_starts_are_the_mission_start_cities():
    t = Table()
    assert possible_positions(t.state) == {1, 2}


def test_possible_after_a_car_move_a_pawn_entry_and_a_position_check():
    t = Table()
    t.do("mrx", "move", ticket="car/double", to=3)
    # by car from 1: 2, 6; from 2: 1, 3, 7 (no pawn there when he moved)
    assert possible_positions(t.state) == {1, 2, 3, 6, 7}
    t.refill("mrx")
    t.do("det2", "move", pawn="yellow", ticket="car/siren", to=7)  # not caught: not 7
    assert possible_positions(t.state) == {1, 2, 3, 6}
    t.pawns_move(
        {
            "red": ("car/investigate", 11),
            "blue": ("car/investigate", 15),
            "green": ("car/investigate", 17),
            "black": ("car/siren", 20),
        }
    )
    t.end_round()
    assert possible_positions(t.state) == {1, 2, 3, 6}
    # a secret move: any line. From 1: 2, 6, 13 (train), 25 (plane, the destination);
    # from 2: 1, 3, 7; from 3: 2, 4, 8, 23 (plane); from 6: 1, 7, 11.
    # Pawns when he moved: 11, 15, 17, 7, 20 -> 7 and 11 are out; 25 would end the game.
    t2 = Table(racks_=racks(mrx=["car/secret"] * 3 + ["car/double"] * 5))
    t2.do("mrx", "move", ticket="car/double", to=3)
    t2.refill("mrx", ["car/double"])
    t2.do("det2", "move", pawn="yellow", ticket="car/siren", to=7)
    t2.pawns_move(
        {
            "red": ("car/investigate", 11),
            "blue": ("car/investigate", 15),
            "green": ("car/investigate", 17),
            "black": ("car/siren", 20),
        }
    )
    t2.end_round()
    t2.do("mrx", "secret", pay=["car/secret"] * 3, ticket="car/double", to=4)
    assert possible_positions(t2.state) == {1, 2, 3, 4, 6, 8, 13, 23}


def test_possible_a_reveal_narrows_the_later_slots_too():
    t = Table()
    t.do("mrx", "move", ticket="car/double", to=3)
    t.refill("mrx")
    tracker = t.state.possible_cache or None
    assert tracker is None
    before = possible_positions(t.state)
    assert before == {1, 2, 3, 6, 7}
    # reveal slot 0 = 2 (what a position check would do): slot 1 becomes {1, 3, 7}
    t.state.events.append(("reveal", 0, 2))
    assert possible_positions(t.state) == {1, 3, 7}


def _brute_force(st) -> set[int]:
    """The same set recomputed from scratch with plain sets, slot by slot."""
    board = st.board
    mission = board.missions[st.mission]
    constraints: dict[int, list] = {}
    moves = {}
    for event in st.events:
        if event[0] == "mx":
            _, slot, transport, blocked, public = event
            moves[slot] = transport
            constraints.setdefault(slot, []).append(
                (lambda c, b=blocked: c not in b)
                if public is None
                else (lambda c, p=public: c == p)
            )
        elif event[0] == "not":
            constraints.setdefault(event[1], []).append(lambda c, s=event[2]: c not in s)
        else:
            constraints.setdefault(event[1], []).append(lambda c, p=event[2]: c == p)
    last = st.last_slot
    frontier = {c for c in mission.starts if all(f(c) for f in constraints.get(0, []))}
    for slot in range(1, last + 1):
        frontier = {c for c in frontier if c not in mission.destinations}
        nxt = set()
        for c in frontier:
            t = moves[slot]
            nbrs = board.neighbours[c] if t is None else board.by_transport[c].get(t, ())
            nxt.update(n for n in nbrs if all(f(n) for f in constraints.get(slot, [])))
        frontier = nxt
    if not st.over:
        frontier -= set(mission.destinations)
    return frontier


@pytest.mark.parametrize("seed", [1, 2, 3, 6])
def test_possible_matches_brute_force_and_holds_the_truth_through_bot_games(seed):
    log = play("mister-x", seed, ["greedy", "greedy", "random"], max_actions=500)
    for _ply, _action, st in replay(log).states():
        got = possible_positions(st)
        assert st.position in got or st.over
        assert got == _brute_force(st)


def test_possible_tracker_is_incremental():
    log = play("mister-x", 11, ["greedy", "greedy"], max_actions=300)
    r = replay(log)
    mission = None
    tracker = None
    for _ply, _action, st in r.states():
        if tracker is None:
            mission = st.board.missions[st.mission]
            tracker = Possible(st.board, mission.starts, mission.destinations)
        tracker.feed(st.events)
        assert tracker.fed == len(st.events)
        assert tracker.current(game_over=st.over) == _brute_force(st)
