"""Reads for the club management pages."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs import addresses, policy
from clubs.models import AuditEntry, Club, HandleClaim, Invite, JoinRequest, Membership, Player
from clubs.policy import AnyUser
from config import zones


def free_address(name: str) -> str:
    """The address a new club named ``name`` gets: the one its name reads as
    (clubs.addresses), numbered when another club has it, a short code when the name
    has no letters a person can type."""
    address = addresses.address_from_name(name)
    taken = set(Club.objects.filter(slug__startswith=address).values_list("slug", flat=True))
    taken |= addresses.RESERVED
    number = 1
    candidate = address
    while candidate in taken:
        number += 1
        candidate = addresses.numbered(address, number)
    return candidate


def club_by_slug(slug: str) -> Club | None:
    """The club at that address, with only what a page's time zone needs."""
    return Club.objects.filter(slug=slug).only("pk", "time_zone").first()


def show_times_of(club: Club) -> None:
    """Dates on the page being drawn are shown in the club's time zone, when it has one
    (accounts.middleware puts the reader's own back after the response)."""
    zone = zones.zone_or_none(club.time_zone)
    if zone is not None:
        zones.show_times_in(zone)


def members(club: Club) -> QuerySet[Membership]:
    return club.memberships.select_related("user").order_by("-role", "user__username")


def invite_in(next_url: str | None) -> Invite | None:
    """The invitation a sign-in or sign-up page's ``next`` leads to, if it is one (so the
    page can say so, and a new account can take it up)."""
    from urllib.parse import urlsplit

    from django.urls import Resolver404, resolve

    if not next_url:
        return None
    try:
        match = resolve(urlsplit(next_url).path)
    except Resolver404:
        return None
    if match.url_name != "invite-accept":
        return None
    return Invite.objects.select_related("club").filter(token=match.kwargs["token"]).first()


def members_with_handles(club: Club) -> list[Membership]:
    """The members, organisers first, each with ``handles``: the club's players linked
    to their account."""
    rows = list(members(club))
    handles: dict[int, list[str]] = {}
    for user_id, handle in club.players.filter(user__isnull=False).values_list("user_id", "handle"):
        handles.setdefault(user_id, []).append(handle)
    for membership in rows:
        membership.handles = sorted(handles.get(membership.user_id, []))
    return rows


def pending_claims(club: Club) -> QuerySet[HandleClaim]:
    return club.handle_claims.filter(status=HandleClaim.Status.PENDING).select_related(
        "user", "player"
    )


def claims_of(user, club: Club) -> QuerySet[HandleClaim]:
    return club.handle_claims.filter(user=user).select_related("player")


def free_handles(club: Club) -> QuerySet[Player]:
    """The club's handles no account is linked to, with ``match_count``: a person's, to
    claim or link (the recorder's bots are nobody's)."""
    return players_with_match_counts(club).filter(user__isnull=True, bot="")


def pending_join_requests(club: Club) -> QuerySet[JoinRequest]:
    return club.join_requests.filter(status=JoinRequest.Status.PENDING).select_related("user")


def open_invites(club: Club) -> QuerySet[Invite]:
    """Invites that still work: unused, not revoked, not expired."""
    return club.invites.filter(
        used_at__isnull=True, revoked_at__isnull=True, expires_at__gt=timezone.now()
    ).select_related("player", "created_by")


def players_with_match_counts(club: Club) -> QuerySet[Player]:
    return club.players.annotate(match_count=Count("seats")).order_by("handle")


def audit_trail(club: Club, limit: int = 50) -> QuerySet[AuditEntry]:
    return club.audit_entries.select_related("actor")[:limit]


#: A seat picker's value for a member the club has no handle for yet: ``member:<user id>``
#: (``clubs.services.handle_for_member`` gives them one when the game is set up).
MEMBER_PICK = "member:"


def person_name(user: AbstractBaseUser) -> str:
    """How a person is called on the site: their full name, else their user name."""
    return user.get_full_name() or user.get_username()


def free_handle(wanted: str, taken: set[str]) -> str:
    """``wanted``, or ``wanted-2``, ``wanted-3``… the first the club has no player for."""
    handle, n = wanted, 1
    while handle in taken:
        n += 1
        handle = f"{wanted}-{n}"
    return handle


