"""A club's day of automatic analysis is the club's own (analysis.budgets): it runs from
midnight to midnight in the club's time zone (UTC when it has none), the analyses past
its budget wait for the next day instead of being dropped, and the beat
(``analysis.start_waiting``) starts them once that day has begun, oldest first, within
its budget. The clock is injected: ``django.utils.timezone.now`` answers the test's time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from analysis import budgets, selectors, services
from analysis.models import ClubAnalysisDay, MatchAnalysis
from analysis.tasks import start_waiting
from clubs.models import Club
from games.services import ingest_log
from tests.games.logs import bot_log

pytestmark = pytest.mark.django_db

CRYPTID = "cryptid-urban-legends"
#: (the club's time zone, its midnight of 30 November in UTC)
MIDNIGHTS = [
    ("Asia/Tokyo", datetime(2026, 11, 29, 15, 0, tzinfo=UTC)),
    ("Europe/Moscow", datetime(2026, 11, 29, 21, 0, tzinfo=UTC)),
]


@pytest.fixture(autouse=True)
def _settings(settings):
    settings.LANTERN_ANALYSIS_BUDGET = 2
    settings.LANTERN_ANALYSIS_SECONDS_PER_UNIT = 0.01


class Clock:
    """What ``timezone.now()`` answers, moved by the test."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, start: datetime) -> None:
        self.now = start
        monkeypatch.setattr("django.utils.timezone.now", lambda: self.now)

    def set(self, when: datetime) -> None:
        self.now = when


def store(club: Club, seeds: range) -> list[int]:
    """Store one match a seed, each analysed automatically; their ids in order."""
    ids = []
    for seed in seeds:
        match = ingest_log(club, bot_log(CRYPTID, seed, ["ann", "ben"]), None)
        services.analyse_automatically([match])
        ids.append(match.pk)
    return ids


def analyses_of(ids: list[int]) -> list[int]:
    return [MatchAnalysis.objects.get(match_id=pk).pk for pk in ids]


def room_for(club: Club, count: int) -> int:
    """A day's budget with room for the first ``count`` estimates of the club's line."""
    line = MatchAnalysis.objects.filter(match__club=club).order_by("created_at", "pk")
    return int(sum(a.estimated_seconds for a in line[:count])) + 1


@pytest.mark.parametrize(("zone", "midnight"), MIDNIGHTS)
def test_the_analyses_past_a_days_budget_start_on_the_clubs_next_day_oldest_first(
    club, queued, settings, monkeypatch, zone, midnight
):
    club.time_zone, club.auto_analysis = zone, True
    club.save()
    clock = Clock(monkeypatch, midnight - timedelta(minutes=30))
    settings.LANTERN_CLUB_ANALYSIS_SECONDS_PER_DAY = 10**6  # estimates first, then the day
    ids = store(club, range(6))
    MatchAnalysis.objects.update(status="waiting", club_day=None)
    ClubAnalysisDay.objects.all().delete()
    del queued[:]
    settings.LANTERN_CLUB_ANALYSIS_SECONDS_PER_DAY = room_for(club, 2)
    line = analyses_of(ids)

    assert services.start_waiting(club.pk) == 2  # the first day: two fit
    assert queued == line[:2]
    clock.set(midnight - timedelta(minutes=5))
    assert start_waiting() == 0  # the same day: no room left
    # past the club's midnight (in UTC it is still the 29th): the next two, oldest first
    clock.set(midnight + timedelta(minutes=1))
    assert start_waiting() == 2
    assert queued == line[:4]
    assert start_waiting() == 0  # the next beat of the same day starts nothing more
    days = dict(MatchAnalysis.objects.values_list("pk", "club_day"))
    assert [days[pk] for pk in line[:4]] == [
        *[datetime(2026, 11, 29).date()] * 2,
        *[datetime(2026, 11, 30).date()] * 2,
    ]
    waiting = MatchAnalysis.objects.filter(status="waiting").order_by("pk")
    assert list(waiting.values_list("pk", flat=True)) == line[4:]
    clock.set(midnight + timedelta(days=1, minutes=1))
    assert start_waiting() == 2 and queued == line
    assert not MatchAnalysis.objects.filter(status="waiting").exists()
    for day in ClubAnalysisDay.objects.all():
        assert 0 < day.reserved_seconds <= settings.LANTERN_CLUB_ANALYSIS_SECONDS_PER_DAY


