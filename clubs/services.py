"""Club management: every change an organiser makes, each written to the audit trail.

Checks of *who* may do these live in ``clubs.policy``; the views ask it first.
The services check what must hold whoever asks (an invite used once, a club never
left without an organiser, two handles merged only when they never met).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, TypeVar

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clubs import addresses, events
from clubs.models import (
    Ask,
    AuditEntry,
    Club,
    HandleClaim,
    Invite,
    JoinRequest,
    Membership,
    Player,
)
from clubs.selectors import free_address, free_handle
from config import zones
from config.errors import Refusal
from config.events import publish
from config.sentences import Sentence

#: how long an invite link works unless the organiser says otherwise
INVITE_DAYS = 7


class ClubError(Refusal):
    """A change that cannot be made, with a sentence for the organiser
    (``config.errors.Refusal``; ``code`` is ``invalid`` unless more is known)."""

    code = "invalid"


def audit(
    club: Club, actor: AbstractBaseUser | None, action: str, summary: str | Sentence, **details: Any
) -> AuditEntry:
    """An entry of the club's audit trail; ``summary`` as a Sentence is shown to each
    organiser in their language (its English kept as ``summary`` for logs and search)."""
    sentence = summary if isinstance(summary, Sentence) else Sentence(plain=summary)
    return AuditEntry.objects.create(
        club=club,
        actor=actor,
        action=action,
        summary=sentence.english()[:500],
        summary_sentence=sentence.as_json(),
        details=details,
    )


def _change_setting(
    user: AbstractBaseUser, club: Club, field: str, value: Any, said: Sentence, **details: Any
) -> None:
    """Set the club's ``field`` to ``value`` and say so in the audit trail (action
    ``club.<field>``, ``said`` its summary); nothing, and no entry, when it is so already."""
    if getattr(club, field) == value:
        return
    setattr(club, field, value)
    club.save(update_fields=[field])
    audit(club, user, f"club.{field}", said, **details)


def _switch(
    user: AbstractBaseUser, club: Club, field: str, on: bool, *, said_on: str, said_off: str
) -> None:
    """:func:`_change_setting` of a setting that is on or off: said ``said_on`` or
    ``said_off`` (site words), ``on`` in the entry's details."""
    _change_setting(user, club, field, on, Sentence.site(said_on if on else said_off), on=on)


@transaction.atomic
def set_auto_analysis(user: AbstractBaseUser, club: Club, on: bool) -> None:
    """Analyse every finished match stored from now on (or stop): an organiser's setting."""
    _switch(
        user,
        club,
        "auto_analysis",
        on,
        said_on=gettext_noop("turned automatic analysis on"),
        said_off=gettext_noop("turned automatic analysis off"),
    )


def set_time_zone(user: AbstractBaseUser, club: Club, name: str) -> None:
    """The zone the club's pages and events show times in ("": each reader's own)."""
    _known_zone(name)
    _change_setting(
        user,
        club,
        "time_zone",
        name,
        Sentence.site(gettext_noop("set the club's time zone to %(zone)s"), zone=name or "—"),
        zone=name,
    )


def set_members_confirm_guests(user: AbstractBaseUser, club: Club, on: bool) -> None:
    """Whether a member uploading a log may confirm its new handles as guests."""
    _switch(
        user,
        club,
        "members_confirm_guests",
        on,
        said_on=gettext_noop("let members confirm new handles as guests"),
        said_off=gettext_noop("left confirming new handles as guests to organisers"),
    )


#: The longest a club may keep a finished live game from its watchers: a week, in minutes.
WATCH_DELAY_LIMIT = 7 * 24 * 60


def set_live_tables(
    user: AbstractBaseUser, club: Club, *, guests_at_tables: bool, watchers_see_all_after: int
) -> None:
    """The club's online tables: whether a table's opener (or an organiser) may give a free
    seat to a guest by a one-time link, and how many minutes after a game ends its
    watchers see everything (its seats do at once). An organiser's setting."""
    if not 0 <= watchers_see_all_after <= WATCH_DELAY_LIMIT:
        raise ClubError(
            _("The delay is between 0 and %(limit)s minutes.") % {"limit": WATCH_DELAY_LIMIT}
        )
    _switch(
        user,
        club,
        "guests_at_tables",
        guests_at_tables,
        said_on=gettext_noop("let guests take seats at the tables by one-time links"),
        said_off=gettext_noop("stopped guests taking seats at the tables"),
    )
    _change_setting(
        user,
        club,
        "watchers_see_all_after",
        watchers_see_all_after,
        Sentence.site(
            gettext_noop(
                "let watchers see everything %(minutes)s minutes after a table's game ends"
            ),
            minutes=watchers_see_all_after,
        ),
        minutes=watchers_see_all_after,
    )


