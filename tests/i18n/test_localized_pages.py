"""Dates in the reader's time zone and their language's form; error pages and the API's
own errors in the reader's language."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.urls import reverse

from accounts.models import AccountSettings
from clubs.models import Club, Membership
from tests.test_models import make_match

pytestmark = pytest.mark.django_db

PLAYED = datetime(2026, 11, 25, 22, 30, tzinfo=UTC)  # 26 Nov 07:30 in Tokyo


@pytest.fixture
def club_with_a_match(user):
    club = Club.objects.create(name="Riverside", slug="riverside")
    Membership.objects.create(user=user, club=club, role="member")
    return club, make_match(club, played_at=PLAYED)


def test_a_visitor_sees_dates_in_utc_in_their_languages_form(client, club_with_a_match):
    club, _match = club_with_a_match
    assert "2026-11-25 22:30" in client.get(reverse("club", args=[club.slug])).content.decode()
    assert (
        "2026年11月25日 22:30"
        in client.get(reverse("club", args=[club.slug]), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    )
    assert (
        "25.11.2026 22:30"
        in client.get(reverse("club", args=[club.slug]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    )


def test_an_account_sees_dates_in_its_own_time_zone(client, user, club_with_a_match):
    club, _match = club_with_a_match
    AccountSettings.objects.create(user=user, language="ja", time_zone="Asia/Tokyo")
    client.force_login(user)
    body = client.get(reverse("club", args=[club.slug])).content.decode()
    assert "2026年11月26日 7:30" in body
    assert "2026年11月25日" not in body


@pytest.mark.parametrize(
    ("language", "title"),
    [("en", "Page not found"), ("ja", "ページが見つかりません"), ("ru", "Страница не найдена")],
)
def test_the_not_found_page_speaks_the_readers_language(client, language, title):
    response = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 404
    assert f"<h1>{title}</h1>" in response.content.decode()


@pytest.mark.parametrize(
    ("language", "message"), [("en", "not found"), ("ja", "見つかりません"), ("ru", "не найдено")]
)
def test_the_apis_own_errors_speak_the_readers_language(client, language, message):
    response = client.get("/api/no-such-thing/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 404
    assert response.json() == {
        "error": "not_found",
        "index": None,
        "rule": None,
        "message": message,
    }


def test_drf_s_own_refusals_come_in_the_readers_language_too(client):
    Club.objects.create(name="Riverside", slug="riverside")
    body = client.post(
        "/api/clubs/riverside/matches/",
        data="{}",
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="ru",
    ).json()
    assert body["error"] == "not_authenticated"
    assert body["message"].isascii() is False


def test_the_audit_trail_reads_in_the_organisers_language(client, user, django_user_model):
    from clubs.models import Membership as Member
    from clubs.services import create_club, set_role

    club = create_club(user, name="Owls", slug="owls", is_public=True)
    other = django_user_model.objects.create_user("bea")
    membership = Member.objects.create(user=other, club=club, role="member")
    set_role(user, membership, "organiser")
    client.force_login(user)
    english = client.get(reverse("club-manage", args=["owls"])).content.decode()
    assert "made bea an organiser" in english and "created the club &#x27;Owls&#x27;" in english
    japanese = client.get(reverse("club-manage", args=["owls"]) + "?lang=ja").content.decode()
    assert "bea を主催者にした" in japanese and "made bea" not in japanese
    russian = client.get(reverse("club-manage", args=["owls"]) + "?lang=ru").content.decode()
    assert "сделал bea организатором" in russian


def test_the_password_reset_mail_is_in_the_language_it_was_asked_in(client, user):
    from django.core import mail

    user.email = "ada@example.org"
    user.save()
    client.post(reverse("password_reset"), {"email": "ada@example.org"}, HTTP_ACCEPT_LANGUAGE="ru")
    (message,) = mail.outbox
    assert message.subject == "Lantern: новый пароль"
    assert "учётной записи Lantern «ada»" in message.body
    assert "/accounts/password/reset/" in message.body


@pytest.mark.parametrize(
    ("language", "title"), [("en", "Mister X"), ("ja", "ミスターX"), ("ru", "Мистер Икс")]
)
def test_a_game_is_named_as_the_readers_edition_names_it(
    client, club_with_a_match, language, title
):
    """The club's match list, the match page and the recorder's game choice name the game
    in the reader's language (the glossary's titles: ミスターX, «Криптид: городские легенды»)."""
    club, match = club_with_a_match
    headers = {"HTTP_ACCEPT_LANGUAGE": language}
    assert f">{title}<" in client.get(reverse("club", args=[club.slug]), **headers).content.decode()
    assert title in client.get(reverse("match-detail", args=[match.pk]), **headers).content.decode()


def test_the_recorders_game_choice_names_games_in_the_readers_language(
    client, user, club_with_a_match
):
    client.force_login(user)
    club, _match = club_with_a_match
    body = client.get(reverse("record", args=[club.slug]) + "?lang=ru").content.decode()
    assert ">Криптид: городские легенды<" in body and ">Мистер Икс<" in body


def test_russian_calls_lanterns_notation_notation_not_a_recording(client):
    """«Запись» reads as a recording (the recorder records a game, a player is entered
    for an event); the notation toggle, its hint and each game's legend of the notation
    say «нотация»."""
    from engine import all_games, get_game, render
    from games.services import ingest_log
    from tests.games.logs import bot_log

    club = Club.objects.create(name="Riverside", slug="riverside")
    match = ingest_log(club, bot_log("mister-x", 1, ["a", "b", "c"]), None)
    body = client.get(reverse("match-replay", args=[match.pk]) + "?lang=ru").content.decode()
    assert "> Нотация</label>" in body and "в краткой нотации Lantern" in body
    for game_id in all_games():
        legend = get_game(game_id).legend({})
        notation = [e for e in legend if e["mark"].startswith("notation")]
        assert notation, game_id
        assert render(notation[0]["text"], "ru").startswith("Нотация: "), game_id