def test_a_match_stored_behind_waiting_ones_waits_its_turn(club, queued, settings, monkeypatch):
    """A new match does not jump the line: once one waiting does not fit, the day starts
    nothing younger, even one small enough to fit."""
    club.auto_analysis = True
    club.save()
    Clock(monkeypatch, datetime(2026, 11, 29, 23, 0, tzinfo=UTC))
    settings.LANTERN_CLUB_ANALYSIS_SECONDS_PER_DAY = 1000
    older = analyses_of(store(club, range(3)))
    for pk, seconds in zip(older, [100, 100, 900], strict=True):
        MatchAnalysis.objects.filter(pk=pk).update(status="waiting", estimated_seconds=seconds)
    ClubAnalysisDay.objects.all().delete()
    del queued[:]
    (newer,) = analyses_of(store(club, range(3, 4)))
    assert MatchAnalysis.objects.get(pk=newer).estimated_seconds < 800
    assert queued == older[:2]
    waiting = MatchAnalysis.objects.filter(status="waiting").order_by("created_at", "pk")
    assert list(waiting.values_list("pk", flat=True)) == [older[2], newer]


@pytest.mark.parametrize(
    ("zone", "midnight"), [*MIDNIGHTS, ("", datetime(2026, 11, 30, tzinfo=UTC))]
)
def test_a_club_day_counts_from_midnight_in_the_clubs_time_zone(
    club, settings, monkeypatch, zone, midnight
):
    club.time_zone = zone
    club.save()
    settings.LANTERN_CLUB_ANALYSIS_SECONDS_PER_DAY = 100
    clock = Clock(monkeypatch, midnight - timedelta(seconds=1))
    assert budgets.reserve_for_club(club.pk, 90)
    assert not budgets.reserve_for_club(club.pk, 20)
    assert selectors.club_analysis_today(club).used == 90
    clock.set(midnight)
    assert selectors.club_analysis_today(club).used == 0
    assert budgets.reserve_for_club(club.pk, 20)
    days = dict(ClubAnalysisDay.objects.values_list("day", "reserved_seconds"))
    assert days == {datetime(2026, 11, 29).date(): 90, datetime(2026, 11, 30).date(): 20}
    assert budgets.next_day_starts(zone) == midnight + timedelta(days=1)


def test_an_unknown_time_zone_counts_in_utc(club, monkeypatch):
    club.time_zone = "Mars/Olympus_Mons"
    Clock(monkeypatch, datetime(2026, 11, 29, 23, 59, tzinfo=UTC))
    assert budgets.club_day(club.time_zone) == datetime(2026, 11, 29).date()


def test_a_day_whose_midnight_a_clock_change_skips_starts_at_its_first_moment():
    # Chile moves its clocks from 00:00 to 01:00 on the first Sunday of September
    starts = budgets.day_starts("America/Santiago", datetime(2026, 9, 6).date())
    assert (starts.hour, starts.minute) == (1, 0)
    assert starts.astimezone(UTC) == datetime(2026, 9, 6, 4, 0, tzinfo=UTC)


def test_the_dashboard_lists_each_club_on_its_own_day(club, settings, monkeypatch):
    tokyo = Club.objects.create(name="Tokyo", slug="tokyo", time_zone="Asia/Tokyo")
    clock = Clock(monkeypatch, datetime(2026, 11, 29, 14, 0, tzinfo=UTC))
    assert budgets.reserve_for_club(club.pk, 10) and budgets.reserve_for_club(tokyo.pk, 20)
    clock.set(datetime(2026, 11, 29, 16, 0, tzinfo=UTC))  # Tokyo's 30th, UTC's 29th
    assert budgets.reserve_for_club(tokyo.pk, 5)
    listed = {day.slug: day.used for day in selectors.clubs_analysis_today()}
    assert listed == {"riverside": 10, "tokyo": 5}


def test_a_match_that_costs_more_than_a_whole_day_is_counted_not_left_waiting(
    club, queued, settings
):
    club.auto_analysis = True
    club.save()
    settings.LANTERN_CLUB_ANALYSIS_SECONDS_PER_DAY = 100
    settings.LANTERN_ANALYSIS_SECONDS_PER_UNIT = 10.0
    store(club, range(1))
    assert not MatchAnalysis.objects.exists() and not queued
    assert selectors.club_analysis_today(club).skipped == 1


