"""Account reads: a person by name, their API token."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from rest_framework.authtoken.models import Token


def api_token_of(user: AbstractBaseUser) -> Token | None:
    """``user``'s API token, or None when they have none."""
    return Token.objects.filter(user=user).first()


def active_account(username: str) -> AbstractBaseUser | None:
    """The active account of this user name, or None."""
    return get_user_model().objects.filter(username=username, is_active=True).first()
