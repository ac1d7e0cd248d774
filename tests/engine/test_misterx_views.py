"""What each seat sees (MX-5), and the leak test.

The leak test changes everything a viewer may not know (Mister X's unrevealed
cities, his rack, the bag, other seats' racks, face-down tickets) keeping every
public count, and asserts the view and every action view stay the same: a view
that read hidden data would change. It runs over whole bot games, every frame,
every detective viewer.
"""

from __future__ import annotations

import json
import re

import pytest

from engine import bots_of, play, replay
from engine.games.misterx.state import HIDDEN_SLOTS, MRX, TEAM, rack_list, rack_size
from tests.engine.misterx_helpers import GAME, Table, racks

FILLER = "plane/siren"


def sees_rack(viewer, seat):
    """MX-5, written out here rather than imported: a detective seat sees its own rack,
    the team sees every detective rack, nobody but Mister X sees his."""
    return viewer == seat or (viewer == TEAM and seat.startswith("det"))


def _hide_differently(st, viewer):
    """A copy of ``st`` whose parts hidden from ``viewer`` are all different."""
    other = st.clone()
    board_cities = sorted(st.board.cities)
    for slot in range(len(other.path)):
        if not st.is_public_slot(slot):
            other.path[slot] = next(c for c in board_cities if c != st.path[slot])
    for slot in range(1, len(other.slots)):
        ticket, face_up = other.slots[slot]
        if not face_up:
            other.slots[slot] = (
                "train/double" if ticket != "train/double" else "car/secret",
                False,
            )
    for seat, rack in st.racks.items():
        if not sees_rack(viewer, seat):
            other.racks[seat] = {FILLER: rack_size(rack)} if rack_size(rack) else {}
    other.bag = {FILLER: rack_size(st.bag)} if rack_size(st.bag) else {}
    return other


def _hide_in_action(st_after, action, viewer):
    """The action with the fields hidden from ``viewer`` changed."""
    changed = json.loads(json.dumps(action))
    if action["type"] == "refill" and not sees_rack(viewer, action["seat"]):
        changed["tickets"] = [FILLER] * len(action.get("tickets") or [])
    if action["seat"] == MRX and action["type"] in ("move", "secret", "double"):
        steps = changed["moves"] if action["type"] == "double" else [changed]
        first = st_after.last_slot - len(steps) + 1
        for i, step in enumerate(steps):
            if not st_after.is_public_slot(first + i):
                step["to"] = -1
        if action["type"] == "secret":
            changed["ticket"] = (
                "train/double" if action["ticket"] != "train/double" else "car/secret"
            )
    return changed


def _leak_check(log):
    r = replay(log)
    detective_viewers = [v for v in GAME.viewers(r.options, r.seats) if v != MRX]
    assert TEAM in detective_viewers
    checked = 0
    for _ply, action, st in r.states():
        for viewer in detective_viewers:
            shown = GAME.view(st, viewer)
            assert shown == GAME.view(_hide_differently(st, viewer), viewer)
            text = json.dumps(shown)
            assert '"path"' not in text and '"bag"' not in text and '"rack"' not in text
            if not st.is_public_slot(st.last_slot):
                assert shown["mrx"]["position"] is None
            assert set(shown["mrx"]["known"]) == {
                str(s) for s in range(len(st.path)) if st.is_public_slot(s)
            }
            if action is not None:
                seen = GAME.action_view(st, action, viewer)
                assert seen == GAME.action_view(st, _hide_in_action(st, action, viewer), viewer)
                GAME.notation(seen)
            checked += 1
    return checked


@pytest.mark.parametrize(
    "seed,bots",
    [
        (1, ["greedy", "greedy", "greedy"]),
        (2, ["greedy", "random"]),
        (4, ["random", "greedy", "greedy", "greedy", "greedy", "greedy"]),
        (9, ["greedy", "greedy", "random", "greedy"]),
    ],
)
def test_mx_5_leak_no_detective_view_holds_hidden_positions_or_racks(seed, bots):
    log = play("mister-x", seed, bots, max_actions=600)
    assert _leak_check(log) > 0


def test_mx_5_leak_check_also_covers_secret_moves_and_open_play():
    # a long hand-played game: secret move, then past slot 24
    from tests.engine.test_misterx_rules import quiet_round

    t = Table(racks_=racks(mrx=["car/secret"] * 3 + ["plane/double"] + ["car/double"] * 4))
    t.do("mrx", "secret", pay=["car/secret"] * 3, ticket="plane/double", to=3)
    t.refill("mrx")
    quiet_round(t, mrx=False)
    for _ in range(25):
        quiet_round(t)
    assert t.state.last_slot == 26
    assert _leak_check(t.log()) > 0


