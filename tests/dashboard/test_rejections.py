"""Rejections and validation times on the operator dashboard, from hand-made Upload rows."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs.models import Club
from dashboard.selectors import (
    frequent_rejection_rules,
    recent_rejections,
    rejection_rates,
    slowest_validations,
)
from games.models import Match, Upload

pytestmark = pytest.mark.django_db

CRYPTID, MISTERX = "cryptid-urban-legends", "mister-x"


def upload(
    club,
    status: str,
    *,
    game: str = CRYPTID,
    rule: str = "",
    error: str = "",
    days_ago: float = 0,
    **fields,
) -> Upload:
    if status == "rejected" and not error:
        error = "illegal"
    row = Upload.objects.create(
        club=club,
        source="api",
        status=status,
        game=game,
        error=error,
        error_rule=rule,
        **fields,
    )
    if days_ago:  # created_at is set on insert; move it back in time
        Upload.objects.filter(pk=row.pk).update(
            created_at=timezone.now() - timedelta(days=days_ago)
        )
        row.refresh_from_db()
    return row


def test_rejection_rate_per_game_and_overall_over_the_period(club):
    for _ in range(3):
        upload(club, "accepted")
    upload(club, "duplicate")
    upload(club, "rejected", rule="CUL-3.1")
    upload(club, "rejected", game=MISTERX, rule="MX-2.1")
    upload(club, "accepted", game=MISTERX)
    upload(club, "rejected", game="", error="malformed")  # unreadable: no game named
    upload(club, "rejected", rule="CUL-3.1", days_ago=8)  # before the 7-day period

    rates = {row.game: row for row in rejection_rates(7)}
    cryptid = rates[CRYPTID]
    assert (cryptid.attempts, cryptid.accepted, cryptid.duplicates, cryptid.rejected) == (
        5,
        3,
        1,
        1,
    )
    assert cryptid.rate == pytest.approx(1 / 5)
    assert rates[MISTERX].percent == 50.0
    assert (rates[""].attempts, rates[""].rejected) == (1, 1)
    overall = rejection_rates(7)[-1]
    assert overall.game is None
    assert (overall.attempts, overall.rejected) == (8, 3)
    # Thirty days take in the old rejection too.
    assert {row.game: row for row in rejection_rates(30)}[CRYPTID].rejected == 2


def test_no_uploads_means_a_zero_rate_not_an_error(db):
    (overall,) = rejection_rates(7)
    assert (overall.attempts, overall.rate) == (0, 0.0)


def test_most_frequent_rules_with_their_share(club):
    for _ in range(3):
        upload(club, "rejected", rule="CUL-3.1")
    upload(club, "rejected", rule="CUL-4.2")
    upload(club, "rejected", game=MISTERX, rule="MX-2.1")
    upload(club, "rejected", game=MISTERX, error="unknown_players")  # no rule id
    upload(club, "accepted")
    upload(club, "rejected", rule="CUL-4.2", days_ago=40)

    rules = frequent_rejection_rules(30)
    assert [(r.rule, r.error, r.count) for r in rules][0] == ("CUL-3.1", "illegal", 3)
    assert {(r.rule, r.error): r.count for r in rules} == {
        ("CUL-3.1", "illegal"): 3,
        ("CUL-4.2", "illegal"): 1,
        ("MX-2.1", "illegal"): 1,
        ("", "unknown_players"): 1,
    }
    assert rules[0].share == pytest.approx(3 / 6) and rules[0].percent == 50.0
    assert sum(r.share for r in rules) == pytest.approx(1)

    only_cryptid = frequent_rejection_rules(30, game=CRYPTID)
    assert [(r.rule, r.count) for r in only_cryptid] == [("CUL-3.1", 3), ("CUL-4.2", 1)]
    assert only_cryptid[1].share == pytest.approx(1 / 4)
    assert len(frequent_rejection_rules(30, limit=2)) == 2
    assert [(r.rule, r.count) for r in frequent_rejection_rules(90, game=CRYPTID)] == [
        ("CUL-3.1", 3),
        ("CUL-4.2", 2),
    ]
    assert frequent_rejection_rules(1, game="cloak-and-dagger") == []


def test_recent_rejections_newest_first_in_one_query(club, user, django_assert_num_queries):
    other = Club.objects.create(name="Harbour", slug="harbour")
    old = upload(club, "rejected", rule="CUL-3.1", days_ago=2, uploaded_by=user)
    upload(club, "accepted")
    new = upload(
        other,
        "rejected",
        game=MISTERX,
        rule="MX-2.1",
        error_index=7,
        error_message="det1 cannot move there",
    )
    with django_assert_num_queries(1):
        rows = [
            (u.pk, u.club.name, u.uploaded_by and u.uploaded_by.get_username(), u.error_index)
            for u in recent_rejections()
        ]
    assert rows == [(new.pk, "Harbour", None, 7), (old.pk, club.name, user.get_username(), None)]
    assert [u.pk for u in recent_rejections(game=CRYPTID)] == [old.pk]
    assert len(recent_rejections(limit=1)) == 1


def test_slowest_validations_over_the_period(club):
    match = Match.objects.create(
        club=club, game=CRYPTID, status="unfinished", content_hash="h1", action_count=412
    )
    slow = upload(club, "accepted", validation_ms=120.5, match=match)
    medium = upload(club, "rejected", rule="CUL-3.1", validation_ms=40.0, error_index=9)
    upload(club, "accepted", validation_ms=3.0)
    upload(club, "rejected", error="malformed", validation_ms=None)  # never replayed
    upload(club, "accepted", validation_ms=999.0, days_ago=10)  # outside 7 days

    assert [u.pk for u in slowest_validations(7, limit=2)] == [slow.pk, medium.pk]
    rows = slowest_validations(7)
    assert [u.validation_ms for u in rows] == [120.5, 40.0, 3.0]
    assert rows[0].match.action_count == 412
    assert slowest_validations(30)[0].validation_ms == 999.0


def test_the_page_shows_rates_rules_rejections_and_slow_validations(
    client, django_user_model, club
):
    match = Match.objects.create(
        club=club, game=CRYPTID, status="unfinished", content_hash="h1", action_count=412
    )
    upload(club, "accepted", validation_ms=87.5, match=match)
    rejected = upload(
        club,
        "rejected",
        rule="CUL-3.1",
        error_index=5,
        error_message="the scientist cannot search there",
    )
    upload(club, "rejected", game=MISTERX, rule="MX-2.1", days_ago=20)
    staff = django_user_model.objects.create_user("op", password="x", is_staff=True)
    client.force_login(staff)

    page = client.get(reverse("dashboard")).content.decode()
    assert "<title>Dashboard · Lantern</title>" in page
    assert page.count('id="rejections"') == page.count('id="slowest"') == 1
    assert "50.0 %" in page  # cryptid: 1 of 2 attempts refused
    assert "<code>CUL-3.1</code>" in page and "MX-2.1" in page  # recent rejections list both
    assert "the scientist cannot search there" in page
    assert f'href="/uploads/{rejected.pk}/"' in page
    assert "87.5 ms" in page and "412" in page
    # The mister-x rejection is 20 days old: outside the default week, inside 30 days.
    week = client.get(reverse("dashboard")).context
    assert [r.game for r in week["rejection_rates"]] == [CRYPTID, None]
    month = client.get(reverse("dashboard") + "?days=30").context
    assert [r.game for r in month["rejection_rates"]] == [CRYPTID, MISTERX, None]
    assert month["period"] == 30
    assert client.get(reverse("dashboard") + "?days=13").context["period"] == 7
    only = client.get(reverse("dashboard") + f"?days=30&game={MISTERX}").context
    assert [r.rule for r in only["frequent_rules"]] == ["MX-2.1"]


def test_an_operator_may_open_any_upload_a_member_of_another_club_may_not(
    client, django_user_model
):
    secret = Club.objects.create(name="Secret", slug="secret", is_public=False)
    rejected = upload(secret, "rejected", error="malformed", error_message="expected a JSON object")
    url = reverse("upload-detail", args=[rejected.pk])
    client.force_login(django_user_model.objects.create_user("someone"))
    assert client.get(url).status_code == 404
    client.force_login(django_user_model.objects.create_user("op", is_staff=True))
    response = client.get(url)
    assert response.status_code == 200
    assert "Expected a JSON object" in response.content.decode()
