"""Club management pages. Each view asks clubs.policy, calls one service, redirects."""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs import policy, selectors, services
from clubs.forms import ClubForm, InviteForm, JoinForm, MergeForm, RenameForm, TimeZoneForm
from clubs.models import Club, Invite, JoinRequest, Membership, Player
from config import zones


def club_for(request: HttpRequest, slug: str, *, manage: bool) -> Club:
    club = get_object_or_404(Club, slug=slug)
    if not policy.can_view_club(request.user, club):
        raise Http404("No such club.")  # a private club does not exist to outsiders
    if manage and not policy.can_manage_club(request.user, club):
        raise PermissionDenied("Only the club's organisers manage it.")
    return club


def _attempt(request: HttpRequest, change: Callable[[], object], done: str) -> None:
    try:
        change()
    except services.ClubError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, done)


def confirm_first(
    request: HttpRequest,
    *,
    title: str,
    question: str,
    button: str,
    back: str,
    detail: str = "",
    reason: str | None = None,
) -> HttpResponse | None:
    """The confirmation page of a destructive action, unless this POST confirms it.

    The page posts the same fields again with ``confirmed=yes``; ``reason`` (a label)
    asks for a reason on the page itself. None: confirmed, go ahead."""
    if request.method == "POST" and request.POST.get("confirmed") == "yes":
        return None
    fields = [
        (k, v)
        for k, v in request.POST.items()
        if k not in ("csrfmiddlewaretoken", "confirmed", "reason")
    ]
    return render(
        request,
        "clubs/confirm.html",
        {
            "title": title,
            "question": question,
            "detail": detail,
            "button": button,
            "back": back,
            "fields": fields,
            "reason_label": reason,
            "reason": request.POST.get("reason", ""),
        },
    )


def organiser_post(view: Callable[..., HttpResponse | None]) -> Callable[..., HttpResponse]:
    """A management form's POST: signed in, an organiser of ``slug``'s club. The view
    gets the club instead of the slug and, unless it says otherwise, returns to the
    manage page."""

    @login_required
    @require_POST
    @functools.wraps(view)
    def wrapper(request: HttpRequest, slug: str, **kwargs: object) -> HttpResponse:
        club = club_for(request, slug, manage=True)
        return view(request, club, **kwargs) or redirect("club-manage", slug=club.slug)

    return wrapper


def _address_preview(name: str, typed: str) -> str:
    """The address the new club form shows: the one typed, else the one the name reads as."""
    if typed:
        return typed.strip().lower()
    return selectors.free_address(name) if name.strip() else ""


@login_required
def club_new(request: HttpRequest) -> HttpResponse:
    form = ClubForm(
        request.POST or None, browser_zone=request.COOKIES.get(zones.BROWSER_COOKIE, "")
    )
    if request.method == "POST" and form.is_valid():
        try:
            club = services.create_club(
                request.user,
                name=form.cleaned_data["name"],
                slug=form.cleaned_data["slug"],
                is_public=form.cleaned_data["is_public"],
                time_zone=form.cleaned_data["time_zone"],
            )
        except services.ClubError as exc:
            form.add_error("slug", exc.message)
        else:
            messages.success(
                request, _("%(club)s is ready. Invite your players.") % {"club": club.name}
            )
            return redirect("club-manage", slug=club.slug)
    return render(
        request,
        "clubs/new.html",
        {
            "form": form,
            "address_prefix": request.build_absolute_uri(reverse("club-directory")),
            "address": _address_preview(request.POST.get("name", ""), request.POST.get("slug", "")),
        },
    )


@login_required
def club_address(request: HttpRequest) -> JsonResponse:
    """The new club form's live preview: the address a club of this name would get."""
    name = request.GET.get("name", "")[:120]
    return JsonResponse({"address": _address_preview(name, request.GET.get("slug", "")[:64])})


def free_handle_choices(club: Club) -> list[tuple[str, str]]:
    return [(str(p.pk), p.handle) for p in selectors.free_handles(club)]