def test_mx_5_mister_x_sees_his_path_and_rack_but_not_the_bag_or_detective_racks():
    t = Table()
    t.do("mrx", "move", ticket="car/double", to=3)
    v = GAME.view(t.state, MRX)
    assert v["mrx"]["path"] == [2, 3] and v["mrx"]["position"] == 3
    assert v["mrx"]["rack"] == ["car/double"] * 7
    assert "bag" not in v
    assert all("tickets" not in entry for entry in v["racks"].values())
    assert v["checklist"][0]["ticket"] == "car/double"


def test_mx_5_detective_seat_sees_its_own_rack_and_the_team_view_sees_all():
    t = Table()
    det1 = GAME.view(t.state, "det1")
    assert det1["racks"]["det1"]["tickets"] == ["car/investigate"] * 7
    assert "tickets" not in det1["racks"]["det2"]
    assert det1["racks"]["det2"]["size"] == 6
    team = GAME.view(t.state, TEAM)
    assert team["racks"]["det2"]["tickets"] == ["car/siren"] * 6
    assert team["mrx"]["rack_size"] == 8 and "rack" not in team["mrx"]
    everything = GAME.view(t.state, None)
    assert everything["mrx"]["path"] == [2] and len(everything["bag"]) == 120 - 21


def test_mx_5_refills_of_other_seats_are_shown_as_a_count():
    t = Table()
    t.do("mrx", "move", ticket="car/double", to=3)
    recorded = t.refill("mrx", ["car/secret"])
    assert GAME.action_view(t.state, recorded, "det1") == {
        "seat": "mrx",
        "type": "refill",
        "count": 1,
    }
    assert GAME.action_view(t.state, recorded, MRX) == recorded
    moved = GAME.action_view(t.state, t.actions[0], "det2")
    assert moved == {"seat": "mrx", "type": "move", "ticket": "car/double", "slot": 1}
    assert GAME.notation(moved) == "X car/double -> ? [1]"


def test_mx_5_frames_for_every_viewer_and_all_seeing_text():
    log = play("mister-x", 5, ["greedy", "greedy"], max_actions=60)
    r = replay(log)
    for viewer in [None, *GAME.viewers(r.options, r.seats)]:
        frames = list(r.frames(viewer))
        assert len(frames) == len(r.actions) + 1
        assert all("round" in f["view"] and "phase" in f["view"] for f in frames)
    text = GAME.render_text(r.final_state)
    assert "Mister X at" in text and "ticket board" in text
    # In the reader's language: the cities by their names there, tickets by transport.
    japanese = GAME.render_text(r.final_state, "ja")
    city = r.final_state.board.cities[r.final_state.position]
    assert "ミスターXの位置" in japanese and "チケットボード" in japanese
    assert f"{city.id} {city.names.get('ja', city.name)}" in japanese
    assert not re.search(r"[A-Za-z]{3,}", japanese.replace("europe", ""))
    russian = GAME.render_text(r.final_state, "ru")
    assert "табло билетов" in russian and not re.search(
        r"[A-Za-z]{3,}", russian.replace("europe", "")
    )


def test_mx_3_11_hidden_slot_count_is_24():
    assert HIDDEN_SLOTS == 24
    assert rack_list({"b": 1, "a": 2}) == ["a", "a", "b"]


@pytest.mark.parametrize("bot", ["greedy", "random"])
def test_mx_5_bots_decide_only_from_what_their_seat_knows(bot):
    """Changing what a seat cannot see never changes its bot's decision."""
    from engine import Rng

    decide = bots_of(GAME)[bot]
    compared = 0
    for seed in (21, 22, 23):
        log = play("mister-x", seed, ["greedy", "greedy", "greedy"], max_actions=300)
        for ply, _action, st in replay(log).states():
            if st.over:
                continue
            for seat in GAME.to_act(st):
                hidden = _hide_differently(st, seat)
                if seat == MRX:  # Mister X may not see the bag nor the detectives' racks
                    hidden = st.clone()
                    hidden.bag = {FILLER: rack_size(st.bag)} if st.bag else {}
                    for other in st.det_seats:
                        size = rack_size(st.racks[other])
                        hidden.racks[other] = {FILLER: size} if size else {}
                assert decide(GAME, st, seat, Rng(ply)) == decide(GAME, hidden, seat, Rng(ply))
                compared += 1
    assert compared > 100
