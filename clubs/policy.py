"""Who may do what. Every permission decision in Lantern is made here.

- See a club (its page, matches, logs, exports): public clubs, everyone; private
  clubs, their members only. To anyone else a private club does not exist (404).
- Upload a log to a club: its members (either role).
- Bulk-import, and create players for handles the club does not know yet: its
  organisers. ``None`` as the user means the site itself (command line, demo
  data), which may do everything.
- See a club's upload attempts and imports (the rejections): its organisers, and
  each uploader their own. Operators see every upload (the dashboard links its
  rejections and slowest validations to them, in any club); an operator reading a
  private club's upload is written to that club's audit trail.
- Operate the site (dashboard, jobs such as revalidating stored logs, retrying a
  failed ladder recompute): active staff.
- Run a club's events (create, start, pair, override, forfeits): its organisers.
  Settle a pairing with its log: organisers, and members who play in that pairing.
  Enter a player in an event or withdraw them: organisers; a member themselves (the
  handle the club links to their account).
- Manage a club (invites, join requests, roles, handles: rename, merge, link to an
  account, answer claims; void and restore matches): its organisers. See who is in
  it (the members page): its members. Ask to join: anyone signed in who is not in
  it. Leave: its members. Claim a handle ("this one is me"): its members.
- A person's page (their games and ratings across clubs): themselves, anyone who can
  see a club that links a handle to them, and anyone in a club with them.
- Record a game at the table (a draft, ``recorder``): members of the club create
  drafts and follow the club's drafts; a draft is played (actions, undo, its
  choices) by its creator only, and finished or abandoned by its creator and the
  club's organisers. Whose eyes each person sees a draft with is decided here too
  (:func:`draft_eyes`), never by the client: see the table in docs/recorder.md.
- Analyse a match (queue its analysis, engine.core.analysis): members of its club
  (either role). Reading a done analysis follows the replay: whoever sees the match.
Superusers count as organisers of every club.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q

from clubs.models import Club, Membership, Player

if TYPE_CHECKING:
    from engine import Game
    from games.models import Import, Upload
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


def can_analyse(user: AnyUser | None, club: Club) -> bool:
    """Queue a match's analysis: members of its club (it costs minutes of a worker)."""
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


def is_staff_reading_private_upload(user: AnyUser, upload: Upload) -> bool:
    """An operator reading an upload of a private club they could not otherwise see (not
    its member, not its uploader): allowed — the dashboard links rejections in any club —
    and written to that club's audit trail, which its organisers read."""
    if not can_operate(user) or upload.club.is_public:
        return False
    if role_in(user, upload.club) is not None and not user.is_superuser:
        return False
    return upload.uploaded_by_id != user.pk


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


def can_enter_player(user: AnyUser, club: Club, player_user_id: int | None) -> bool:
    """Enter a player in (or withdraw them from) one of the club's events: an organiser,
    or a member for the handle the club links to their own account."""
    if is_organiser(user, club):
        return True
    return (user.is_authenticated and player_user_id == user.pk
            and role_in(user, club) is not None)


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


def can_request_to_join(user: AnyUser, club: Club) -> bool:
    """Ask to join: anyone signed in who can see the club and is not in it yet."""
    return user.is_authenticated and can_view_club(user, club) and role_in(user, club) is None


def can_leave(user: AnyUser, club: Club) -> bool:
    """Leave a club: any member (the service keeps the last organiser in)."""
    return user.is_authenticated and not user.is_superuser and role_in(user, club) is not None


def can_claim_handle(user: AnyUser, club: Club) -> bool:
    """Say which handle of the club's logs is you (an organiser confirms): its members."""
    return role_in(user, club) is not None


# --- recorder ----------------------------------------------------------------------


def can_record(user: AnyUser, club: Club) -> bool:
    """Start recording a game (a draft) in ``club``: its members."""
    return role_in(user, club) is not None


def can_see_drafts(user: AnyUser, club: Club) -> bool:
    """Read the club's drafts (games in progress): its members."""
    return role_in(user, club) is not None


def can_write_draft(user: AnyUser, draft: Draft) -> bool:
    """Finish or abandon a draft: its creator while a member of the club, and the club's
    organisers."""
    role = role_in(user, draft.club)
    if role == Membership.Role.ORGANISER:
        return True
    return role is not None and draft.created_by_id == user.pk


def can_play_draft(user: AnyUser, draft: Draft) -> bool:
    """Enter moves in a draft (its choices, apply, undo): the person at its device, its
    creator, while a member. An organiser following someone else's game sees only what
    its eyes allow (:func:`draft_eyes`), which is not enough to play any seat."""
    return (role_in(user, draft.club) is not None and user.is_authenticated
            and draft.created_by_id == user.pk)


#: The perspectives of :func:`draft_eyes`, as URLs and payloads name them.
ALL_SEEING = "all"
PUBLIC = "public"


def draft_eyes(user: AnyUser, draft: Draft, game: Game, to_act: list[str]) -> str:
    """Whose eyes ``user`` sees a draft with: ``all``, a seat or team id, or ``public``.
    The server decides, for every response about a draft; the client never chooses.

    - A finished draft is a match: its replay rules apply (every perspective, ``all``
      by default, as on the replay page).
    - Its creator, when no seat is a bot and chance is entered as it came out at the
      table: ``all`` (the recorder of the whole table types every hand and draw in).
    - Otherwise the creator is the people at the device: the seats without a bot.
      Anyone else is the seats the club links to their account (``Player.user``).
    - Those seats' eyes: a team's view when the people decide for the team (Mister X's
      detectives, when det1 is a person) and the team decides for each of them; else
      one seat's; several seats with no team (a game dealt by the server and passed
      round one device) see with the seat to act, then with the first of them.
    - Nobody seated: ``public``, what is announced to all.
    """
    if draft.status == "finished":
        return ALL_SEEING
    humans = [entry["seat"] for entry in draft.seats if not entry.get("bot")]
    if user.is_authenticated and draft.created_by_id == user.pk:
        if len(humans) == len(draft.seats) and draft.chance == "table":
            return ALL_SEEING
        device = humans
    elif user.is_authenticated:
        handles = {entry["player"]: entry["seat"] for entry in draft.seats if not entry.get("bot")}
        linked = set(Player.objects.filter(club_id=draft.club_id, user=user, handle__in=list(handles))
                     .values_list("handle", flat=True))
        device = [seat for handle, seat in handles.items() if handle in linked]
    else:
        device = []
    if not device:
        return PUBLIC
    seats = [entry["seat"] for entry in draft.seats]
    for team in game.viewers(draft.options, seats):
        if team not in seats and game.controller(team) in device and all(
                game.acts_for(team, seat) for seat in device):
            return team
    if len(device) == 1:
        return device[0]
    return next((seat for seat in to_act if seat in device), device[0])
