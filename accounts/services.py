"""Account writes: sign-up, API tokens, language and time zone."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from rest_framework.authtoken.models import Token

from accounts.models import AccountSettings, time_zone_names
from accounts.preferences import LANGUAGE_CODES


def create_account(*, username: str, email: str, password: str) -> AbstractBaseUser:
    """A new account (the sign-up page's write; the form has checked the name is free and
    the password good enough)."""
    return get_user_model().objects.create_user(username=username, email=email, password=password)


@transaction.atomic
def issue_api_token(user: AbstractBaseUser) -> Token:
    """A fresh API token for ``user``; any previous one stops working at once."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)


def revoke_api_token(user: AbstractBaseUser) -> bool:
    """Revoke ``user``'s API token; True when there was one."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return bool(deleted)


def save_preferences(
    user: AbstractBaseUser, *, language: str | None = None, time_zone: str | None = None
) -> AccountSettings:
    """Saves what ``user`` chose; a choice left as None keeps what was saved. An empty
    string goes back to the default (the browser's language, the site's time zone)."""
    row, _created = AccountSettings.objects.get_or_create(user=user)
    if language is not None:
        if language and language not in LANGUAGE_CODES:
            raise ValueError(f"unknown language {language!r}")
        row.language = language
    if time_zone is not None:
        if time_zone and time_zone not in time_zone_names():
            raise ValueError(f"unknown time zone {time_zone!r}")
        row.time_zone = time_zone
    row.save()
    return row