def record_guests(user: AbstractBaseUser | None, club: Club, handles: list[str]) -> None:
    """The audit trail's word that ``user`` confirmed ``handles`` as guests while
    uploading a log (games.services.ingest creates their players)."""
    audit(
        club,
        user,
        "player.guests",
        Sentence.site(
            gettext_noop("confirmed %(handles)s as guests in an upload"), handles=", ".join(handles)
        ),
        handles=handles,
    )


def _known_zone(name: str) -> None:
    if name and zones.zone_or_none(name) is None:
        raise ClubError(
            _("'%(zone)s' is not a time zone this site knows.") % {"zone": name}, "bad_time_zone"
        )


@transaction.atomic
def create_club(
    user: AbstractBaseUser, *, name: str, slug: str = "", is_public: bool, time_zone: str = ""
) -> Club:
    """A new club, with its creator as its first organiser; no ``slug``: the address its
    name reads as (clubs.selectors.free_address)."""
    slug = slug or free_address(name)
    if slug in addresses.RESERVED or Club.objects.filter(slug=slug).exists():
        raise ClubError(
            _("The address '%(slug)s' is taken; choose another.") % {"slug": slug}, "slug_taken"
        )
    _known_zone(time_zone)
    club = Club.objects.create(name=name, slug=slug, is_public=is_public, time_zone=time_zone)
    Membership.objects.create(user=user, club=club, role=Membership.Role.ORGANISER)
    audit(
        club,
        user,
        "club.create",
        Sentence.site(gettext_noop("created the club %(name)s"), name=repr(name)),
        public=is_public,
    )
    return club


def _a_person(player: Player) -> None:
    """Refuse a bot's handle where only a person's belongs (linked to an account, claimed,
    renamed or merged): the recorder plays as it, and ladders tell bots apart by it."""
    if player.bot:
        raise ClubError(
            _("'%(handle)s' is the club's %(bot)s, not a person's handle.")
            % {"handle": player.handle, "bot": player.name},
            "bot_handle",
        )


def create_invite(
    actor: AbstractBaseUser,
    club: Club,
    *,
    role: str = Membership.Role.MEMBER,
    days: int = INVITE_DAYS,
    player: Player | None = None,
) -> Invite:
    """A link for one person; ``player``: the handle of the club's logs that is theirs,
    linked to their account when they join."""
    if not 1 <= days <= 90:
        raise ClubError(_("An invite lasts from 1 to 90 days."), "bad_expiry")
    if player is not None and (player.club_id != club.pk or player.user_id is not None):
        raise ClubError(
            _("'%(handle)s' is not a free handle of %(club)s.")
            % {"handle": player.handle, "club": club.name},
            "handle_taken",
        )
    if player is not None:
        _a_person(player)
    invite = Invite.objects.create(
        club=club,
        role=role,
        created_by=actor,
        player=player,
        expires_at=timezone.now() + timedelta(days=days),
    )
    audit(
        club,
        actor,
        "invite.create",
        Sentence.site(
            gettext_noop("created an organiser invite valid for %(days)s days"), days=days
        )
        if role == Membership.Role.ORGANISER
        else Sentence.site(
            gettext_noop("created a member invite valid for %(days)s days"), days=days
        ),
        invite=invite.pk,
    )
    return invite


def revoke_invite(actor: AbstractBaseUser, invite: Invite) -> None:
    if invite.used_at or invite.revoked_at:
        return
    invite.revoked_at = timezone.now()
    invite.save(update_fields=["revoked_at"])
    audit(
        invite.club,
        actor,
        "invite.revoke",
        Sentence.site(gettext_noop("revoked an invite")),
        invite=invite.pk,
    )


def invite_problem(invite: Invite) -> ClubError | None:
    """Why the invitation no longer works (withdrawn, used, expired), or None."""
    if invite.revoked_at:
        return ClubError(_("This invitation was withdrawn by the club."), "revoked")
    if invite.used_at:
        return ClubError(_("This invitation has been used already."), "used")
    if invite.expires_at <= timezone.now():
        return ClubError(_("This invitation has expired; ask the club for a new one."), "expired")
    return None


