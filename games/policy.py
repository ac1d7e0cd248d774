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


# --- tournaments -----------------------------------------------------------------


def is_organiser(user: AnyUser, club: Club) -> bool:
    return bool(
        user.is_authenticated
        and club.memberships.filter(user=user, role="organiser").exists()
    )


def can_manage_tournament(user: AnyUser, club: Club) -> bool:
    """Create, start, pair, override and record forfeits: the club's organisers."""
    return is_organiser(user, club)


def can_record_pairing_result(user: AnyUser, club: Club, player_user_ids: set[int]) -> bool:
    """Upload the log that settles a pairing: an organiser, or a player of that pairing
    (``player_user_ids``: the site accounts linked to its players)."""
    if is_organiser(user, club):
        return True
    return bool(user.is_authenticated and user.pk in player_user_ids)
