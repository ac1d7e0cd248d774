"""Server-rendered pages. Thin: clubs.policy decides, selectors read, services write."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from clubs import policy
from clubs import selectors as club_selectors
from clubs.models import Club
from config.query import form_data
from games import selectors, services
from games.forms import ImportForm, MatchFilterForm, UploadForm
from games.models import Import, Upload
from games.throttling import UploadThrottle


def _club_or_404(request: HttpRequest, slug: str) -> Club:
    club = club_selectors.club_for(request.user, slug)
    if club is None:
        raise Http404("no such club")
    return club


def _paginate(request: HttpRequest, items, per_page: int = 50):
    return Paginator(items, per_page).get_page(request.GET.get("page"))


def match_list(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club_or_404(request, slug)
    form = MatchFilterForm(form_data(request.GET), games=selectors.club_games(club))
    matches = selectors.club_matches_played(club, form.filters())
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "games/match_list.html",
        {
            "club": club,
            "form": form,
            "page": _paginate(request, matches),
            "query": query.urlencode(),
        },
    )


def _signed_in_member(request: HttpRequest, club: Club, allowed: bool) -> HttpResponse | None:
    """A redirect to sign in, a 403, or None when ``allowed``."""
    if allowed:
        return None
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raise PermissionDenied("only members of this club may do this")


def _too_many(wait: float | None) -> str:
    seconds = round(wait or 0)
    return ngettext(
        "Too many uploads: try again in %(count)s second.",
        "Too many uploads: try again in %(count)s seconds.",
        seconds,
    ) % {"count": seconds}


def upload_form(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club_or_404(request, slug)
    refused = _signed_in_member(
        request, club, request.user.is_authenticated and policy.can_upload(request.user, club)
    )
    if refused:
        return refused
    form = UploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and not (throttle := UploadThrottle()).allow_request(request, None):
        form.add_error(None, _too_many(throttle.wait()))
        return render(request, "games/upload.html", {"club": club, "form": form}, status=429)
    if request.method == "POST" and form.is_valid():
        try:
            document, name = _uploaded_document(club, form, request.user)
            match = services.ingest_log(
                club, document, request.user, source=Upload.Source.FORM, name=name
            )
        except services.LogRejected as exc:
            return redirect("upload-detail", exc.upload.pk)
        if match.created:
            messages.success(request, _("Stored as match %(number)s.") % {"number": match.pk})
        else:
            messages.info(
                request,
                _("This log was already stored as match %(number)s; nothing was added.")
                % {"number": match.pk},
            )
        return redirect("match-detail", match.pk)
    return render(request, "games/upload.html", {"club": club, "form": form})


def _uploaded_document(club: Club, form: UploadForm, user: Any) -> tuple[bytes | str, str]:
    """The log from the form (pasted, or a file read once its size is accepted) and its name."""
    upload = form.cleaned_data.get("file")
    if upload is None:
        return form.cleaned_data["log"], ""
    return services.read_log_file(club, upload, user, source=Upload.Source.FORM)


def upload_detail(request: HttpRequest, upload_id: int) -> HttpResponse:
    upload = selectors.upload_for(request.user, upload_id)
    if upload is None:
        raise Http404("no such upload")
    services.note_upload_read(request.user, upload)
    try:
        ply = int(request.GET["ply"]) if "ply" in request.GET else None
    except ValueError:
        ply = None
    # A log refused only for its unknown handles broke no rule: no walk to the first bad move.
    walkthrough = (
        selectors.rejected_walkthrough(upload, ply)
        if upload.status == Upload.Status.REJECTED and upload.error != Upload.Error.UNKNOWN_PLAYERS
        else None
    )
    return render(
        request,
        "games/upload_detail.html",
        {
            "upload": upload,
            "walk": walkthrough,
            "guests_step": _guests_step(request, upload),
        },
    )


def _guests_step(request: HttpRequest, upload: Upload) -> list[str]:
    """The handles of a log refused for them that this reader may confirm as guests
    here, the log being kept: the upload's next step; [] when there is none."""
    if (
        upload.status != Upload.Status.REJECTED
        or upload.error != Upload.Error.UNKNOWN_PLAYERS
        or not upload.document_text
        or not request.user.is_authenticated
        or not policy.can_confirm_guests(request.user, upload.club)
    ):
        return []
    return [str(handle) for handle in (upload.error_details or {}).get("handles", [])]


@require_POST
def confirm_guests(request: HttpRequest, upload_id: int) -> HttpResponse:
    """The rejected log stored again, the handles ticked confirmed as guests."""
    upload = selectors.upload_for(request.user, upload_id)
    if upload is None:
        raise Http404("no such upload")
    offered = _guests_step(request, upload)
    if not offered:
        raise PermissionDenied("nothing here to confirm")
    guests = [handle for handle in request.POST.getlist("guest") if handle in offered]
    if set(guests) != set(offered):  # every seat needs its player: the log waits for all
        messages.error(request, _("The log is stored once every new handle is confirmed."))
        return redirect("upload-detail", upload.pk)
    try:
        match = services.ingest_log(
            upload.club,
            upload.document_text,
            request.user,
            source=Upload.Source.FORM,
            name=upload.name,
            guests=guests,
        )
    except services.LogRejected as exc:
        return redirect("upload-detail", exc.upload.pk)
    messages.success(request, _("Stored as match %(number)s.") % {"number": match.pk})
    return redirect("match-detail", match.pk)


def club_uploads(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club_or_404(request, slug)
    refused = _signed_in_member(request, club, request.user.is_authenticated)
    if refused:
        return refused
    status = request.GET.get("status") or None
    if status not in (None, *Upload.Status.values):
        status = None
    uploads = selectors.club_uploads(club, request.user, status)
    return render(
        request,
        "games/uploads.html",
        {
            "club": club,
            "page": _paginate(request, uploads),
            "status": status or "",
            "statuses": Upload.Status.choices,
            "all_of_club": policy.can_import(request.user, club),
        },
    )


def import_form(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club_or_404(request, slug)
    refused = _signed_in_member(
        request, club, request.user.is_authenticated and policy.can_import(request.user, club)
    )
    if refused:
        return refused
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and not (throttle := UploadThrottle()).allow_request(request, None):
        # One budget with the API and the upload form (settings.LANTERN_UPLOAD_RATE).
        form.add_error(None, _too_many(throttle.wait()))
        return render(
            request,
            "games/import_form.html",
            {
                "club": club,
                "form": form,
                "imports": selectors.club_imports(club)[:20],
            },
            status=429,
        )
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            run = services.create_import(club, upload.read(), upload.name, request.user)
        except services.ImportRefused as exc:
            form.add_error("file", exc.message)
        else:
            return redirect("import-detail", run.pk)
    return render(
        request,
        "games/import_form.html",
        {
            "club": club,
            "form": form,
            "imports": selectors.club_imports(club)[:20],
        },
    )


def import_detail(request: HttpRequest, import_id: int) -> HttpResponse:
    run = selectors.import_for(request.user, import_id)
    if run is None:
        raise Http404("no such import")
    return render(
        request,
        "games/import_detail.html",
        {
            "run": run,
            "running": run.status in (Import.Status.QUEUED, Import.Status.RUNNING),
            "rejections": _paginate(request, selectors.import_rejections(run), 100),
        },
    )