@transaction.atomic
def accept_invite(user: AbstractBaseUser, token: str) -> Membership:
    """Join the invite's club. The invite works once: the row is locked, so two
    people clicking the same link at once cannot both get in."""
    invite = Invite.objects.select_for_update().select_related("club").filter(token=token).first()
    if invite is None:
        raise ClubError(_("This invitation link is not valid."), "unknown_invite")
    problem = invite_problem(invite)
    if problem is not None:
        raise problem
    if Membership.objects.filter(user=user, club=invite.club).exists():
        # Keep the invite for the person it was meant for.
        raise ClubError(
            _("You are already a member of %(club)s.") % {"club": invite.club.name},
            "already_member",
        )
    membership = Membership.objects.create(user=user, club=invite.club, role=invite.role)
    invite.used_at = timezone.now()
    invite.used_by = user
    invite.save(update_fields=["used_at", "used_by"])
    JoinRequest.objects.filter(
        club=invite.club, user=user, status=JoinRequest.Status.PENDING
    ).update(status=JoinRequest.Status.APPROVED, decided_at=timezone.now())
    audit(
        invite.club,
        user,
        "invite.accept",
        Sentence.site(gettext_noop("%(user)s joined by invitation"), user=user.get_username()),
        invite=invite.pk,
        role=invite.role,
    )
    if invite.player_id is not None:
        # The handle the organiser named: theirs now, unless someone took it meanwhile.
        player = Player.objects.select_for_update().get(pk=invite.player_id)
        if player.user_id is None:
            link_player(invite.created_by, player, user)
    return membership


AskT = TypeVar("AskT", bound=Ask)


def ask(model: type[AskT], waiting: str, **fields: Any) -> AskT:
    """A new ask (a join request, a handle claim); ``waiting``, the sentence when the
    same one is waiting already (the database's one-pending constraint says so)."""
    try:
        with transaction.atomic():
            return model.objects.create(**fields)
    except IntegrityError:
        raise ClubError(waiting, "pending") from None


def answer(actor: AbstractBaseUser, asked: AskT, *, approve: bool, answered: str) -> AskT:
    """Note an organiser's answer to a pending ask (locked; call inside atomic);
    ``answered``, the sentence when someone answered it first."""
    asked = type(asked).objects.select_for_update().get(pk=asked.pk)
    if asked.status != Ask.Status.PENDING:
        raise ClubError(answered, "decided")
    asked.status = Ask.Status.APPROVED if approve else Ask.Status.DECLINED
    asked.decided_at, asked.decided_by = timezone.now(), actor
    asked.save(update_fields=["status", "decided_at", "decided_by"])
    return asked


def request_to_join(user: AbstractBaseUser, club: Club, message: str = "") -> JoinRequest:
    if Membership.objects.filter(user=user, club=club).exists():
        raise ClubError(
            _("You are already a member of %(club)s.") % {"club": club.name}, "already_member"
        )
    request = ask(
        JoinRequest,
        _("Your request is already waiting for an organiser."),
        club=club,
        user=user,
        message=message[:500],
    )
    audit(
        club,
        user,
        "join.request",
        Sentence.site(gettext_noop("%(user)s asked to join"), user=user.get_username()),
    )
    return request


@transaction.atomic
def decide_join_request(actor: AbstractBaseUser, request: JoinRequest, *, approve: bool) -> None:
    request = answer(
        actor, request, approve=approve, answered=_("This request was already decided.")
    )
    name = request.user.get_username()
    if approve:
        Membership.objects.get_or_create(user=request.user, club=request.club)
        audit(
            request.club,
            actor,
            "join.approve",
            Sentence.site(gettext_noop("approved %(user)s's request to join"), user=name),
        )
    else:
        audit(
            request.club,
            actor,
            "join.decline",
            Sentence.site(gettext_noop("declined %(user)s's request to join"), user=name),
        )


@transaction.atomic
def set_role(actor: AbstractBaseUser, membership: Membership, role: str) -> Membership:
    """Promote a member to organiser or demote an organiser; a club keeps at least one."""
    if role not in Membership.Role.values:
        raise ClubError(_("Unknown role '%(role)s'.") % {"role": role}, "bad_role")
    # Lock the club's organiser rows so two demotions at once cannot empty it.
    organisers = list(
        Membership.objects.select_for_update()
        .filter(club=membership.club, role=Membership.Role.ORGANISER)
        .values_list("pk", flat=True)
    )
    if role == membership.role:
        return membership
    if role == Membership.Role.MEMBER and organisers == [membership.pk]:
        raise ClubError(
            _("A club needs at least one organiser: promote someone else first."), "last_organiser"
        )
    before = membership.role
    membership.role = role
    membership.save(update_fields=["role"])
    verb = "promoted" if role == Membership.Role.ORGANISER else "demoted"
    audit(
        membership.club,
        actor,
        f"member.{verb}",
        Sentence.site(
            gettext_noop("made %(user)s an organiser")
            if verb == "promoted"
            else gettext_noop("made %(user)s a member rather than an organiser"),
            user=membership.user.get_username(),
        ),
        before=before,
        role=role,
    )
    return membership


