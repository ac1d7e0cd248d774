"""Stored analyses are seen by everyone who may see the match (issue 33 item 6): the demo
data holds an analysed match of every game in a public club, and a signed-out visitor
finds them from the club's page and reads them."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.urls import reverse

import engine
from analysis import services
from analysis.models import MatchAnalysis
from analysis.selectors import analysed_matches
from clubs.models import Club
from pages.demo import DEMO_CLUBS

pytestmark = pytest.mark.django_db


def analysed(match, status: str = "done", version: str | None = None) -> MatchAnalysis:
    return MatchAnalysis.objects.create(
        match=match,
        engine_version=version or services.current_version(match),
        budget=2,
        status=status,
        result={"plies": [], "moves": []} if status == "done" else None,
    )


def test_the_club_page_lists_the_matches_whose_current_analysis_is_stored(
    client, club, example_log
):
    from games.services import ingest_log

    done, running, outdated, plain = (
        ingest_log(club, example_log(name), None)
        for name in (
            "cryptid-escape.json",
            "cryptid-timeout.json",
            "misterx-destination.json",
            "cloak-documents.json",
        )
    )
    analysed(done)
    analysed(running, status="running")
    analysed(outdated, version="mx-0/analysis-1")  # by an engine that has changed since
    assert [m.pk for m in analysed_matches(club)] == [done.pk]
    html = client.get(reverse("club", args=[club.slug])).content.decode()
    assert "Analysed matches" in html
    assert f'href="{reverse("match-replay", args=[done.pk])}"' in html
    for other in (running, outdated, plain):
        assert f'href="{reverse("match-replay", args=[other.pk])}"' not in html


def test_a_club_without_a_stored_analysis_shows_no_such_list(client, club):
    assert "Analysed matches" not in client.get(reverse("club", args=[club.slug])).content.decode()


def test_the_demo_has_an_analysed_match_of_every_game_a_visitor_reads(client, settings):
    settings.LANTERN_ANALYSIS_BUDGET = 2  # the figures do not matter here, only that they are
    call_command("seed_demo", matches_per_game=8)
    public = Club.objects.filter(slug__in=[d.slug for d in DEMO_CLUBS if d.is_public])
    games = {game_id for game_id, game in engine.all_games().items() if engine.analysable(game)}
    assert games == {"cryptid-urban-legends", "mister-x", "cloak-and-dagger"}
    shown = {}
    for club in public:
        html = client.get(reverse("club", args=[club.slug])).content.decode()
        for match in analysed_matches(club):
            assert f'href="{reverse("match-replay", args=[match.pk])}"' in html
            shown[match.game] = match
    assert set(shown) == games
    for match in shown.values():  # signed out, as any visitor
        payload = client.get(reverse("api-match-analysis", args=[match.pk])).json()
        assert payload["status"] == "done" and payload["result"]["lines"], payload


@pytest.mark.parametrize(
    ("language", "said"),
    [("en", "8 games played on with"), ("ru", "8 раз вместо 96"), ("ja", "96回ではなく8回進めた")],
)
def test_the_note_on_a_cut_budget_says_the_number_in_the_reader_s_grammar(
    club, example_log, language, said
):
    from django.contrib.auth.models import AnonymousUser
    from django.utils import translation

    from analysis.selectors import analysis_payload
    from games.services import ingest_log

    match = ingest_log(club, example_log("cryptid-escape.json"), None)
    # budget 2 of the default 24: a Cryptid seat's own chance from 4 batches, 8 games of 96
    analysed(match, status="queued")
    with translation.override(language):
        note = analysis_payload(match, "all", AnonymousUser())["note"]
    assert said in note, note
