"""Sign-up, log-in, log-out, password reset and API tokens, through the real views."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_sign_up_creates_the_account_and_logs_in(client, django_user_model):
    response = client.post(
        reverse("signup"),
        {
            "username": "grace",
            "email": "grace@example.org",
            "password1": "a-long-enough-passphrase",
            "password2": "a-long-enough-passphrase",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("index")  # the home page: their clubs and games
    user = django_user_model.objects.get(username="grace")
    assert user.email == "grace@example.org"
    assert client.get(reverse("profile")).context["user"] == user


def test_sign_up_refuses_mismatched_passwords(client, django_user_model):
    response = client.post(
        reverse("signup"),
        {
            "username": "grace",
            "email": "g@example.org",
            "password1": "abcdefgh12345",
            "password2": "different12345",
        },
    )
    assert response.status_code == 200
    assert not django_user_model.objects.filter(username="grace").exists()


def test_log_in_and_log_out(client, user):
    response = client.post(reverse("login"), {"username": "ada", "password": "pw-for-tests-only"})
    assert response.status_code == 302
    assert client.get(reverse("profile")).status_code == 200
    # Log-out is a POST (a GET link could be triggered by any page).
    assert client.get(reverse("logout")).status_code == 405
    client.post(reverse("logout"))
    assert client.get(reverse("profile")).status_code == 302


def test_profile_needs_a_login(client):
    response = client.get(reverse("profile"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_password_reset_mails_a_link_that_sets_a_new_password(client, user):
    user.email = "ada@example.org"
    user.save()
    client.post(reverse("password_reset"), {"email": "ada@example.org"})
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/]+(/accounts/password/reset/\S+/)", mail.outbox[0].body)
    assert link, mail.outbox[0].body
    # Django redirects the token URL to a session-held one; follow it, then set.
    form_page = client.get(link.group(1), follow=True)
    assert form_page.context["validlink"]
    response = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": "another-long-passphrase", "new_password2": "another-long-passphrase"},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("another-long-passphrase")


def test_password_reset_says_the_same_for_unknown_addresses(client):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.org"})
    assert response.status_code == 302
    assert len(mail.outbox) == 0


def test_api_token_create_use_replace_and_revoke(client, user):
    client.force_login(user)
    client.post(reverse("token-create"))
    first = Token.objects.get(user=user).key
    page = client.get(reverse("profile"))
    assert first in page.content.decode()  # shown once, right after creation
    assert first not in client.get(reverse("profile")).content.decode()

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {first}")
    assert api.get("/api/").status_code == 200

    client.post(reverse("token-create"))
    second = Token.objects.get(user=user).key
    assert second != first
    stale = APIClient()
    stale.credentials(HTTP_AUTHORIZATION=f"Token {first}")
    assert stale.get("/api/").status_code == 401

    client.post(reverse("token-revoke"))
    assert not Token.objects.filter(user=user).exists()


def test_token_endpoints_refuse_get_and_need_csrf(user):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    assert strict.get(reverse("token-create")).status_code == 405
    assert strict.post(reverse("token-create")).status_code == 403
    assert not Token.objects.filter(user=user).exists()


@pytest.mark.parametrize(
    ("saved", "asked_in"),
    [
        ("ru", "en"),  # the account's saved language, whatever page asked
        ("", "ja"),  # no saved language: the language the form was read in
    ],
)
def test_the_password_reset_email_is_in_its_readers_language(client, user, saved, asked_in):
    from django.utils import translation

    from accounts.models import AccountSettings

    user.email = "ada@example.org"
    user.save()
    if saved:
        AccountSettings.objects.create(user=user, language=saved)
    client.post(reverse("password_reset") + f"?lang={asked_in}", {"email": "ada@example.org"})
    assert len(mail.outbox) == 1
    language = saved or asked_in
    with translation.override(language):
        subject = translation.gettext("Lantern: choose a new password")
        line = translation.gettext("Choose a new password here (the link works once):")
    assert mail.outbox[0].subject == subject and line in mail.outbox[0].body
    assert subject != "Lantern: choose a new password"