@transaction.atomic
def rename_player(actor: AbstractBaseUser, player: Player, handle: str) -> Player:
    _a_person(player)
    handle = handle.strip()
    if not handle:
        raise ClubError(_("A handle cannot be empty."), "empty_handle")
    if handle == player.handle:
        return player
    if Player.objects.filter(club=player.club, handle=handle).exists():
        raise ClubError(
            _("'%(handle)s' is already a player of this club: merge the two handles instead.")
            % {"handle": handle},
            "handle_taken",
        )
    before = player.handle
    player.handle = handle
    player.save(update_fields=["handle"])
    publish(events.players_changed, club_id=player.club_id)
    audit(
        player.club,
        actor,
        "player.rename",
        Sentence.site(
            gettext_noop("renamed player %(before)s to %(handle)s"),
            before=repr(before),
            handle=repr(handle),
        ),
        player=player.pk,
    )
    return player


@transaction.atomic
def link_player(
    actor: AbstractBaseUser | None, player: Player, user: AbstractBaseUser | None
) -> Player:
    """Say whose account the handle is (None: nobody's). Only a member of the club can
    be linked: the handle is then theirs on ladders, in events and on their pages."""
    if user is not None:
        _a_person(player)
    if user is not None and not Membership.objects.filter(user=user, club=player.club).exists():
        raise ClubError(
            _("%(user)s is not a member of %(club)s.")
            % {"user": user.get_username(), "club": player.club.name},
            "not_member",
        )
    before = player.user
    if (before.pk if before else None) == (user.pk if user else None):
        return player
    player.user = user
    player.save(update_fields=["user"])
    publish(events.players_changed, club_id=player.club_id)
    if user is None:
        summary = Sentence.site(
            gettext_noop("unlinked %(handle)s from %(user)s"),
            handle=repr(player.handle),
            user=before.get_username(),
        )
    else:
        summary = Sentence.site(
            gettext_noop("linked %(handle)s to %(user)s"),
            handle=repr(player.handle),
            user=user.get_username(),
        )
    audit(
        player.club, actor, "player.link", summary, player=player.pk, user=user.pk if user else None
    )
    return player


@transaction.atomic
def handle_for_member(actor: AbstractBaseUser | None, club: Club, user_id: int) -> Player:
    """The handle a member plays as, for a seat picked by their name: one linked to their
    account already, else a new one, their user name (``-2``… when the club has that
    handle for someone else), linked to them. A member needs no one to type it."""
    membership = (
        Membership.objects.select_related("user").filter(club=club, user_id=user_id).first()
    )
    if membership is None:
        raise ClubError(
            _("That person is not a member of %(club)s.") % {"club": club.name}, "not_member"
        )
    existing = club.players.filter(user_id=user_id).order_by("handle").first()
    if existing is not None:
        return existing
    taken = set(club.players.values_list("handle", flat=True))
    player = Player.objects.create(
        club=club, user=membership.user, handle=free_handle(membership.user.get_username(), taken)
    )
    audit(
        club,
        actor,
        "player.create",
        Sentence.site(
            gettext_noop("made the handle %(handle)s for %(user)s"),
            handle=repr(player.handle),
            user=membership.user.get_username(),
        ),
        player=player.pk,
        user=user_id,
    )
    return player


def guest_player(
    actor: AbstractBaseUser | None, club: Club, user: AbstractBaseUser, name: str
) -> Player:
    """The handle a guest plays as at one of the club's tables (a seat taken by a one-time
    link): the one linked to their account already, else a new guest handle, ``name``
    (``-2``… when the club has that handle), linked to them."""
    existing = club.players.filter(user=user).order_by("handle").first()
    if existing is not None:
        return existing
    taken = set(club.players.values_list("handle", flat=True))
    player = Player.objects.create(
        club=club, user=user, guest=True, handle=free_handle(name, taken)
    )
    audit(
        club,
        actor,
        "player.guest",
        Sentence.site(
            gettext_noop("%(handle)s came as a guest by a one-time seat link"),
            handle=repr(player.handle),
        ),
        player=player.pk,
    )
    return player


