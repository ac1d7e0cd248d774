"""Which language and time zone a request is answered in, and how a person chooses them.

Order: ?lang= in the URL, the signed-in account's saved language, the django_language
cookie, Accept-Language, English."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import AccountSettings

pytestmark = pytest.mark.django_db

# "Sign in" in the header, as each language says it.
SIGN_IN = {"en": ">Sign in<", "ja": ">サインイン<", "ru": ">Войти<"}


def _speaks(response, language: str) -> bool:
    body = response.content.decode()
    return f'<html lang="{language}">' in body and response["Content-Language"] == language


def test_a_visitor_gets_english_by_default(client):
    response = client.get("/")
    assert _speaks(response, "en")
    assert SIGN_IN["en"] in response.content.decode()


@pytest.mark.parametrize("language", ["ja", "ru"])
def test_accept_language_chooses_for_a_visitor(client, language):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE=f"{language},en;q=0.5")
    assert _speaks(response, language)
    assert SIGN_IN[language] in response.content.decode()
    assert "Accept-Language" in response["Vary"]


def test_a_language_the_site_does_not_speak_falls_back_to_english(client):
    assert _speaks(client.get("/", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9"), "en")
    assert _speaks(client.get("/?lang=de"), "en")


def test_the_cookie_beats_accept_language(client):
    client.cookies["django_language"] = "ru"
    assert _speaks(client.get("/", HTTP_ACCEPT_LANGUAGE="ja"), "ru")


def test_the_url_beats_everything_and_a_visitor_keeps_it(client):
    client.cookies["django_language"] = "ru"
    response = client.get("/?lang=ja", HTTP_ACCEPT_LANGUAGE="ru")
    assert _speaks(response, "ja")
    # A visitor who came by a shared link goes on in its language from page to page.
    assert response.cookies["django_language"].value == "ja"
    assert _speaks(client.get(reverse("club-directory")), "ja")


def test_the_switcher_sets_the_cookie_and_returns_to_the_page_without_lang(client):
    response = client.post(
        reverse("set-language"), {"language": "ru", "next": "/clubs/?lang=ja&page=2"}
    )
    assert response.status_code == 302
    assert response["Location"] == "/clubs/?page=2"
    assert response.cookies["django_language"].value == "ru"
    assert _speaks(client.get("/clubs/"), "ru")


def test_the_switcher_refuses_other_sites_and_unknown_languages(client):
    response = client.post(
        reverse("set-language"), {"language": "ru", "next": "https://evil.example/"}
    )
    assert response["Location"] == "/"
    response = client.post(reverse("set-language"), {"language": "xx", "next": "/clubs/"})
    assert response["Location"] == "/clubs/"
    assert "django_language" not in response.cookies


def test_the_switcher_is_on_every_page_and_marks_the_current_language(client):
    body = client.get("/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert 'action="/accounts/language/"' in body
    assert 'value="ja" lang="ja" aria-current="true">日本語<' in body
    assert 'value="ru" lang="ru">Русский<' in body


def test_a_signed_in_choice_is_saved_on_the_account_and_beats_the_cookie(client, user):
    client.force_login(user)
    client.post(reverse("set-language"), {"language": "ja", "next": "/"})
    assert AccountSettings.objects.get(user=user).language == "ja"
    # Another browser: the cookie says Russian, the account says Japanese.
    other = client.__class__()
    other.cookies["django_language"] = "ru"
    other.post(reverse("login"), {"username": user.username, "password": "pw-for-tests-only"})
    assert _speaks(other.get("/"), "ja")
    # A shared link still opens in its language, without changing the account.
    assert _speaks(other.get("/?lang=ru"), "ru")
    assert AccountSettings.objects.get(user=user).language == "ja"
    assert _speaks(other.get("/"), "ja")


def test_the_settings_page_saves_language_and_time_zone(client, user):
    client.force_login(user)
    page = client.get(reverse("account-settings"))
    assert page.status_code == 200
    response = client.post(
        reverse("account-settings"), {"language": "ru", "time_zone": "Asia/Tokyo"}
    )
    assert response.status_code == 302
    saved = AccountSettings.objects.get(user=user)
    assert (saved.language, saved.time_zone) == ("ru", "Asia/Tokyo")
    page = client.get(reverse("account-settings"))
    assert _speaks(page, "ru")
    assert "Настройки сохранены." in page.content.decode()


def test_the_settings_page_refuses_an_unknown_time_zone_and_keeps_the_rest(client, user):
    client.force_login(user)
    response = client.post(
        reverse("account-settings"), {"language": "ja", "time_zone": "Mars/Olympus"}
    )
    assert response.status_code == 200
    assert response.context["form"].errors["time_zone"]
    assert not AccountSettings.objects.filter(user=user).exists()


def test_the_settings_page_needs_a_sign_in(client):
    assert client.get(reverse("account-settings")).status_code == 302


def test_an_account_from_before_the_setting_reads_it_once_per_session(client, user):
    """A session begun before the preference existed in it: read from the database once."""
    AccountSettings.objects.create(user=user, language="ru", time_zone="")
    client.force_login(user)
    session = client.session
    session.pop("lantern_preferences", None)
    session.save()
    assert _speaks(client.get("/"), "ru")
    assert client.session["lantern_preferences"]["language"] == "ru"


def test_the_database_refuses_an_unknown_language(user):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        AccountSettings.objects.create(user=user, language="xx")
