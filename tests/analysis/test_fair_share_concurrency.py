"""Two requests at once cannot both slip under a fair-share limit (analysis.budgets):
on PostgreSQL, with the requests in threads of their own, each on its own connection."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection
from rest_framework.test import APIClient

from analysis import budgets, services
from analysis.models import ClubAnalysisDay, MatchAnalysis
from clubs.models import Membership
from games.services import ingest_log
from tests.games.logs import bot_log

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def at_once(*calls) -> list:
    """Run the calls in threads started together; their results in order."""
    results: list = [None] * len(calls)
    start = threading.Barrier(len(calls))

    def run(slot: int) -> None:
        try:
            start.wait(timeout=10)
            results[slot] = calls[slot]()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(slot,)) for slot in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def test_two_analysis_requests_at_once_do_not_both_take_the_last_place(
    require_postgres, club, django_user_model, settings, monkeypatch
):
    settings.LANTERN_ANALYSES_AT_ONCE = 1
    settings.LANTERN_ANALYSIS_BUDGET = 2
    member = django_user_model.objects.create_user(username="mia", password="pw-for-tests-only")
    Membership.objects.create(user=member, club=club, role=Membership.Role.MEMBER)
    first, second = (
        ingest_log(club, bot_log("cryptid-urban-legends", seed, ["ann", "ben"]), None)
        for seed in range(2)
    )
    monkeypatch.setattr(services, "_queue", lambda analysis: None)  # they stay queued
    counted = budgets._active

    def slowly_counted(user):
        time.sleep(0.5)  # both requests are in their transactions before either counts
        return counted(user)

    monkeypatch.setattr(budgets, "_active", slowly_counted)

    def ask(match):
        client = APIClient()
        client.force_authenticate(member)
        return lambda: client.post(f"/api/matches/{match.pk}/analysis?view=all").status_code

    assert sorted(at_once(ask(first), ask(second))) == [202, 429]
    assert MatchAnalysis.objects.count() == 1


def test_two_reservations_at_once_do_not_both_fit_in_a_club_day(require_postgres, club, settings):
    settings.LANTERN_CLUB_ANALYSIS_SECONDS_PER_DAY = 100
    fitted = at_once(
        lambda: budgets.reserve_for_club(club.pk, 60), lambda: budgets.reserve_for_club(club.pk, 60)
    )
    assert sorted(fitted) == [False, True]
    assert ClubAnalysisDay.objects.get().reserved_seconds == 60


def test_two_beats_at_once_start_each_waiting_analysis_once(
    require_postgres, club, settings, monkeypatch
):
    """Two beats (or a beat and an import) starting a club's waiting analyses at once: the
    lock on the club's day makes the second find them started, not start them again."""
    settings.LANTERN_CLUB_ANALYSIS_SECONDS_PER_DAY = 100
    waiting = [
        MatchAnalysis.objects.create(
            match=ingest_log(club, bot_log("cryptid-urban-legends", seed, ["ann", "ben"]), None),
            engine_version="v",
            budget=1,
            automatic=True,
            status="waiting",
            estimated_seconds=10,
        ).pk
        for seed in range(4)
    ]
    # the day has begun already (its row exists: its first insert would hold the other off)
    ClubAnalysisDay.objects.create(club=club, day=budgets.club_day(club.time_zone))
    sent: list[int] = []
    monkeypatch.setattr(services, "_queue", lambda analysis: sent.append(analysis.pk))
    locked = budgets.lock_club_day

    def slowly_locked(club_id, day):
        row = locked(club_id, day)
        time.sleep(0.5)  # the other beat is at the lock (or, without it, reads the line too)
        return row

    monkeypatch.setattr(budgets, "lock_club_day", slowly_locked)
    started = at_once(
        lambda: services.start_waiting(club.pk), lambda: services.start_waiting(club.pk)
    )
    assert sorted(started) == [0, 4]
    assert sorted(sent) == waiting
    assert ClubAnalysisDay.objects.get().reserved_seconds == 40