def claim_handle(user: AbstractBaseUser, player: Player) -> HandleClaim:
    """``user`` says the handle is theirs; an organiser confirms (:func:`decide_claim`)."""
    _a_person(player)
    if not Membership.objects.filter(user=user, club=player.club).exists():
        raise ClubError(
            _("Only members of %(club)s claim its handles.") % {"club": player.club.name},
            "not_member",
        )
    if player.user_id == user.pk:
        raise ClubError(
            _("'%(handle)s' is yours already.") % {"handle": player.handle}, "already_yours"
        )
    if player.user_id is not None:
        raise ClubError(
            _("'%(handle)s' is linked to another member; ask an organiser.")
            % {"handle": player.handle},
            "handle_taken",
        )
    claim = ask(
        HandleClaim,
        _("Your claim of '%(handle)s' is waiting for an organiser.") % {"handle": player.handle},
        club=player.club,
        player=player,
        user=user,
    )
    audit(
        player.club,
        user,
        "handle.claim",
        Sentence.site(
            gettext_noop("%(user)s claims %(handle)s"),
            user=user.get_username(),
            handle=repr(player.handle),
        ),
        player=player.pk,
    )
    return claim


@transaction.atomic
def decide_claim(actor: AbstractBaseUser, claim: HandleClaim, *, approve: bool) -> None:
    claim = answer(actor, claim, approve=approve, answered=_("This claim was already answered."))
    if approve:
        player = Player.objects.select_for_update().get(pk=claim.player_id)
        if player.user_id not in (None, claim.user_id):
            raise ClubError(
                _("'%(handle)s' is linked to another member now.") % {"handle": player.handle},
                "handle_taken",
            )
        link_player(actor, player, claim.user)
    else:
        audit(
            claim.club,
            actor,
            "handle.decline",
            Sentence.site(
                gettext_noop("declined %(user)s's claim of %(handle)s"),
                user=claim.user.get_username(),
                handle=repr(claim.player.handle),
            ),
        )


@transaction.atomic
def leave_club(user: AbstractBaseUser, membership: Membership) -> None:
    """``user`` leaves: their handles stay (with their games), unlinked from nobody;
    a club keeps at least one organiser."""
    organisers = list(
        Membership.objects.select_for_update()
        .filter(club=membership.club, role=Membership.Role.ORGANISER)
        .values_list("pk", flat=True)
    )
    if organisers == [membership.pk]:
        raise ClubError(
            _(
                "You are the club's only organiser: make someone else an organiser "
                "before you leave."
            ),
            "last_organiser",
        )
    membership.delete()
    audit(
        membership.club,
        user,
        "member.leave",
        Sentence.site(gettext_noop("%(user)s left the club"), user=user.get_username()),
    )


@transaction.atomic
def merge_players(actor: AbstractBaseUser, source: Player, target: Player) -> Player:
    """Fold ``source`` into ``target`` (two handles of one person): every seat of
    ``source`` becomes ``target``'s, then the club's ladders recompute from scratch,
    so ratings and their history are as if the logs had named ``target`` all along
    (ladder.handlers)."""
    if source.club_id != target.club_id:
        raise ClubError(_("Both handles must belong to the same club."), "other_club")
    if source.pk == target.pk:
        raise ClubError(_("Choose two different handles."), "same_player")
    _a_person(source)
    _a_person(target)
    shared = sorted(
        set(source.seats.values_list("match_id", flat=True))
        & set(target.seats.values_list("match_id", flat=True))
    )
    if shared:
        raise ClubError(
            _(
                "'%(handle)s' and '%(into)s' played in the same match (#%(match)s): they are two "
                "people, not one."
            )
            % {"handle": source.handle, "into": target.handle, "match": shared[0]},
            "played_together",
        )
    moved = source.seats.update(player=target)
    if target.user_id is None and source.user_id is not None:
        target.user_id = source.user_id
        target.save(update_fields=["user"])
    handle = source.handle
    source.delete()
    audit(
        target.club,
        actor,
        "player.merge",
        Sentence.site(
            gettext_noop("merged %(handle)s into %(into)s (%(moved)s seats)"),
            handle=repr(handle),
            into=repr(target.handle),
            moved=moved,
        ),
        player=target.pk,
    )
    publish(events.players_changed, club_id=target.club_id, merged=True)
    return target
