"""accounts.authentication.TokenAuthentication: DRF's token authentication with the
look-up as one plain statement. It must answer exactly as DRF's class does."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient, APIRequestFactory

from accounts.authentication import TokenAuthentication
from accounts.services import issue_api_token, revoke_api_token

pytestmark = pytest.mark.django_db

ME = "/api/schema/log.json"  # any API page: anyone may read it, a bad token may not


def answer(auth_class, key_header: str):
    """What the class makes of this Authorization header: (user, token) or the error."""
    request = APIRequestFactory().get(ME, HTTP_AUTHORIZATION=key_header)
    try:
        return auth_class().authenticate(request)
    except exceptions.AuthenticationFailed as exc:
        return ("refused", str(exc.detail))


@pytest.fixture
def user(django_user_model):
    return django_user_model.objects.create_user(username="tok", email="tok@example.org")


def test_a_valid_token_is_its_user_and_the_token_in_one_statement(user):
    token = issue_api_token(user)
    with CaptureQueriesContext(connection) as queries:
        found_user, found_token = answer(TokenAuthentication, f"Token {token.key}")
    assert len(queries) == 1
    assert (found_user.pk, found_user.username, found_user.email) == (
        user.pk,
        "tok",
        "tok@example.org",
    )
    assert found_token.pk == token.key and found_token.user is found_user
    assert found_token.created == Token.objects.get(pk=token.key).created  # read when asked
    drf_user, drf_token = answer(authentication.TokenAuthentication, f"Token {token.key}")
    assert (drf_user, drf_token) == (found_user, found_token)


@pytest.mark.parametrize(
    "header",
    [
        "Token",
        "Token a b",
        "Token not-a-token",
        "Token \u00e9t\u00e9",
        "Bearer x",
        "",
    ],
)
def test_every_other_header_gets_drfs_answer(user, header):
    issue_api_token(user)
    assert answer(TokenAuthentication, header) == answer(authentication.TokenAuthentication, header)


def test_a_deactivated_user_and_a_revoked_token_are_refused_at_once(user):
    token = issue_api_token(user)
    user.is_active = False
    user.save()
    assert answer(TokenAuthentication, f"Token {token.key}") == (
        "refused",
        "User inactive or deleted.",
    )
    user.is_active = True
    user.save()
    assert answer(TokenAuthentication, f"Token {token.key}")[0] == user
    new = issue_api_token(user)
    assert answer(TokenAuthentication, f"Token {token.key}") == ("refused", "Invalid token.")
    assert answer(TokenAuthentication, f"Token {new.key}")[0] == user
    revoke_api_token(user)
    assert answer(TokenAuthentication, f"Token {new.key}") == ("refused", "Invalid token.")


def test_the_api_uses_it_and_answers_a_bad_token_with_401(user):
    from rest_framework.settings import api_settings

    assert api_settings.DEFAULT_AUTHENTICATION_CLASSES[0] is TokenAuthentication
    token = issue_api_token(user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token wrong")
    refused = client.get(ME)
    assert refused.status_code == 401
    assert refused["WWW-Authenticate"] == "Token"
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert client.get(ME).status_code == 200
