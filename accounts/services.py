"""Account writes: sign-up and API tokens."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from rest_framework.authtoken.models import Token


@transaction.atomic
def issue_api_token(user: AbstractBaseUser) -> Token:
    """A fresh API token for ``user``; any previous one stops working at once."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)


def revoke_api_token(user: AbstractBaseUser) -> bool:
    """Revoke ``user``'s API token; True when there was one."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return bool(deleted)
