"""Who may do what. Every permission decision in Lantern is made here."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q

from games.models import Club

AnyUser = AbstractBaseUser | AnonymousUser


def club_visibility(user: AnyUser) -> Q:
    """Filter on Club: public clubs, and the private ones the user is a member of."""
    if not user.is_authenticated:
        return Q(is_public=True)
    return Q(is_public=True) | Q(memberships__user=user)


def can_view_club(user: AnyUser, club: Club) -> bool:
    if club.is_public:
        return True
    return bool(user.is_authenticated and club.memberships.filter(user=user).exists())


def can_operate(user: AnyUser) -> bool:
    """The operator's dashboard and job controls: staff only."""
    return bool(user.is_authenticated and user.is_active and user.is_staff)
