"""Club management pages. Each view asks clubs.policy, calls one service, redirects."""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from clubs import policy, selectors, services
from clubs.forms import ClubForm, InviteForm, JoinForm, MergeForm, RenameForm, VoidForm
from clubs.models import Club, Invite, JoinRequest, Membership, Player
from games import selectors as match_selectors
from games import services as match_services
from games.models import Match


def _club_for(request: HttpRequest, slug: str, *, manage: bool) -> Club:
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


def organiser_post(view: Callable[..., HttpResponse | None]) -> Callable[..., HttpResponse]:
    """A management form's POST: signed in, an organiser of ``slug``'s club. The view
    gets the club instead of the slug and, unless it says otherwise, returns to the
    manage page."""

    @login_required
    @require_POST
    @functools.wraps(view)
    def wrapper(request: HttpRequest, slug: str, **kwargs: object) -> HttpResponse:
        club = _club_for(request, slug, manage=True)
        return view(request, club, **kwargs) or redirect("club-manage", slug=club.slug)

    return wrapper


@login_required
def club_new(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = services.create_club(
                request.user, name=form.cleaned_data["name"], slug=form.cleaned_data["slug"],
                is_public=form.cleaned_data["is_public"],
            )
        except services.ClubError as exc:
            form.add_error("slug", exc.message)
        else:
            messages.success(request, f"{club.name} is ready. Invite your players.")
            return redirect("club-manage", slug=club.slug)
    return render(request, "clubs/new.html", {"form": form})


@login_required
def club_manage(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club_for(request, slug, manage=True)
    return render(
        request,
        "clubs/manage.html",
        {
            "club": club,
            "members": selectors.members(club),
            "join_requests": selectors.pending_join_requests(club),
            "invites": selectors.open_invites(club),
            "players": selectors.players_with_match_counts(club),
            "voided": match_selectors.voided_matches(club),
            "audit": selectors.audit_trail(club),
            "invite_form": InviteForm(),
            "new_invite": request.session.pop("new_invite_url", None),
        },
    )


@organiser_post
def invite_create(request: HttpRequest, club: Club) -> HttpResponse | None:
    form = InviteForm(request.POST)
    if form.is_valid():
        invite = services.create_invite(
            request.user, club, role=form.cleaned_data["role"], days=form.cleaned_data["days"]
        )
        request.session["new_invite_url"] = request.build_absolute_uri(
            reverse("invite-accept", args=[invite.token])
        )
        messages.success(request, "Invitation created: send the link to one person.")
    else:
        messages.error(request, "Choose a role and a validity of 1 to 90 days.")


@organiser_post
def invite_revoke(request: HttpRequest, club: Club, invite_id: int) -> HttpResponse | None:
    invite = get_object_or_404(Invite, pk=invite_id, club=club)
    services.revoke_invite(request.user, invite)
    messages.success(request, "The invitation no longer works.")


@login_required
def invite_accept(request: HttpRequest, token: str) -> HttpResponse:
    invite = get_object_or_404(Invite.objects.select_related("club"), token=token)
    if request.method == "POST":
        try:
            services.accept_invite(request.user, token)
        except services.ClubError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, f"Welcome to {invite.club.name}.")
            return redirect("club", slug=invite.club.slug)
    return render(request, "clubs/invite.html", {"invite": invite})


@login_required
@require_POST
def club_join(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club_for(request, slug, manage=False)
    form = JoinForm(request.POST)
    message = form.cleaned_data["message"] if form.is_valid() else ""
    _attempt(request, lambda: services.request_to_join(request.user, club, message),
             "Your request was sent to the club's organisers.")
    return redirect("club", slug=club.slug)


@organiser_post
def join_decide(request: HttpRequest, club: Club, request_id: int) -> HttpResponse | None:
    join_request = get_object_or_404(JoinRequest, pk=request_id, club=club)
    approve = request.POST.get("decision") == "approve"
    _attempt(request, lambda: services.decide_join_request(request.user, join_request,
                                                           approve=approve),
             "Request approved." if approve else "Request declined.")


@organiser_post
def member_role(request: HttpRequest, club: Club, membership_id: int) -> HttpResponse | None:
    membership = get_object_or_404(Membership, pk=membership_id, club=club)
    role = request.POST.get("role", "")
    _attempt(request, lambda: services.set_role(request.user, membership, role), "Role changed.")


@organiser_post
def player_rename(request: HttpRequest, club: Club, player_id: int) -> HttpResponse | None:
    player = get_object_or_404(Player, pk=player_id, club=club)
    form = RenameForm(request.POST)
    if form.is_valid():
        _attempt(request, lambda: services.rename_player(request.user, player,
                                                         form.cleaned_data["handle"]),
                 "Player renamed.")


@organiser_post
def player_merge(request: HttpRequest, club: Club, player_id: int) -> HttpResponse | None:
    player = get_object_or_404(Player, pk=player_id, club=club)
    form = MergeForm(request.POST)
    if form.is_valid():
        target = Player.objects.filter(club=club, handle=form.cleaned_data["into"].strip()).first()
        if target is None:
            messages.error(request, f"{form.cleaned_data['into']!r} is not a player of this club.")
        else:
            _attempt(request, lambda: services.merge_players(request.user, player, target),
                     f"{player.handle!r} merged into {target.handle!r}; ladders are recomputed.")


@organiser_post
def match_void(request: HttpRequest, club: Club, match_id: int) -> HttpResponse | None:
    match = get_object_or_404(Match, pk=match_id, club=club)
    form = VoidForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Say why the match is void: the reason is shown with it.")
    else:
        _attempt(request, lambda: match_services.void_match(request.user, match,
                                                            form.cleaned_data["reason"]),
                 "The match is void: kept, shown with the reason, left out of the ladder.")
    return redirect("match-detail", match_id=match.pk)
