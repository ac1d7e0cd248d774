"""Beliefs on the board (engine/ai/beliefs.py and each game's ``summary``): the figures
shown are those the belief samplers draw by (chi-square against the samplers), the Cloak &
Dagger proofs hold in the true state of every game (with hazards and double agents) and a
proof that broke them would be caught, and the track says what each ply changed."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from engine import get_game, play, replay
from engine.ai.beliefs import belief_track, entropy
from engine.ai.cloak import beliefs as cloak_beliefs
from engine.ai.misterx.beliefs import Beliefs as MisterXBeliefs
from engine.ai.registry import ai_of
from engine.core.rng import Rng
from engine.games.misterx.knowledge import possible_positions
from engine.games.misterx.state import TEAM
from tests.engine.ai.test_misterx_beliefs import chi_square_critical

MX = get_game("mister-x")
CUL = get_game("cryptid-urban-legends")
CD = get_game("cloak-and-dagger")


def test_entropy():
    assert entropy([1, 1, 1, 1]) == 2.0
    assert entropy([5]) == 0.0
    assert entropy([]) == 0.0
    assert entropy([3, 1]) == pytest.approx(-(0.75 * math.log2(0.75) + 0.25 * math.log2(0.25)))


# --- Mister X -----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [3, 7])
def test_mister_x_heat_is_the_possible_set_weighted_as_the_detectives_sample(seed):
    log = play(MX.id, seed, ["greedy", "greedy", "greedy"])
    checked = 0
    for ply, _action, st in replay(log).states():
        for viewer in (None, "mrx", "det1", TEAM):
            (belief,) = ai_of(MX).belief_summary(st, viewer)
            assert belief["holder"] == TEAM and belief["kind"] == "position"
            # public facts only: every perspective is shown the same
            assert belief == ai_of(MX).belief_summary(st, TEAM)[0]
        cities = dict(belief["cities"])
        assert set(cities) == set(possible_positions(st)) or MX.is_over(st)
        assert sum(cities.values()) == pytest.approx(1, abs=1e-3)
        assert belief["measure"]["count"] == len(cities)
        if ply % 25 == 12 and len(cities) > 2:
            # the weights are those the detectives' samples draw Mister X's city by
            beliefs = MisterXBeliefs(st, TEAM)
            rng = Rng(ply)
            draws = 3000
            seen = Counter(beliefs.sample(rng).path[-1] for _ in range(draws))
            weights = beliefs.path_weights()
            total = sum(weights.values())
            chi2 = sum(
                (seen[c] - draws * w / total) ** 2 / (draws * w / total) for c, w in weights.items()
            )
            assert chi2 < chi_square_critical(len(weights) - 1), (ply, chi2)
            checked += 1
    assert checked


# --- Cryptid ------------------------------------------------------------------------------


def test_cryptid_hand_odds_are_the_samplers():
    log = play(CUL.id, 4, ["greedy", "greedy"])
    checked = 0
    for ply, _action, st in replay(log).states():
        if CUL.is_over(st):
            continue
        shown = {b["holder"]: b for b in ai_of(CUL).belief_summary(st, None)}
        assert set(shown) == {"cryptid", "scientist"}
        for seat in ("cryptid", "scientist"):
            (own,) = ai_of(CUL).belief_summary(st, seat)
            assert own == shown[seat]  # a seat is shown its own belief, as the all-seeing one is
            if ply % 5 or own["hand_size"] == 0:
                continue
            beliefs = ai_of(CUL).beliefs(st, seat)
            rng = Rng(ply)
            draws = 2000
            hands = [tuple(beliefs.sample(rng).hands[own["about"]]) for _ in range(draws)]
            for card in own["cards"]:
                held = sum(card["card"] in hand for hand in hands) / draws
                sd = math.sqrt(card["at_least_one"] * (1 - card["at_least_one"]) / draws) + 1e-9
                assert abs(held - card["at_least_one"]) < 4 * sd + 0.005, (ply, seat, card, held)
                mean = sum(hand.count(card["card"]) for hand in hands) / draws
                assert mean == pytest.approx(card["expected"], abs=0.08)
            assert own["measure"]["count"] >= len(set(hands))
            checked += 1
    assert checked > 3


# --- Cloak & Dagger -----------------------------------------------------------------------


def _cloak_logs(count: int) -> list[dict]:
    logs = []
    for seed in range(count):
        players = 2 + seed % 5
        options = {
            "double_agents": seed % 2 == 0,
            "hazards": seed % 3 != 2,
            "document_copies": 3 if seed % 4 == 0 else 1,
        }
        bots = ["greedy" if (seed + k) % 2 else "random" for k in range(players)]
        logs.append(play(CD.id, seed, bots, options=options))
    return logs


def _false_proofs(
    logs: list[dict], proofs_of=cloak_beliefs.proofs_of, first: bool = False
) -> list[str]:
    """Every proof that does not hold in the true state, over every ply and seat (the
    first one found, with ``first``)."""
    wrong = []
    for number, log in enumerate(logs):
        for ply, _action, st in replay(log).states():
            for seat in range(len(st.seats)):
                proofs = proofs_of(st, seat)
                for n in range(1, 21):
                    real = Counter(st.envelopes[n])
                    low = proofs.low[n]
                    if any(real[c] < k for c, k in low.items()) or (
                        proofs.exact[n] and Counter(low) != real
                    ):
                        wrong.append(
                            f"game {number}, ply {ply}, seat {seat}, envelope {n}: {dict(low)} "
                            f"{'exactly' if proofs.exact[n] else ''} but {dict(real)}"
                        )
                        if first:
                            return wrong
    return wrong


@pytest.fixture(scope="module")
def cloak_logs():
    return _cloak_logs(30)


def test_cloak_proofs_hold_in_the_true_state(cloak_logs):
    assert not _false_proofs(cloak_logs)[:5]


def test_cloak_proofs_prove_something(cloak_logs):
    """Not vacuous: the sheets place cards and know envelopes exactly, deduce where another
    seat took a spy or revealed a hazard, and lose certainty on unseen turns."""
    exact = located = in_doubt = 0
    for log in cloak_logs[:10]:
        for _ply, _action, st in replay(log).states():
            for seat in st.seats:
                (belief,) = ai_of(CD).belief_summary(st, seat)
                exact += sum(
                    known and cards != ""
                    for cards, known in zip(belief["certain"], belief["exact"], strict=True)
                )
                located += belief["located"]
                in_doubt += belief["measure"]["count"]
    assert exact and located and in_doubt


def test_a_proof_that_forgets_the_secret_second_card_is_caught(cloak_logs, monkeypatch):
    """The soundness check can fail: a fold that ignores the hidden second card of a take
    (keeps the envelope's cards certain) is found out."""
    monkeypatch.setattr(cloak_beliefs.Proofs, "_secret_second", lambda self, n: None)
    assert _false_proofs(cloak_logs, first=True)


def test_cloak_seat_is_shown_its_own_sheet_the_all_seeing_every_seat():
    log = play(CD.id, 3, ["greedy"] * 4, options={"double_agents": True, "hazards": True})
    st = replay(log).final_state
    assert [b["holder"] for b in ai_of(CD).belief_summary(st, None)] == ["p1", "p2", "p3", "p4"]
    assert [b["holder"] for b in ai_of(CD).belief_summary(st, "p3")] == ["p3"]
    assert ai_of(CD).belief_summary(st, "p3")[0] == ai_of(CD).belief_summary(st, None)[2]


# --- the track ----------------------------------------------------------------------------


def test_the_track_says_what_each_ply_changed():
    log = play(MX.id, 7, ["greedy", "greedy", "greedy"])
    track = belief_track(MX, log, TEAM)
    plies = track["plies"]
    assert [p["ply"] for p in plies] == list(range(len(log["actions"]) + 1))
    assert plies[0]["beliefs"][0]["changed"] is None
    changes = 0
    for before, after in zip(plies, plies[1:], strict=False):
        was, now = before["beliefs"][0]["measure"], after["beliefs"][0]["measure"]
        changed = after["beliefs"][0]["changed"]
        if was == now:
            assert changed is None
        else:
            changes += 1
            assert (changed["from"], changed["to"]) == (was["count"], now["count"])
            assert (changed["bits_from"], changed["bits_to"]) == (was["bits"], now["bits"])
    assert changes > 5
    # narrowed at some ply, widened at another (Mister X moved on)
    counts = [p["beliefs"][0]["changed"] for p in plies if p["beliefs"][0]["changed"]]
    assert any(c["to"] < c["from"] for c in counts) and any(c["to"] > c["from"] for c in counts)


def test_a_rejected_log_tracks_up_to_its_last_valid_action(example_log):
    log = example_log("cryptid-illegal-draw.json")
    track = belief_track(CUL, log, "cryptid")
    assert 0 < len(track["plies"]) <= len(log["actions"])
