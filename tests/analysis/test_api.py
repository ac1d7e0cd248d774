"""``/api/matches/{id}/analysis``: members request it, anyone who sees the match reads it,
and a seat's perspective gets only figures from that seat's own information."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from clubs.models import Club, Membership

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _small_budget(settings):
    settings.LANTERN_ANALYSIS_BUDGET = 2


@pytest.fixture
def people(django_user_model, club):
    member = django_user_model.objects.create_user(username="mia", password="pw-for-tests-only")
    outsider = django_user_model.objects.create_user(username="otto", password="pw-for-tests-only")
    Membership.objects.create(user=member, club=club, role=Membership.Role.MEMBER)
    return {"member": member, "outsider": outsider}


@pytest.fixture
def match(club, example_log):
    from games.services import ingest_log

    return ingest_log(club, example_log("cryptid-escape.json"), None)


def url(match, view="all"):
    return f"/api/matches/{match.pk}/analysis?view={view}"


def test_only_members_may_request_and_then_every_perspective_reads(
    api, match, django_capture_on_commit_callbacks
):
    before = api(None).get(url(match)).json()
    assert before["status"] == "none" and before["available"] and not before["can_request"]
    assert api("member").get(url(match)).json()["can_request"]
    assert api(None).post(url(match)).status_code in (401, 403)
    refused = api("outsider").post(url(match))
    assert refused.status_code == 403 and refused.json()["error"] == "forbidden"
    with django_capture_on_commit_callbacks(execute=True):
        answer = api("member").post(url(match))
    assert answer.status_code == 202
    done = api(None).get(url(match)).json()
    plies = len(match.log.document["actions"]) + 1
    assert done["status"] == "done" and done["progress"] == {"done": plies, "total": plies}
    lines = {(line["seat"], line["kind"]) for line in done["result"]["lines"]}
    assert lines == {(s, k) for s in ("cryptid", "scientist") for k in ("own", "all")}
    assert all(len(line["points"]) == plies for line in done["result"]["lines"])


def test_a_seat_perspective_gets_its_own_figures_only(
    api, match, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        api("member").post(url(match))
    everything = api(None).get(url(match)).json()["result"]
    seat = api(None).get(url(match, "scientist")).json()["result"]
    assert [(line["seat"], line["kind"]) for line in seat["lines"]] == [("scientist", "own")]
    mine = next(
        line
        for line in everything["lines"]
        if line["seat"] == "scientist" and line["kind"] == "own"
    )
    assert seat["lines"][0]["points"] == mine["points"]
    # every figure with its error (the band), every move with its interval and whether it is clear
    assert seat["lines"][0]["errors"] == mine["errors"] and len(mine["errors"]) == len(
        mine["points"]
    )
    assert all({"unclear", "drop_low", "drop_high"} <= set(m) for m in seat["moves"])
    assert all(m["label"] is None for m in seat["moves"] if m["unclear"])
    assert set(seat["accuracy_se"]) == {"scientist"}
    assert seat["moves"] and {m["seat"] for m in seat["moves"]} == {"scientist"}
    assert set(seat["accuracy"]) == {"scientist"}
    text = json.dumps(seat)
    assert "unknowable" not in text and "all_seeing_drop" not in text
    assert any("unknowable" in m for m in everything["moves"])
    assert api(None).get(url(match, "nobody")).status_code == 422


def test_a_private_club_match_does_not_exist_for_outsiders(api, match):
    Club.objects.filter(pk=match.club_id).update(is_public=False)
    assert api("outsider").get(url(match)).status_code == 404
    assert api("outsider").post(url(match)).status_code == 404


def test_a_game_without_a_belief_sampler_says_analysis_is_not_available(
    api, club, example_log, monkeypatch
):
    from engine.ai.registry import ai_of
    from games.services import ingest_log

    monkeypatch.setattr(type(ai_of("cloak-and-dagger")), "analysis_search", None)
    cloak = ingest_log(club, example_log("cloak-documents.json"), None)
    payload = api("member").get(url(cloak)).json()
    assert not payload["available"] and "cannot be analysed" in payload["reason"]
    assert not payload["can_request"]
    refused = api("member").post(url(cloak))
    assert refused.status_code == 422 and "cannot be analysed" in refused.json()["message"]


def test_the_player_page_shows_accuracy_over_recent_analysed_games(
    client, club, example_log, django_capture_on_commit_callbacks
):
    from analysis.selectors import recent_accuracy
    from games.services import ingest_log
    from ladder.models import Ladder

    with django_capture_on_commit_callbacks(execute=True):
        match = ingest_log(club, example_log("cryptid-escape.json"), None)
    alice = match.seats.get(seat="cryptid").player
    assert recent_accuracy(club.pk, match.game, alice.pk) is None  # nothing analysed yet
    from analysis import services

    with django_capture_on_commit_callbacks(execute=True):
        services.request_analysis(match, None)
    stored = match.analyses.get().result["accuracy"]["cryptid"]
    assert recent_accuracy(club.pk, match.game, alice.pk) == {
        "mean": stored,
        "matches": [{"match": match.pk, "seat": "cryptid", "accuracy": stored}],
    }
    ladder = Ladder.objects.get(club=club, game=match.game, kind="standard")
    page = client.get(reverse("ladder-player", args=[club.slug, ladder.url_key, alice.handle]))
    assert page.status_code == 200
    assert (
        "Accuracy" in page.content.decode()
        and f"#{match.pk}</a> {stored:.1f}%" in page.content.decode()
    )


def test_a_figure_not_estimated_is_shown_with_why_in_the_reader_language(
    api, club, example_log, monkeypatch, django_capture_on_commit_callbacks
):
    """The sampler gives up on p1's worlds at ply 4 (forced): the job still finishes; the
    all-seeing and p1's perspectives get a gap in p1's line, its move from there unrated,
    and the reason said in the request's language; p2's perspective gets nothing of it."""
    from engine.ai.cloak import particles
    from engine.ai.contract import SAMPLING_FAILED, SamplingFailed
    from engine.core.messages import msg, render
    from games.services import ingest_log

    cloak = ingest_log(club, example_log("cloak-documents.json"), None)
    dealt = particles.Particles.worlds

    def failing(self, state, opening, count, rng):
        if self.viewer == "p1" and state.ply == 4:
            raise SamplingFailed("forced")
        return dealt(self, state, opening, count, rng)

    monkeypatch.setattr(particles.Particles, "worlds", failing)
    with django_capture_on_commit_callbacks(execute=True):
        api("member").post(url(cloak))
    for view in ("all", "p1"):
        answer = api(None).get(url(cloak, view), HTTP_ACCEPT_LANGUAGE="ja").json()
        assert answer["status"] == "done"
        own = next(
            line
            for line in answer["result"]["lines"]
            if line["seat"] == "p1" and line["kind"] == "own"
        )
        assert own["points"][4] is None and None not in own["points"][5:]
        notes = answer["result"]["not_estimated"]
        # its own chance after ply 4, and its decision made there (move 5)
        assert cloak.log.document["actions"][4]["seat"] == "p1"
        assert {(n["ply"], n["seat"]) for n in notes} == {(4, "p1"), (5, "p1")}
        assert (
            notes[0]["text"]
            == render(msg(SAMPLING_FAILED), "ja")
            != render(msg(SAMPLING_FAILED), "en")
        )
    assert api(None).get(url(cloak, "p2")).json()["result"]["not_estimated"] == []
