"""Fair share of the analysis workers (docs/fair-share.md, analysis.budgets): a person's
analyses at once, a club's CPU seconds a day of automatic analysis, a cost bounded by
the log's length and seats, and retries that asking again does not reset."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from analysis import budgets, chunking, selectors, services
from analysis.models import ClubAnalysisDay, MatchAnalysis
from games.bundles import write_json_lines
from games.models import Match
from games.services import ingest_log
from tests.games.logs import bot_log, compact

pytestmark = pytest.mark.django_db

CRYPTID = "cryptid-urban-legends"


@pytest.fixture(autouse=True)
def _settings(settings):
    settings.LANTERN_ANALYSIS_BUDGET = 2
    settings.LANTERN_ANALYSES_AT_ONCE = 3
    settings.LANTERN_ANALYSIS_SECONDS_PER_UNIT = 0.01


def matches(club, count: int) -> list[Match]:
    return [ingest_log(club, bot_log(CRYPTID, seed, ["ann", "ben"]), None) for seed in range(count)]


def url(match) -> str:
    return f"/api/matches/{match.pk}/analysis?view=all"


@pytest.mark.parametrize(
    ("language", "words"), [("en", "limit is 3 at once"), ("ja", "3"), ("ru", "3")]
)
def test_a_members_burst_gets_its_share_and_a_429_beyond_it(api, club, queued, language, words):
    burst = matches(club, 5)
    answers = [api("member").post(url(m), HTTP_ACCEPT_LANGUAGE=language) for m in burst]
    assert [a.status_code for a in answers] == [202, 202, 202, 429, 429]
    assert len(queued) == 3 and MatchAnalysis.objects.filter(status="queued").count() == 3
    refused = answers[3]
    body = refused.json()
    assert body["error"] == "over_budget" and body["limit"] == 3
    assert int(refused["Retry-After"]) == body["retry_after"] >= 10
    assert words in body["message"] and str(body["retry_after"]) in body["message"]
    if language != "en":
        assert "limit" not in body["message"]  # said in the reader's language
    # One that finishes frees a place.
    MatchAnalysis.objects.filter(pk=queued[0]).update(status="failed")
    assert api("member").post(url(burst[3])).status_code == 202


def test_asking_again_for_analyses_under_way_costs_nothing(api, club, queued):
    burst = matches(club, 3)
    for match in burst:
        assert api("member").post(url(match)).status_code == 202
    assert [api("member").post(url(m)).status_code for m in burst] == [202, 202, 202]
    assert len(queued) == 3


def test_another_persons_analyses_do_not_count_against_mine(api, club, queued):
    burst = matches(club, 4)
    for match in burst[:3]:
        assert api("member").post(url(match)).status_code == 202
    assert api("organiser").post(url(burst[3])).status_code == 202


def test_retries_are_counted_per_analysis_and_not_reset_by_asking_again(
    api, club, monkeypatch, django_capture_on_commit_callbacks
):
    (match,) = matches(club, 1)

    def broken(*args, **kwargs):
        raise RuntimeError("the engine failed")

    monkeypatch.setattr(chunking, "analyse_plies", broken)
    for attempt in range(1, services.MAX_ATTEMPTS + 1):
        with django_capture_on_commit_callbacks(execute=True):
            assert api("member").post(url(match)).status_code == 202
        analysis = MatchAnalysis.objects.get()
        assert (analysis.status, analysis.attempts) == ("failed", attempt)
    shown = api("member").get(url(match)).json()
    assert not shown["can_request"] and "3 times" in shown["error"]
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        refused = api("member").post(url(match))
    assert refused.status_code == 400 and refused.json()["error"] == "retries_spent"
    assert callbacks == [] and MatchAnalysis.objects.get().attempts == services.MAX_ATTEMPTS


def test_a_long_log_is_analysed_with_fewer_playouts_and_the_page_says_so(
    api, club, queued, settings
):
    (match,) = matches(club, 1)
    plies, seats = len(match.log.document["actions"]) + 1, len(match.log.document["seats"])
    settings.LANTERN_ANALYSIS_BUDGET = 24
    settings.LANTERN_ANALYSIS_MAX_WORK = plies * (seats + 1) * 6
    before = api("member").get(url(match)).json()
    # a Cryptid seat's own chance: 4 batches of the budget's playouts (engine.analysis_playouts)
    assert "from 24 games played on with the medium bot instead of 96" in before["note"]
    assert api("member").post(url(match)).status_code == 202
    analysis = MatchAnalysis.objects.get()
    assert analysis.budget == 6 and analysis.work == plies * (seats + 1) * 6
    assert analysis.work <= settings.LANTERN_ANALYSIS_MAX_WORK


def test_a_log_too_long_even_for_the_smallest_budget_is_not_analysed(api, club, queued, settings):
    (match,) = matches(club, 1)
    plies, seats = len(match.log.document["actions"]) + 1, len(match.log.document["seats"])
    settings.LANTERN_ANALYSIS_BUDGET = 24
    settings.LANTERN_ANALYSIS_MIN_BUDGET = 4
    settings.LANTERN_ANALYSIS_MAX_WORK = plies * (seats + 1) * 4 - 1
    shown = api("member").get(url(match)).json()
    assert not shown["available"] and "too long to analyse" in shown["reason"]
    refused = api("member").post(url(match))
    assert refused.status_code == 400 and refused.json()["error"] == "too_long"
    assert queued == [] and not MatchAnalysis.objects.exists()


def test_the_plan_bounds_the_work_by_length_and_seats(settings):
    settings.LANTERN_ANALYSIS_BUDGET = 24
    settings.LANTERN_ANALYSIS_MAX_WORK = 60_000
    settings.LANTERN_ANALYSIS_MIN_BUDGET = 4
    assert budgets.plan(48, 2) == budgets.Plan(24, 48 * 3 * 24)
    # The 6-seat Cloak & Dagger log of 1,897 actions: 4 playouts, not 24.
    long = budgets.plan(1898, 6)
    assert long.budget == 4 and long.work <= 60_000 and long.reduced
    with pytest.raises(Exception, match="too long"):
        budgets.plan(3000, 6)


def test_an_import_into_a_club_with_automatic_analysis_stays_within_its_budget(
    api, club, queued, settings, django_capture_on_commit_callbacks
):
    club.auto_analysis = True
    club.save()
    logs = [bot_log(CRYPTID, seed, ["ann", "ben"]) for seed in range(40)]
    costs = sorted(budgets.plan(len(log["actions"]) + 1, 2).work * 0.01 for log in logs)
    settings.LANTERN_CLUB_ANALYSIS_SECONDS_PER_DAY = int(sum(costs[:10]))  # room for about ten
    with django_capture_on_commit_callbacks(execute=True):
        response = api("organiser").post(
            "/api/clubs/riverside/imports/",
            {
                "file": SimpleUploadedFile(
                    "season.jsonl", write_json_lines([compact(log) for log in logs])
                )
            },
            format="multipart",
        )
    assert response.status_code == 202
    finished = list(Match.objects.filter(status=Match.Status.VALID).order_by("pk"))
    started = MatchAnalysis.objects.filter(automatic=True, status="queued")
    waiting = MatchAnalysis.objects.filter(automatic=True, status="waiting")
    day = ClubAnalysisDay.objects.get(club=club)
    assert 0 < started.count() == len(queued) < len(finished)
    assert sum(a.estimated_seconds for a in started) == pytest.approx(day.reserved_seconds)
    assert day.reserved_seconds <= settings.LANTERN_CLUB_ANALYSIS_SECONDS_PER_DAY
    # none is dropped: the rest wait for the club's next day, in the order they came
    assert started.count() + waiting.count() == len(finished) and day.skipped == 0
    in_line = [a.match_id for a in MatchAnalysis.objects.order_by("created_at", "pk")]
    assert in_line == [m.pk for m in finished]
    assert sorted(queued) == sorted(started.values_list("pk", flat=True))
    assert {a.match_id for a in started} == {m.pk for m in finished[: started.count()]}


def test_a_club_day_holds_what_its_analyses_took_once_they_end(
    club, settings, monkeypatch, django_capture_on_commit_callbacks
):
    club.auto_analysis = True
    club.save()
    settings.LANTERN_CLUB_ANALYSIS_SECONDS_PER_DAY = 10_000
    with django_capture_on_commit_callbacks(execute=True):
        matches(club, 2)
    analyses = MatchAnalysis.objects.filter(automatic=True, status="done")
    assert analyses.count() == 2 and all(a.cpu_seconds > 0 for a in analyses)
    day = selectors.club_analysis_today(club)
    assert day.used == pytest.approx(sum(a.cpu_seconds for a in analyses))
    assert day.skipped == 0 and day.limit == 10_000


def test_two_chunks_ending_at_once_take_the_estimate_back_once(club, settings):
    """Each chunk (half the plies) loaded its analysis before either recorded its CPU: the
    day still gives back the analysis's estimate once, and holds what the two took."""
    settings.LANTERN_CLUB_ANALYSIS_SECONDS_PER_DAY = 1_000
    (match,) = matches(club, 1)
    assert budgets.reserve_for_club(club.pk, 100)
    analysis = MatchAnalysis.objects.create(
        match=match,
        engine_version=services.current_version(match),
        budget=1,
        automatic=True,
        estimated_seconds=100,
    )
    first, second = (MatchAnalysis.objects.get(pk=analysis.pk) for _ in range(2))
    services.record_cpu(first, 3.0, share=0.5)
    services.record_cpu(second, 4.0, share=0.5)
    assert ClubAnalysisDay.objects.get(club=club).reserved_seconds == pytest.approx(7.0)
    assert MatchAnalysis.objects.get(pk=analysis.pk).cpu_seconds == pytest.approx(7.0)


