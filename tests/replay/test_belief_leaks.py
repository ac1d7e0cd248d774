"""Whole-game counterfactual leak test of beliefs and analysis: for each game, two stored
matches with the same public history for a seat and different hidden facts
(tests/replay/twins.py) get byte-identical answers from ``/api/matches/{id}/beliefs`` and
identical ones (but for the match's id) from ``/api/matches/{id}/analysis``, for every ply,
from that seat's perspective. And the test can fail: a belief or an analysis that reads a
hidden fact is caught by the same comparison."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.cache import cache

from analysis import services
from analysis.models import MatchAnalysis
from clubs.models import Membership
from engine import analysable, get_game, play
from engine.ai import analysis as engine_analysis
from engine.ai.registry import ai_of
from replay.frames import ALL, build_frames
from tests.replay.twins import cloak_twin, cryptid_twin, misterx_rack_twin, misterx_twin, unseeded

pytestmark = pytest.mark.django_db

#: playouts per estimate: small, the twins' figures must agree whatever the budget
BUDGET = 2

CRYPTID = ("cryptid-urban-legends", 11, ["greedy", "greedy"], {})
CASES = [
    (CRYPTID, "scientist", cryptid_twin),
    (CRYPTID, "cryptid", cryptid_twin),
    (
        ("cloak-and-dagger", 3, ["greedy"] * 4, {"double_agents": True, "hazards": True}),
        "p2",
        cloak_twin,
    ),
    (("mister-x", 36, ["greedy"] * 3, {}), "detectives", misterx_twin),
    (("mister-x", 2, ["greedy"] * 3, {}), "det1", misterx_twin),
    (("mister-x", 36, ["greedy"] * 3, {}), "mrx", misterx_rack_twin),
]


@pytest.fixture(autouse=True)
def _own_empty_cache(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    cache.clear()


def _twins(case: tuple[Any, ...], seat: str, make_twin: Any) -> tuple[dict, dict]:
    game, seed, bots, options = case
    log = play(game, seed, bots, options=options)
    twin = make_twin(log, seat)
    original = unseeded(log)
    if game == "cloak-and-dagger":
        original["setup"].pop("pile", None)  # as its twin: each place names its card
    return original, twin


def _store_and_analyse(club: Any, log: dict) -> Any:
    from games.services import ingest_log

    match = ingest_log(club, log, None)
    version = services.current_version(match)
    if version is not None:
        analysis = MatchAnalysis.objects.create(match=match, engine_version=version, budget=BUDGET)
        assert services.run_analysis(analysis.pk) == "done"
    return match


def _answers(client: Any, match: Any, seat: str) -> tuple[bytes, dict]:
    beliefs = client.get(f"/api/matches/{match.pk}/beliefs?view={seat}")
    analysis = client.get(f"/api/matches/{match.pk}/analysis?view={seat}")
    assert beliefs.status_code == 200 and analysis.status_code == 200
    shown = analysis.json()
    assert shown.pop("match") == match.pk
    return beliefs.content, shown


def _compare(client: Any, club: Any, one: dict, two: dict, seat: str) -> tuple[tuple, tuple]:
    first = _answers(client, _store_and_analyse(club, one), seat)
    cache.clear()
    second = _answers(client, _store_and_analyse(club, two), seat)
    return first, second


@pytest.fixture
def member(client, club, user):
    Membership.objects.create(user=user, club=club)
    client.force_login(user)
    return client


@pytest.mark.parametrize(
    ("case", "seat", "make_twin"), CASES, ids=[f"{case[0]}-{seat}" for case, seat, _ in CASES]
)
def test_twins_get_the_same_beliefs_and_analysis_for_the_seat(member, club, case, seat, make_twin):
    one, two = _twins(case, seat, make_twin)
    # twins indeed: the seat is shown the same game, the hidden facts differ
    assert build_frames(one, seat)["frames"] == build_frames(two, seat)["frames"]
    assert build_frames(one, ALL)["frames"] != build_frames(two, ALL)["frames"]
    (beliefs_one, analysis_one), (beliefs_two, analysis_two) = _compare(
        member, club, one, two, seat
    )
    assert beliefs_one == beliefs_two
    assert analysis_one == analysis_two
    # not vacuous: there were beliefs at every ply, and an analysis where the game has one
    plies = len(one["actions"]) + 1
    track = json.loads(beliefs_one)["plies"]
    assert len(track) == plies and all(entry["beliefs"] for entry in track)
    if analysable(get_game(case[0])):
        assert analysis_one["status"] == "done"
        assert all(len(line["points"]) == plies for line in analysis_one["result"]["lines"])
        assert analysis_one["result"]["lines"]


def test_a_belief_that_reads_a_hidden_fact_is_caught(member, club, monkeypatch):
    """The comparison can fail: the Cryptid belief with the opponent's real hand added."""
    ai = ai_of("cryptid-urban-legends")
    honest = type(ai).belief_summary

    def leaky(self, state, viewer):
        beliefs = honest(self, state, viewer)
        for belief in beliefs:
            belief["leak"] = sorted(state.hands[belief["about"]])
        return beliefs

    monkeypatch.setattr(type(ai), "belief_summary", leaky)
    one, two = _twins(CRYPTID, "scientist", cryptid_twin)
    (beliefs_one, _), (beliefs_two, _) = _compare(member, club, one, two, "scientist")
    assert beliefs_one != beliefs_two


def test_an_analysis_that_reads_a_hidden_fact_is_caught(member, club, monkeypatch):
    """The comparison can fail: each seat's "own" chance estimated from the real position."""
    honest = engine_analysis.Analyst.chances

    def leaky(self, state, seat, ply):
        return honest(self, state, None, [seat], ply)[0]

    monkeypatch.setattr(engine_analysis.Analyst, "own_chance", leaky)
    one, two = _twins(CRYPTID, "scientist", cryptid_twin)
    (_, analysis_one), (_, analysis_two) = _compare(member, club, one, two, "scientist")
    assert analysis_one["status"] == analysis_two["status"] == "done"
    assert analysis_one != analysis_two
