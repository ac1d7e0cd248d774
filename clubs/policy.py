"""Who may do what in a club. Each app decides about its own objects on top of these
roles: ``games.policy`` (uploads, imports), ``recorder.policy`` (drafts).

- See a club (its page, matches, logs, exports): public clubs, everyone; private
  clubs, their members only. To anyone else a private club does not exist (404).
- Upload a log to a club: its members (either role).
- Bulk-import, and create players for handles the club does not know yet: its
  organisers. ``None`` as the user means the site itself (command line, demo
  data), which may do everything. Confirm a log's new handles as guests while
  uploading it: its organisers, and its members where the club allows it.
- See a club's upload attempts and imports (the rejections): ``games.policy``.
- Operate the site (dashboard, jobs such as revalidating stored logs, retrying a
  failed ladder recompute): active staff.
- Run a club's events (create, start, pair, override, forfeits): its organisers.
  Settle a pairing with its log: organisers, and members who play in that pairing.
  Enter a player in an event or withdraw them: organisers; a member themselves (the
  handle the club links to their account).
- Manage a club (invites, join requests, roles, handles: rename, merge, link to an
  account, answer claims; void and restore matches): its organisers. See who is in
  it (the members page): its members. Claim a handle ("this one is me"): its members.
- A person's page (their games and ratings across clubs): themselves, anyone who can
  see a club that links a handle to them, and anyone in a club with them.
- Record a game at the table (a draft) and whose eyes a draft is seen with:
  ``recorder.policy``.
- Analyse a match (queue its analysis, engine.ai.analysis): members of its club
  (either role). Reading a done analysis follows the replay: whoever sees the match.
Superusers count as organisers of every club.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q

from clubs.models import Club, Membership

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


def can_analyse(user: AnyUser | None, club: Club) -> bool:
    """Queue a match's analysis: members of its club (it costs minutes of a worker)."""
    return user is None or role_in(user, club) is not None


def can_import(user: AnyUser | None, club: Club) -> bool:
    return user is None or role_in(user, club) == Membership.Role.ORGANISER


def can_create_players(user: AnyUser | None, club: Club) -> bool:
    """May an upload by ``user`` add players for handles ``club`` does not know yet?"""
    return can_import(user, club)


def can_confirm_guests(user: AnyUser | None, club: Club) -> bool:
    """May ``user``, uploading a log, confirm the handles ``club`` does not know as guests?
    Its organisers; its members too where the club allows it."""
    if can_create_players(user, club):
        return True
    return club.members_confirm_guests and role_in(user, club) is not None


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


def can_enter_player(user: AnyUser, club: Club, player_user_id: int | None) -> bool:
    """Enter a player in (or withdraw them from) one of the club's events: an organiser,
    or a member for the handle the club links to their own account."""
    if is_organiser(user, club):
        return True
    return user.is_authenticated and player_user_id == user.pk and role_in(user, club) is not None


def can_manage_club(user: AnyUser, club: Club) -> bool:
    """Invites, join requests, roles, player renames and merges, voiding and restoring
    matches, linking handles to accounts."""
    return role_in(user, club) == Membership.Role.ORGANISER


def can_see_members(user: AnyUser, club: Club) -> bool:
    """The club's member list (who has an account in it, and their role): its members.
    Handles are public with the club's matches; accounts are not."""
    return role_in(user, club) is not None


def can_see_person(viewer: AnyUser, person: AbstractBaseUser, sees_handles: bool) -> bool:
    """A person's page (their games and ratings across clubs): themselves; anyone who
    can see a club that links a handle to them (``sees_handles``); anyone in a club
    with them (the members page names them). To others the person does not exist."""
    if not viewer.is_authenticated:
        return sees_handles
    if viewer.pk == person.pk or sees_handles or viewer.is_superuser:
        return True
    return Membership.objects.filter(user=person, club__memberships__user=viewer).exists()


def can_claim_handle(user: AnyUser, club: Club) -> bool:
    """Say which handle of the club's logs is you (an organiser confirms): its members."""
    return role_in(user, club) is not None
