"""Who may record a game at the table (a draft): members of the club create drafts and
follow the club's drafts; a draft is played (actions, undo, its choices) by its creator
only, and finished or abandoned by its creator and the club's organisers. Whose eyes each
person sees a draft with is decided here too (:func:`draft_eyes`), never by the client: see the
table in docs/recorder.md."""

from __future__ import annotations

from clubs.models import Club, Membership, Player
from clubs.policy import AnyUser, role_in
from engine import Game
from recorder.models import Draft


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
    return (
        role_in(user, draft.club) is not None
        and user.is_authenticated
        and draft.created_by_id == user.pk
    )


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
        linked = set(
            Player.objects.filter(
                club_id=draft.club_id, user=user, handle__in=list(handles)
            ).values_list("handle", flat=True)
        )
        device = [seat for handle, seat in handles.items() if handle in linked]
    else:
        device = []
    if not device:
        return PUBLIC
    seats = [entry["seat"] for entry in draft.seats]
    for team in game.viewers(draft.options, seats):
        if (
            team not in seats
            and game.controller(team) in device
            and all(game.acts_for(team, seat) for seat in device)
        ):
            return team
    if len(device) == 1:
        return device[0]
    return next((seat for seat in to_act if seat in device), device[0])
