"""Ladder pages and API, over matches rated through the services."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from clubs.models import Club
from ladder.models import Ladder, RatingChange
from ladder.services import apply_match
from tests.ladder.factories import BASE, make_match

pytestmark = pytest.mark.django_db

CRYPTID = "cryptid-urban-legends"


@pytest.fixture
def rated(club):
    """ann beats ben twice as cryptid; then ben beats cat as scientist."""
    plays = [
        ([("cryptid", "ann"), ("scientist", "ben")], "cryptid"),
        ([("cryptid", "ann"), ("scientist", "ben")], "cryptid"),
        ([("cryptid", "cat"), ("scientist", "ben")], "scientist"),
    ]
    for day, (seats, winner) in enumerate(plays):
        apply_match(
            make_match(club, CRYPTID, seats, winner, played_at=BASE + timedelta(days=day)).pk
        )
    return Ladder.objects.get(club=club, game=CRYPTID)


def test_standings_page_ranks_players_with_provisional_marks_and_sparklines(client, rated):
    # Match 1: adv 0, E 0.5, ann +32 -> 1532, ben 1468.
    # Match 2: cryptid won 1 of 1 -> p = 2/3, adv = 400*log10(2) = 120.412;
    #   E_ann = 1 / (1 + 10^((1468 - 1532 - 120.412) / 400)) = 1 / (1 + 10^-0.461030)
    #         = 1 / 1.345915 = 0.742989
    #   ann: 1532 + 64 * (1 - 0.742989) = 1532 + 16.4487 = 1548.449; ben: 1451.551.
    # Match 3: 2 of 2 -> p = 3/4, adv = 400*log10(3) = 190.849; cat 1500 vs ben 1451.551:
    #   E_cat = 1 / (1 + 10^((1451.551 - 1500 - 190.849) / 400)) = 1 / (1 + 10^-0.598243)
    #         = 1 / 1.252207 = 0.798590;  E_ben = 0.201410
    #   ben wins: 1451.551 + 64 * 0.798590 = 1451.551 + 51.1098 = 1502.661; cat: 1448.890.
    # All three have played fewer than 10 games: provisional, "?".
    html = client.get("/clubs/riverside/ladders/cryptid-urban-legends/").content.decode()
    rows = re.findall(
        r"<td>(\d+)</td>\s*<td><a [^>]*>(\w+)</a></td>\s*<td [^>]*>([\d?]+)</td>", html
    )
    assert rows == [("1", "ann", "1548?"), ("2", "ben", "1503?"), ("3", "cat", "1449?")]
    assert html.count('<svg class="sparkline"') == 3
    assert "ann" in html and "Cryptid 2–0" in html and "Scientist 1–2" in html  # roles by name


def test_player_page_shows_history_chart_and_the_sum(client, rated):
    html = client.get(
        "/clubs/riverside/ladders/cryptid-urban-legends/players/ben/"
    ).content.decode()
    assert 'aria-label="rating history"' in html
    # A dot per rated match, its values on hover, coloured by the role played.
    dots = re.findall(r'<circle class="dot role-(\d)"[^>]*data-text="([^"]+)"', html)
    assert len(dots) == 3
    assert {role for role, _ in dots} == {"0"}  # ben played the scientist every time
    # The role as the game names it at the table, not the log's id.
    assert all(
        re.match(r"\d{4}-\d\d-\d\d: \d+ \([+−][\d.]+\), (won|lost) as Scientist, match #\d+$", t)
        for _, t in dots
    ), dots
    assert html.count('<details class="sum">') == 3
    # The newest change written out (numbers from the standings test above).
    assert "E = 1 / (1 + 10^((1500.00 − 1451.55 − (-190.85)) / 400)) = 0.2014" in html
    assert "Δ = K × (S − E) = 64 × (1 − 0.2014) = +51.11" in html


@pytest.mark.parametrize(
    ("lang", "role", "date"),
    [("ja", "科学者", r"\d{4}年\d{1,2}月\d{1,2}日"), ("ru", "Учёный", r"\d\d\.\d\d\.\d{4}")],
)
def test_the_charts_hover_names_the_role_and_date_in_the_readers_language(
    client, rated, lang, role, date
):
    html = client.get(
        f"/clubs/riverside/ladders/cryptid-urban-legends/players/ben/?lang={lang}"
    ).content.decode()
    texts = re.findall(r'<circle class="dot role-\d"[^>]*data-text="([^"]+)"', html)
    assert len(texts) == 3
    assert all(re.match(date, t) and role in t and "scientist" not in t for t in texts), texts


def test_head_to_head(client, rated):
    html = client.get(
        "/clubs/riverside/ladders/cryptid-urban-legends/h2h/ann/ben/"
    ).content.decode()
    assert '<span class="score">2 – 0</span>' in html and "in 2 rated matches" in html
    form = client.get("/clubs/riverside/ladders/cryptid-urban-legends/h2h/ann/?vs=cat")
    assert form.status_code == 302 and form["Location"].endswith("/h2h/ann/cat/")


def test_private_club_ladders_are_hidden(client, rated):
    Club.objects.filter(pk=rated.club_id).update(is_public=False)
    assert client.get("/clubs/riverside/ladders/cryptid-urban-legends/").status_code == 404
    assert client.get(f"/api/ladders/{rated.pk}/standings/").status_code == 404
    assert client.get("/api/ladders/").json()["results"] == []


def test_api_standings_and_history(client, rated):
    standings = client.get(f"/api/ladders/{rated.pk}/standings/").json()["results"]
    assert [(r["rank"], r["handle"], r["display"], r["games"]) for r in standings] == [
        (1, "ann", "1548?", 2),
        (2, "ben", "1503?", 3),
        (3, "cat", "1449?", 1),
    ]
    ben = standings[1]["player"]
    history = client.get(f"/api/ladders/{rated.pk}/players/{ben}/history/").json()["results"]
    assert [h["sequence"] for h in history] == [3, 2, 1]
    for h in history:
        assert h["after"] == h["before"] + h["k"] * h["weight"] * (h["score"] - h["expected"])
    ladders = client.get("/api/ladders/").json()["results"]
    assert ladders[0]["rating_options"]["k"] == 32.0 and ladders[0]["role_tallies"] == {
        "cryptid": [2, 3]
    }
    jobs = client.get(f"/api/ladders/{rated.pk}/jobs/")
    assert jobs.status_code == 200


def test_api_is_in_the_openapi_schema(client):
    schema = client.get("/api/schema/").content.decode()
    for path in (
        "/api/ladders/{ladder_id}/standings/",
        "/api/ladders/{ladder_id}/players/{player_id}/history/",
        "/api/ladders/{ladder_id}/jobs/",
    ):
        assert path in schema


def test_history_records_redo_their_sums_exactly(rated):
    for change in RatingChange.objects.all():
        assert change.after == change.before + change.k * change.weight * (
            change.score - change.expected
        )


def test_club_pages_link_to_the_ladders(client, rated):
    assert 'href="/clubs/riverside/ladders/"' in client.get("/clubs/riverside/").content.decode()
    html = client.get("/clubs/riverside/ladders/").content.decode()
    assert 'href="/clubs/riverside/ladders/cryptid-urban-legends/"' in html
    assert "3 rated matches" in html


def test_admin_recompute_action_runs_a_job(
    admin_client, rated, eager_celery, django_capture_on_commit_callbacks
):
    from ladder.models import RecomputeJob

    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            "/admin/ladder/ladder/", {"action": "recompute", "_selected_action": [rated.pk]}
        )
    assert response.status_code == 302
    job = RecomputeJob.objects.get()
    assert (job.reason, job.status, job.progress, job.total) == ("manual", "done", 3, 3)
    page = admin_client.get("/admin/ladder/recomputejob/").content.decode()
    assert "Done" in page and "Manual" in page


def test_changing_options_in_the_admin_recomputes(
    admin_client, rated, eager_celery, django_capture_on_commit_callbacks
):
    from ladder.models import Rating

    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            f"/admin/ladder/ladder/{rated.pk}/change/",
            {"club": rated.club_id, "game": rated.game, "options": '{"role_advantage": "none"}'},
        )
    assert response.status_code == 302, response.content.decode()[:2000]
    # No role advantage: match 1 +32/-32 (1532/1468); match 2 ann 1532 v ben 1468:
    # E_ann = 1 / (1 + 10^(-64/400)) = 1 / (1 + 0.691831) = 0.591076, ann +64 * 0.408924
    # = +26.1712 -> 1558.171; ben 1441.829. Match 3 cat 1500 v ben 1441.829:
    # E_cat = 1 / (1 + 10^(-58.171/400)) = 1 / (1 + 0.715438) = 0.582941; ben wins:
    # +64 * 0.582941 = +37.3083 -> 1479.137; cat 1462.692.
    ratings = dict(Rating.objects.values_list("player__handle", "rating"))
    assert ratings == pytest.approx({"ann": 1558.171, "ben": 1479.137, "cat": 1462.692}, abs=1e-3)


def test_the_written_out_standing_equals_the_generic_walk(rated):
    """RatingSerializer spells its fields out for speed; it must say exactly what DRF's
    field-by-field walk says, provisional or not, with or without a last game."""
    from rest_framework import serializers

    from ladder.api import RatingSerializer
    from ladder.models import Rating

    ratings = list(Rating.objects.select_related("player").order_by("-rating"))
    ratings[0].last_played_at = None
    assert len(ratings) == 3  # ann, ben, cat
    serializer = RatingSerializer()
    for rank, rating in enumerate(ratings, 1):
        rating.rank = rank
        written_out = serializer.to_representation(rating)
        generic = serializers.ModelSerializer.to_representation(serializer, rating)
        assert written_out == dict(generic) and list(written_out) == list(generic)