def seat_picks(club: Club) -> list[tuple[str, list[tuple[str, str]]]]:
    """Who may sit in a seat, for a picker, as ``[(group, [(value, label)])]``: the
    members by name with the handle each plays as (one linked to their account, a
    claimed one too; several: each), a member with no handle yet by name (value
    ``member:<id>``: they get one, their user name, when picked), then the club's other
    handles. Values are handles otherwise. The recorder's bots are not among them: a bot
    sits in a seat as a bot (recorder.forms), never as a handle."""
    players = list(club.players.select_related("user").order_by("handle"))
    taken = {p.handle for p in players}
    players = [p for p in players if not p.bot]
    linked: dict[int, list[str]] = {}
    for player in players:
        if player.user_id is not None:
            linked.setdefault(player.user_id, []).append(player.handle)
    member_rows = sorted(members(club), key=lambda m: person_name(m.user).casefold())
    member_ids = {m.user_id for m in member_rows}
    picks: list[tuple[str, str]] = []
    for membership in member_rows:
        name = person_name(membership.user)
        for handle in linked.get(membership.user_id, []):
            picks.append((handle, handle if handle == name else f"{name} ({handle})"))
        if membership.user_id not in linked:
            handle = free_handle(membership.user.get_username(), taken)
            picks.append(
                (
                    f"{MEMBER_PICK}{membership.user_id}",
                    _("%(name)s (new handle %(handle)s)") % {"name": name, "handle": handle},
                )
            )
    others = [
        (p.handle, p.handle if p.user is None else f"{p.handle} ({person_name(p.user)})")
        for p in players
        if p.user_id not in member_ids
    ]
    return [
        (group, rows)
        for group, rows in ((_("Members"), picks), (_("Other handles"), others))
        if rows
    ]


def own_seat_pick(club: Club, user: AbstractBaseUser | AnonymousUser) -> str | None:
    """``user``'s own value in :func:`seat_picks`: the first handle linked to them, else
    ``member:<id>`` for a member with none yet; None for someone not in the club."""
    handle = (
        club.players.filter(user_id=user.pk)
        .order_by("handle")
        .values_list("handle", flat=True)
        .first()
    )
    if handle is not None:
        return handle
    return f"{MEMBER_PICK}{user.pk}" if membership_of(user, club) is not None else None


def _posted_id(value: object) -> int | None:
    """An id as a form posts it ("12"), or None for anything else (blank, text)."""
    try:
        return int(value)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return None


def player_of(club: Club, player_id: object) -> Player | None:
    """The club's player of this id (as a form posts it), or None."""
    pk = _posted_id(player_id)
    return None if pk is None else Player.objects.filter(club=club, pk=pk).first()


def player_by_handle(club: Club, handle: str) -> Player | None:
    """The club's player of this handle, or None."""
    return Player.objects.filter(club=club, handle=handle.strip()).first()


def membership_of(user: AbstractBaseUser | AnonymousUser, club: Club) -> Membership | None:
    """``user``'s membership of ``club``, or None (a visitor has none)."""
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(user=user, club=club).first()


def membership_by_user_id(club: Club, user_id: object) -> Membership | None:
    """The club's membership of the account with this id (as a form posts it), or None."""
    pk = _posted_id(user_id)
    return (
        None
        if pk is None
        else Membership.objects.filter(club=club, user_id=pk).select_related("user").first()
    )


def visible_clubs(user: AnyUser | None) -> QuerySet[Club]:
    """Public clubs, plus the private ones ``user`` is a member of (``policy.club_visibility``);
    none without a user (a serializer used outside a request)."""
    if user is None:
        return Club.objects.none()
    return Club.objects.filter(policy.club_visibility(user)).distinct()


def clubs_with_player_counts(user: AnyUser) -> QuerySet[Club]:
    """The visible clubs, each with ``player_count``."""
    return visible_clubs(user).annotate(player_count=Count("players", distinct=True))


def club_for(user: AnyUser, slug: str) -> Club | None:
    """The club with this slug if ``user`` may see it; None otherwise (a 404 either way)."""
    club = Club.objects.filter(slug=slug).first()
    if club is None or not policy.can_view_club(user, club):
        return None
    return club


def handles_of(user: AnyUser, viewer: AnyUser | None = None) -> QuerySet[Player]:
    """The player handles linked to ``user``'s account, club by club, in the clubs
    ``viewer`` (by default ``user``) may see."""
    if not user.is_authenticated:
        return Player.objects.none()
    return (
        Player.objects.filter(user=user, club__in=visible_clubs(viewer or user))
        .select_related("club")
        .order_by("club__name", "handle")
    )


def memberships_of(user: AnyUser) -> QuerySet[Membership]:
    """The clubs ``user`` belongs to, with the role held in each."""
    if not user.is_authenticated:
        return Membership.objects.none()
    return Membership.objects.filter(user=user).select_related("club").order_by("club__name")


def pending_join_request(user: AnyUser, club: Club) -> JoinRequest | None:
    """``user``'s request to join ``club`` that waits for an organiser, or None."""
    if not user.is_authenticated:
        return None
    return JoinRequest.objects.filter(
        user=user, club=club, status=JoinRequest.Status.PENDING
    ).first()


# The one object a page's URL names, with what the page shows of it (404 when there is none).


def invite_by_token(token: str) -> Invite:
    return get_object_or_404(Invite.objects.select_related("club"), token=token)


def claim_of(club: Club, claim_id: int) -> HandleClaim:
    return get_object_or_404(
        HandleClaim.objects.select_related("user", "player"), pk=claim_id, club=club
    )


def player_with_account(club: Club, player_id: int) -> Player:
    return get_object_or_404(Player.objects.select_related("user"), pk=player_id, club=club)
