"""Who may do what. Every permission decision in Lantern is made here.

- See a club (its page, matches, logs, exports): public clubs, everyone; private
  clubs, their members only. To anyone else a private club does not exist (404).
- Upload a log to a club: its members (either role).
- Bulk-import, and create players for handles the club does not know yet: its
  organisers. ``None`` as the user means the site itself (command line, demo
  data), which may do everything.
- See a club's upload attempts and imports (the rejections): its organisers, and
  each uploader their own. Operators see every upload (the dashboard links its
  rejections and slowest validations to them, in any club).
- Operate the site (dashboard, jobs such as revalidating stored logs, retrying a
  failed ladder recompute): active staff.
- Run a club's events (create, start, pair, override, forfeits): its organisers.
  Settle a pairing with its log: organisers, and members who play in that pairing.
- Record a game at the table (a draft, ``recorder``): members of the club create
  drafts and read the club's drafts; a draft is written (actions, undo, finish,
  abandon) by its creator and by the club's organisers.
Superusers count as organisers of every club.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q

from games.models import Club, Import, Membership, Upload

if TYPE_CHECKING:
    from recorder.models import Draft

AnyUser = AbstractBaseUser | AnonymousUser


def club_visibility(user: AnyUser) -> Q:
    """Filter on Club: public clubs, and the private ones the user is a member of."""
    if not user.is_authenticated:
        return Q(is_public=True)
    if user.is_superuser:
        return Q()
    return Q(is_public=True) | Q(memberships__user=user)


def role_in(user: AnyUser | None, club: Club) -> str | None:
    """``organiser``, ``member`` or None (not a member, or not signed in)."""
    if user is None or not user.is_authenticated:
        return None
    if user.is_superuser:
        return Membership.Role.ORGANISER
    return Membership.objects.filter(user=user, club=club).values_list("role", flat=True).first()


def can_view_club(user: AnyUser, club: Club) -> bool:
    return club.is_public or role_in(user, club) is not None


def can_upload(user: AnyUser | None, club: Club) -> bool:
    return user is None or role_in(user, club) is not None


def can_import(user: AnyUser | None, club: Club) -> bool:
    return user is None or role_in(user, club) == Membership.Role.ORGANISER


def can_create_players(user: AnyUser | None, club: Club) -> bool:
    """May an upload by ``user`` add players for handles ``club`` does not know yet?"""
    return can_import(user, club)


def can_see_upload(user: AnyUser, upload: Upload) -> bool:
    if can_operate(user):
        return True
    if not can_view_club(user, upload.club):
        return False
    return can_import(user, upload.club) or (
        user.is_authenticated and upload.uploaded_by_id == user.pk
    )


def can_see_import(user: AnyUser, run: Import) -> bool:
    return can_view_club(user, run.club) and can_import(user, run.club)


def can_operate(user: AnyUser) -> bool:
    """The operator's dashboard and job controls: staff only."""
    return bool(user.is_authenticated and user.is_active and user.is_staff)


# --- tournaments -----------------------------------------------------------------


def is_organiser(user: AnyUser, club: Club) -> bool:
    return role_in(user, club) == Membership.Role.ORGANISER


def can_manage_tournament(user: AnyUser, club: Club) -> bool:
    """Create, start, pair, override and record forfeits: the club's organisers."""
    return is_organiser(user, club)


def can_record_pairing_result(user: AnyUser, club: Club, player_user_ids: set[int]) -> bool:
    """Upload the log that settles a pairing: an organiser, or a member of the club who
    plays in that pairing (``player_user_ids``: the site accounts linked to its players)."""
    if is_organiser(user, club):
        return True
    return can_upload(user, club) and user.pk in player_user_ids


def can_manage_club(user: AnyUser, club: Club) -> bool:
    """Invites, join requests, roles, player renames and merges, voiding matches."""
    return role_in(user, club) == Membership.Role.ORGANISER


# --- recorder ----------------------------------------------------------------------


def can_record(user: AnyUser, club: Club) -> bool:
    """Start recording a game (a draft) in ``club``: its members."""
    return role_in(user, club) is not None


def can_see_drafts(user: AnyUser, club: Club) -> bool:
    """Read the club's drafts (games in progress): its members."""
    return role_in(user, club) is not None


def can_write_draft(user: AnyUser, draft: Draft) -> bool:
    """Apply, undo, finish or abandon a draft: its creator while a member of the club,
    and the club's organisers."""
    role = role_in(user, draft.club)
    if role == Membership.Role.ORGANISER:
        return True
    return role is not None and draft.created_by_id == user.pk
