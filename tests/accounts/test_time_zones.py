"""Issue 35 item 3: times in the reader's zone (the browser's on the first visit, their
own choice on their settings page) or in the club's for its pages and events; a picker
of zones named in the reader's language, the likely ones first."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.urls import reverse

from clubs import services
from clubs.models import AuditEntry
from config import zones
from games.models import Match
from games.services import ingest_log
from tests.games.logs import bot_log

pytestmark = pytest.mark.django_db

PLAYED = datetime(2026, 11, 28, 0, 49, tzinfo=UTC)  # 9:49 in Tokyo, 3:49 in Moscow


@pytest.fixture
def organiser(django_user_model):
    return django_user_model.objects.create_user("olga", password="x")


@pytest.fixture
def match(organiser) -> Match:
    club = services.create_club(organiser, name="Owls", slug="owls", is_public=True)
    match = ingest_log(club, bot_log("cryptid-urban-legends", 1, ["a", "b"]), organiser)
    Match.objects.filter(pk=match.pk).update(played_at=PLAYED)
    return match


def played(client, match: Match, **headers) -> str:
    return client.get(reverse("match-detail", args=[match.pk]), **headers).content.decode()


def test_a_visitor_sees_times_in_the_zone_their_browser_sent(client, match):
    assert "0:49" in played(client, match) and "9:49" not in played(client, match)
    client.cookies[zones.BROWSER_COOKIE] = "Asia/Tokyo"
    assert "9:49" in played(client, match)
    client.cookies[zones.BROWSER_COOKIE] = "Not/A_Zone"  # a cookie is no trusted input
    assert "0:49" in played(client, match)


def test_the_zone_a_person_chose_wins_over_their_browsers(client, match, organiser):
    client.force_login(organiser)
    client.cookies[zones.BROWSER_COOKIE] = "Asia/Tokyo"
    client.post(reverse("account-settings"), {"language": "", "time_zone": "Europe/Moscow"})
    assert "3:49" in played(client, match)


def test_a_clubs_pages_show_times_in_the_clubs_zone(client, match, organiser):
    client.force_login(organiser)
    client.cookies[zones.BROWSER_COOKIE] = "Europe/Moscow"
    response = client.post(reverse("club-time-zone", args=["owls"]), {"time_zone": "Asia/Tokyo"})
    assert response.status_code == 302
    assert "9:49" in played(client, match)
    club_page = client.get(
        reverse("club", args=["owls"]), HTTP_ACCEPT_LANGUAGE="ja"
    ).content.decode()
    assert "UTC+09:00 · 日本 — 東京" in club_page
    assert AuditEntry.objects.filter(action="club.time_zone", club__slug="owls").exists()
    # each reader's own again
    client.post(reverse("club-time-zone", args=["owls"]), {"time_zone": ""})
    assert "3:49" in played(client, match)


def test_a_new_club_takes_its_creators_browser_zone(client, organiser):
    client.force_login(organiser)
    client.cookies[zones.BROWSER_COOKIE] = "Asia/Tokyo"
    page = client.get(reverse("club-new"), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert '<option value="Asia/Tokyo" selected>' in page
    client.post(reverse("club-new"), {"name": "東京推理ゲーム会", "time_zone": "Asia/Tokyo"})
    assert services.Club.objects.get(slug="tokyo-suiri-game-kai").time_zone == "Asia/Tokyo"


@pytest.mark.parametrize(
    ("language", "browser", "first", "named"),
    [
        ("ja", "", "Asia/Tokyo", "日本 — 東京 (Asia/Tokyo)"),
        ("ru", "", "Europe/Kaliningrad", "Россия — Москва (Europe/Moscow)"),
        ("ru", "Asia/Tokyo", "Asia/Tokyo", "Япония — Токио (Asia/Tokyo)"),
    ],
)
def test_the_picker_names_zones_in_the_readers_words_likely_ones_first(
    client, organiser, language, browser, first, named
):
    client.force_login(organiser)
    if browser:
        client.cookies[zones.BROWSER_COOKIE] = browser
    page = client.get(reverse("account-settings"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert named in page and "data-zone-picker" in page
    options = page.split('name="time_zone"', 1)[1].split("</select>", 1)[0]
    values = [part.split('"', 1)[0] for part in options.split('<option value="')[1:]]
    assert values[0] == "" and values[1] == first
    assert "Europe/Moscow" in values[1:30] if language == "ru" else True
    assert len(values) > 300  # every place, not only the likely ones


def test_a_zone_the_site_does_not_know_is_refused(organiser):
    club = services.create_club(organiser, name="Owls", is_public=True)
    with pytest.raises(services.ClubError):
        services.set_time_zone(organiser, club, "Mars/Olympus_Mons")