@organiser_post
def auto_analysis(request: HttpRequest, club: Club) -> HttpResponse | None:
    on = request.POST.get("auto_analysis") == "on"
    services.set_auto_analysis(request.user, club, on)
    messages.success(
        request,
        _("Every finished match stored from now on is analysed.")
        if on
        else _("Matches are analysed only when a member asks."),
    )


@organiser_post
def guests_setting(request: HttpRequest, club: Club) -> HttpResponse | None:
    on = request.POST.get("members_confirm_guests") == "on"
    services.set_members_confirm_guests(request.user, club, on)
    messages.success(
        request,
        _("Members may now confirm new handles as guests when they upload.")
        if on
        else _("Only organisers confirm new handles as guests."),
    )


@organiser_post
def live_tables_setting(request: HttpRequest, club: Club) -> HttpResponse | None:
    raw = request.POST.get("watchers_see_all_after", "").strip()
    if not raw.isdigit():
        messages.error(request, _("Give the delay as a whole number of minutes (0: at once)."))
        return None
    _attempt(
        request,
        lambda: services.set_live_tables(
            request.user,
            club,
            guests_at_tables=request.POST.get("guests_at_tables") == "on",
            watchers_see_all_after=int(raw),
        ),
        _("The online tables' settings are saved."),
    )
    return None


@organiser_post
def time_zone(request: HttpRequest, club: Club) -> HttpResponse | None:
    form = TimeZoneForm(request.POST, current=club.time_zone)
    if not form.is_valid():
        messages.error(request, _("Choose a time zone from the list."))
        return None
    _attempt(
        request,
        lambda: services.set_time_zone(request.user, club, form.cleaned_data["time_zone"]),
        _("The club's pages and events now show times in this zone."),
    )
    return None


@organiser_post
def invite_create(request: HttpRequest, club: Club) -> HttpResponse | None:
    form = InviteForm(request.POST, handles=free_handle_choices(club))
    if form.is_valid():
        player = selectors.player_of(club, form.cleaned_data["player"])
        try:
            invite = services.create_invite(
                request.user,
                club,
                role=form.cleaned_data["role"],
                days=form.cleaned_data["days"],
                player=player,
            )
        except services.ClubError as exc:
            messages.error(request, exc.message)
            return None
        request.session["new_invite_url"] = request.build_absolute_uri(
            reverse("invite-accept", args=[invite.token])
        )
        messages.success(request, _("Invitation created: send the link to one person."))
    else:
        messages.error(request, _("Choose a role and a validity of 1 to 90 days."))


@organiser_post
def invite_revoke(request: HttpRequest, club: Club, invite_id: int) -> HttpResponse | None:
    invite = get_object_or_404(Invite, pk=invite_id, club=club)
    asked = confirm_first(
        request,
        title=_("Withdraw the invitation"),
        button=_("Withdraw it"),
        question=(
            _("Withdraw this organiser invitation?")
            if invite.role == Membership.Role.ORGANISER
            else _("Withdraw this member invitation?")
        ),
        detail=_("Whoever has the link can no longer join with it."),
        back=reverse("club-manage", args=[club.slug]),
    )
    if asked:
        return asked
    services.revoke_invite(request.user, invite)
    messages.success(request, _("The invitation no longer works."))


def invite_accept(request: HttpRequest, token: str) -> HttpResponse:
    """The invitation: to a visitor, the way in through sign-up or sign-in (the link
    goes along as ``next``); to someone signed in, a button that joins."""
    invite = selectors.invite_by_token(token)
    if request.method == "POST" and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if request.method == "POST":
        try:
            services.accept_invite(request.user, token)
        except services.ClubError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Welcome to %(club)s.") % {"club": invite.club.name})
            return redirect("club", slug=invite.club.slug)
    return render(
        request,
        "clubs/invite.html",
        {
            "invite": invite,
            "problem": services.invite_problem(invite),
            "member": request.user.is_authenticated
            and selectors.membership_of(request.user, invite.club) is not None,
        },
    )