def test_a_reservation_that_does_not_fit_leaves_the_club_day_as_it_was(club, settings):
    settings.LANTERN_CLUB_ANALYSIS_SECONDS_PER_DAY = 100
    assert budgets.reserve_for_club(club.pk, 60)
    assert not budgets.reserve_for_club(club.pk, 60)
    assert budgets.reserve_for_club(club.pk, 40)
    assert ClubAnalysisDay.objects.get().reserved_seconds == 100


def test_the_club_page_and_the_dashboard_show_the_day(
    client, club, people, queued, settings, django_user_model
):
    club.auto_analysis = True
    club.save()
    settings.LANTERN_CLUB_ANALYSIS_SECONDS_PER_DAY = 100
    assert budgets.reserve_for_club(club.pk, 60.2)
    for match in matches(club, 3):
        MatchAnalysis.objects.create(
            match=match, engine_version="v", budget=1, automatic=True, status="waiting"
        )
    client.force_login(people["member"])
    page = client.get("/clubs/riverside/").content.decode()
    assert "61 of 100 CPU seconds used" in page
    assert "3 matches are waiting for the next day's budget" in page
    assert "A new day starts at 00:00 in the club&#x27;s time zone (UTC)" in page
    russian = client.get("/clubs/riverside/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "61 из 100" in russian and "3 партии ждут" in russian
    operator = django_user_model.objects.create_user(
        username="ops", password="pw-for-tests-only", is_staff=True
    )
    client.force_login(operator)
    dashboard = client.get("/dashboard/").content.decode()
    row = dashboard[dashboard.index('id="analysis-days-table"') :]
    assert "Riverside Deduction Society" in row and "61 of 100" in row
    assert '<td data-label="Waiting for the next day">3</td>' in row


def test_the_manage_page_says_the_clubs_budget_where_automatic_analysis_is_turned_on(
    client, club, people, settings
):
    settings.LANTERN_CLUB_ANALYSIS_SECONDS_PER_DAY = 900
    client.force_login(people["organiser"])
    page = client.get("/clubs/riverside/manage/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "1日 900 秒" in page