def test_a_member_may_analyse_a_waiting_match_at_once_on_their_own_budget(
    api, club, queued, settings, people
):
    club.auto_analysis = True
    club.save()
    settings.LANTERN_CLUB_ANALYSIS_SECONDS_PER_DAY = 10**6
    (match_id,) = store(club, range(1))
    MatchAnalysis.objects.update(status="waiting")
    del queued[:]
    page = api("member").get(f"/api/matches/{match_id}/analysis?view=all").json()
    assert page["status"] == "waiting" and page["can_request"]
    assert "Waiting for the club's next day" in page["waiting"]
    answer = api("member").post(f"/api/matches/{match_id}/analysis?view=all")
    assert answer.status_code == 202 and answer.json()["status"] == "queued"
    analysis = MatchAnalysis.objects.get()
    assert queued == [analysis.pk] and not analysis.automatic
    assert analysis.requested_by == people["member"]
    assert services.start_waiting(club.pk) == 0  # it left the club's line


@pytest.mark.parametrize(
    ("language", "reader_zone", "words"),
    [
        ("en", "Asia/Tokyo", ["from 00:00 in the club's time zone (UTC+09:00 · Japan — Tokyo)"]),
        (
            "ja",
            "Europe/Moscow",
            ["00:00", "UTC+09:00 · 日本 — 東京", "11月29日 18:00", "UTC+03:00 · ロシア", "翌日"],
        ),
        (
            "ru",
            "Europe/Moscow",
            [
                "00:00",
                "UTC+09:00 · Япония — Токио",
                "29.11.2026 18:00",
                "UTC+03:00 · Россия",
                "следующего дня",
            ],
        ),
    ],
)
def test_a_waiting_analysis_says_when_the_clubs_next_day_starts_in_the_readers_words(
    api, club, queued, settings, monkeypatch, language, reader_zone, words
):
    club.time_zone, club.auto_analysis = "Asia/Tokyo", True
    club.save()
    Clock(monkeypatch, datetime(2026, 11, 29, 10, 0, tzinfo=UTC))  # 19:00 in Tokyo
    settings.LANTERN_CLUB_ANALYSIS_SECONDS_PER_DAY = 10**6
    (match_id,) = store(club, range(1))
    MatchAnalysis.objects.update(status="waiting")
    client = api("member")
    client.cookies["lantern_tz"] = reader_zone
    page = client.get(
        f"/api/matches/{match_id}/analysis?view=all", HTTP_ACCEPT_LANGUAGE=language
    ).json()
    for word in words:
        assert word in page["waiting"], page["waiting"]
    if reader_zone == "Asia/Tokyo":
        assert "in yours" not in page["waiting"]


def test_one_waiting_that_no_day_could_hold_leaves_the_line(club, queued, settings):
    """The budget was lowered below an analysis already waiting: it would hold the line
    for ever, so it is counted as too big for a day and the ones behind it start."""
    settings.LANTERN_CLUB_ANALYSIS_SECONDS_PER_DAY = 10**6
    line = analyses_of(store(club, range(3)))
    for pk, seconds in zip(line, [500, 10, 10], strict=True):
        MatchAnalysis.objects.filter(pk=pk).update(status="waiting", estimated_seconds=seconds)
    ClubAnalysisDay.objects.all().delete()
    del queued[:]
    settings.LANTERN_CLUB_ANALYSIS_SECONDS_PER_DAY = 100
    assert services.start_waiting(club.pk) == 2
    assert queued == line[1:] and not MatchAnalysis.objects.filter(pk=line[0]).exists()
    assert selectors.club_analysis_today(club).skipped == 1


def test_an_analysis_started_from_the_line_is_not_sent_again_as_lost_at_once(
    club, queued, settings, monkeypatch
):
    """Started from the club's line a day after it joined: the beat that re-sends lost
    tasks counts from when it was sent, not from when it joined the line."""
    midnight = datetime(2026, 11, 30, tzinfo=UTC)
    clock = Clock(monkeypatch, midnight - timedelta(hours=12))
    settings.LANTERN_CLUB_ANALYSIS_SECONDS_PER_DAY = 10**6
    (analysis,) = analyses_of(store(club, range(1)))
    MatchAnalysis.objects.update(status="waiting")
    del queued[:]
    clock.set(midnight + timedelta(minutes=1))
    assert start_waiting() == 1 and queued == [analysis]
    clock.set(midnight + timedelta(minutes=4))
    assert services.requeue_stalled() == 0
    clock.set(midnight + timedelta(minutes=7))
    assert services.requeue_stalled() == 1 and queued == [analysis, analysis]