@login_required
@require_POST
def club_join(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_for(request, slug, manage=False)
    form = JoinForm(request.POST)
    message = form.cleaned_data["message"] if form.is_valid() else ""
    _attempt(
        request,
        lambda: services.request_to_join(request.user, club, message),
        _("Your request was sent to the club's organisers."),
    )
    return redirect("club", slug=club.slug)


def _answer(
    request: HttpRequest,
    club: Club,
    *,
    decide: Callable[[bool], object],
    title: str,
    question: str,
    approved: str,
    declined: str,
    detail: str = "",
) -> HttpResponse | None:
    """An organiser's answer to what a member asked (a request to join, a handle claim):
    approved at once, declined once confirmed."""
    approve = request.POST.get("decision") == "approve"
    if not approve and (
        asked := confirm_first(
            request,
            title=title,
            button=_("Decline"),
            question=question,
            detail=detail,
            back=reverse("club-manage", args=[club.slug]),
        )
    ):
        return asked
    _attempt(request, lambda: decide(approve), approved if approve else declined)
    return None


@organiser_post
def join_decide(request: HttpRequest, club: Club, request_id: int) -> HttpResponse | None:
    join_request = get_object_or_404(JoinRequest, pk=request_id, club=club)
    return _answer(
        request,
        club,
        title=_("Decline the request"),
        question=_("Decline %(user)s's request to join?")
        % {"user": join_request.user.get_username()},
        detail=_("They can ask again later."),
        approved=_("Request approved."),
        declined=_("Request declined."),
        decide=lambda approve: services.decide_join_request(
            request.user, join_request, approve=approve
        ),
    )


@organiser_post
def member_role(request: HttpRequest, club: Club, membership_id: int) -> HttpResponse | None:
    membership = get_object_or_404(Membership, pk=membership_id, club=club)
    role = request.POST.get("role", "")
    if role == Membership.Role.MEMBER and membership.role == Membership.Role.ORGANISER:
        asked = confirm_first(
            request,
            title=_("Remove an organiser"),
            button=_("Make them a member"),
            question=_("Make %(user)s a member rather than an organiser?")
            % {"user": membership.user.get_username()},
            detail=_("They will no longer manage the club or its events."),
            back=reverse("club-members", args=[club.slug]),
        )
        if asked:
            return asked
    _attempt(request, lambda: services.set_role(request.user, membership, role), _("Role changed."))
    return _back(request, club)


@organiser_post
def player_rename(request: HttpRequest, club: Club, player_id: int) -> HttpResponse | None:
    player = get_object_or_404(Player, pk=player_id, club=club)
    form = RenameForm(request.POST)
    if form.is_valid():
        _attempt(
            request,
            lambda: services.rename_player(request.user, player, form.cleaned_data["handle"]),
            _("Player renamed."),
        )


@login_required
def handle_claim(request: HttpRequest, slug: str) -> HttpResponse:
    """A member says which of the club's handles is them; an organiser confirms."""
    club = club_for(request, slug, manage=False)
    if not policy.can_claim_handle(request.user, club):
        raise PermissionDenied("Only the club's members claim its handles.")
    if request.method == "POST":
        player = selectors.player_of(club, request.POST.get("player"))
        if player is None:
            messages.error(request, _("Choose one of the club's handles."))
        else:
            _attempt(
                request,
                lambda: services.claim_handle(request.user, player),
                _("Your claim of '%(handle)s' was sent to the organisers.")
                % {"handle": player.handle},
            )
        return redirect("handle-claim", slug=club.slug)
    return render(
        request,
        "clubs/claim.html",
        {
            "club": club,
            "handles": selectors.free_handles(club),
            "mine": club.players.filter(user=request.user),
            "claims": selectors.claims_of(request.user, club),
        },
    )


@organiser_post
def claim_decide(request: HttpRequest, club: Club, claim_id: int) -> HttpResponse | None:
    claim = selectors.claim_of(club, claim_id)
    return _answer(
        request,
        club,
        title=_("Decline a claim"),
        question=_("Decline %(user)s's claim of '%(handle)s'?")
        % {"user": claim.user.get_username(), "handle": claim.player.handle},
        approved=_("'%(handle)s' is %(user)s's.")
        % {"handle": claim.player.handle, "user": claim.user.get_username()},
        declined=_("Claim declined."),
        decide=lambda approve: services.decide_claim(request.user, claim, approve=approve),
    )


@organiser_post
def player_link(request: HttpRequest, club: Club, player_id: int) -> HttpResponse | None:
    """Link a handle to a member's account, or unlink it (confirmed first)."""
    player = selectors.player_with_account(club, player_id)
    member = None
    if request.POST.get("user"):
        membership = selectors.membership_by_user_id(club, request.POST["user"])
        if membership is None:
            messages.error(request, _("Choose a member of the club."))
            return None
        member = membership.user
    elif player.user is not None:
        asked = confirm_first(
            request,
            title=_("Unlink a handle"),
            button=_("Unlink it"),
            question=_("Unlink '%(handle)s' from %(user)s?")
            % {"handle": player.handle, "user": player.user.get_username()},
            detail=_("Their games under this handle no longer show as theirs."),
            back=reverse("club-manage", args=[club.slug]),
        )
        if asked:
            return asked
    _attempt(
        request,
        lambda: services.link_player(request.user, player, member),
        _("'%(handle)s' is %(user)s's.") % {"handle": player.handle, "user": member.get_username()}
        if member
        else _("'%(handle)s' is linked to no account.") % {"handle": player.handle},
    )


@organiser_post
def player_merge(request: HttpRequest, club: Club, player_id: int) -> HttpResponse | None:
    player = get_object_or_404(Player, pk=player_id, club=club)
    form = MergeForm(request.POST)
    if form.is_valid():
        target = selectors.player_by_handle(club, form.cleaned_data["into"])
        if target is None:
            messages.error(
                request,
                _("'%(handle)s' is not a player of this club.")
                % {"handle": form.cleaned_data["into"]},
            )
        elif target.pk != player.pk and (
            asked := confirm_first(
                request,
                title=_("Merge two handles"),
                button=_("Merge them"),
                question=_("Merge '%(handle)s' into '%(into)s'?")
                % {"handle": player.handle, "into": target.handle},
                detail=_(
                    "Every game of '%(handle)s' becomes '%(into)s''s, '%(handle)s' disappears "
                    "and the ladders are recomputed. It cannot be undone."
                )
                % {"handle": player.handle, "into": target.handle},
                back=reverse("club-manage", args=[club.slug]),
            )
        ):
            return asked
        else:
            _attempt(
                request,
                lambda: services.merge_players(request.user, player, target),
                _("'%(handle)s' merged into '%(into)s'; ladders are recomputed.")
                % {"handle": player.handle, "into": target.handle},
            )


def _back(request: HttpRequest, club: Club) -> HttpResponse:
    """Back to the page the form was on (the members page or the manage page)."""
    if request.POST.get("back") == "members":
        return redirect("club-members", slug=club.slug)
    return redirect("club-manage", slug=club.slug)


@login_required
def club_members(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_for(request, slug, manage=False)
    if not policy.can_see_members(request.user, club):
        raise PermissionDenied("Only the club's members see who is in it.")
    return render(
        request,
        "clubs/members.html",
        {
            "club": club,
            "members": selectors.members_with_handles(club),
            "can_manage": policy.can_manage_club(request.user, club),
        },
    )


@login_required
def club_leave(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_for(request, slug, manage=False)
    membership = selectors.membership_of(request.user, club)
    if membership is None:
        messages.info(request, _("You are not a member of %(club)s.") % {"club": club.name})
        return redirect("club", slug=club.slug)
    asked = confirm_first(
        request,
        title=_("Leave %(club)s") % {"club": club.name},
        button=_("Leave the club"),
        question=_("Leave %(club)s?") % {"club": club.name},
        detail=_(
            "Your games stay in the club's records. To come back you need a new "
            "invitation or an organiser's approval."
        ),
        back=reverse("club", args=[club.slug]),
    )
    if asked:
        return asked
    try:
        services.leave_club(request.user, membership)
    except services.ClubError as exc:
        messages.error(request, exc.message)
        return redirect("club", slug=club.slug)
    messages.success(request, _("You left %(club)s.") % {"club": club.name})
    return redirect("index") if not club.is_public else redirect("club", slug=club.slug)
