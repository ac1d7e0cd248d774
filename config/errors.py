"""Errors, one way: the application's error type, its one body shape, and Django's error pages.

Services raise :class:`AppError` (or a subclass naming their domain: ``LogRejected``;
``ClubError``, ``TournamentError``, ``DraftError`` and ``TableError`` through
:class:`Refusal`): a stable ``code`` (``malformed``, ``too_large``, ``illegal``,
``stale``, ...), one plain sentence, and where the engine or a rule refused it, the
``rule`` id and action ``index``. They say nothing of HTTP: the API's one exception
handler (``config.api.errors``) answers them, :data:`HTTP_STATUS` is the one place a
code becomes a status (:func:`error_response` for the few JSON answers made outside
DRF), and pages show the sentence.

Below, Django's own error pages: a URL under /api/ that matches no route
(``/api/matches/abc/``) or a view that fails is answered by Django itself, not by DRF's
exception handler; API clients must still get ``{"error", "index", "rule", "message"}``
rather than an HTML page.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt

from config.middleware import NulCharacter
from config.sentences import Sentence


class AppError(Exception):
    """A request the application refuses, and why: ``code`` is a stable word for clients,
    ``message`` one plain sentence; ``rule`` and ``index`` cite the rule (and the log's
    action) that refused it; ``details`` are further keys of the error body.

    The sentence is said in the reader's language when it is read: raise with a
    ``gettext_lazy`` / ``format_lazy`` string or a :class:`~config.sentences.Sentence`
    (an engine refusal, or what a stored row keeps); ``message`` is it in the active
    language, ``english`` in English (for the logs)."""

    #: the code of this kind of error, unless the raiser names another
    code = "invalid"

    def __init__(
        self,
        message: str | Promise | Sentence,
        *,
        code: str | None = None,
        rule: str | None = None,
        index: int | None = None,
        details: dict[str, Any] | None = None,
    ):
        self.sentence = message if isinstance(message, Sentence) else None
        self._text = None if isinstance(message, Sentence) else message
        super().__init__(self.english)
        if code is not None:
            self.code = code
        self.rule = rule
        self.index = index
        self.details = details or {}

    @property
    def message(self) -> str:
        """The sentence in the active language."""
        if self.sentence is not None:
            return self.sentence.text()
        return str(self._text)

    @property
    def english(self) -> str:
        if self.sentence is not None:
            return self.sentence.english()
        with translation.override("en"):
            return str(self._text)

    def as_sentence(self) -> Sentence:
        """What to keep to say this again later, in whichever language."""
        if self.sentence is not None:
            return self.sentence
        if isinstance(self._text, Promise):
            # A lazy site string (its parameters already in it): kept in English.
            return Sentence(plain=self.english)
        return Sentence(plain=str(self._text))

    def as_dict(self) -> dict[str, Any]:
        """The error body: ``{"error", "index", "rule", "message", ...details}``."""
        return error_body(self.code, self.message, index=self.index, rule=self.rule, **self.details)

    def __str__(self) -> str:
        return self.message


class Refusal(AppError):
    """An AppError whose code may follow the sentence (``ClubError(msg, "revoked")``) and
    whose further body keys are given as keywords (``field="game"``): the one constructor
    of the refusals of a club's change (``clubs.services.ClubError``), an event's rules
    (``tournaments.services.TournamentError``), and a thing being played, a draft
    (``recorder.errors.DraftError``) or a live table (``live.services.TableError``).
    ``malformed`` unless the raiser or a subclass names another kind."""

    code = "malformed"

    def __init__(
        self,
        message: str | Promise | Sentence,
        code: str | None = None,
        *,
        rule: str | None = None,
        index: int | None = None,
        **details: Any,
    ):
        super().__init__(message, code=code, rule=rule, index=index, details=details)


class OverBudget(AppError):
    """A request past a fair-share budget (docs/fair-share.md): 429 with a Retry-After
    header of ``retry_after`` seconds; the sentence says what the limit is and when to
    try again. ``limit`` and ``retry_after`` are in the error body too, and any further
    ``details`` the budget names (a socket's ``per`` and ``window_s``)."""

    code = "over_budget"

    def __init__(
        self, message: str | Promise | Sentence, *, retry_after: int, limit: int, **details: Any
    ):
        self.retry_after = max(1, int(retry_after))
        super().__init__(
            message, details={"limit": limit, "retry_after": self.retry_after, **details}
        )


def with_retry_after(response: HttpResponse, exc: AppError) -> HttpResponse:
    """``response`` (to ``exc``) with the Retry-After header an OverBudget asks for."""
    if isinstance(exc, OverBudget):
        response["Retry-After"] = str(exc.retry_after)
    return response


#: the HTTP status of each application error code; 400 otherwise
HTTP_STATUS = {
    "malformed": 400,
    "invalid": 400,
    # Well formed, but a rule the schema cannot say refuses it: an event's (entries close
    # when it starts), an analysis's, or a view naming no seat or team of this match.
    "refused": 422,
    "unknown_view": 422,
    # an event's result that does not fit its pairing (tournaments.services)
    "seats_mismatch": 422,
    "wrong_game": 422,
    "unfinished": 422,
    # ... or that was settled already
    "settled": 409,
    "duplicate": 409,
    "forbidden": 403,
    # a live game's hidden facts before the club's delay after its end (games.policy)
    "hidden": 403,
    "not_found": 404,
    "unknown_page": 404,
    "stale": 409,
    "closed": 409,
    # a well-formed undo of a draft with no action left to undo (not possible in its state)
    "nothing_to_undo": 409,
    # a live table's move after its clock ran out, and the claims it refuses (live.endings)
    "time_out": 409,
    "too_early": 409,
    "nobody_away": 409,
    "no_claims": 409,
    "too_large": 413,
    # a body sent chunked, without a Content-Length (config.request_body)
    "length_required": 411,
    "over_budget": 429,
    "illegal": 422,
    "unknown_players": 422,
    # a stored log the current engine cannot replay (a game removed, a rule changed)
    "unreplayable": 422,
    "server_error": 500,
}


def http_status(exc: AppError) -> int:
    return HTTP_STATUS.get(exc.code, 400)


def error_response(exc: AppError) -> JsonResponse:
    """An application error as JSON outside DRF (Django's error handlers, a plain view
    read by a script): the body and status the API's exception handler gives it."""
    return with_retry_after(JsonResponse(exc.as_dict(), status=http_status(exc)), exc)


def error_body(
    code: str, message: str, *, index: int | None = None, rule: str | None = None, **extra: Any
) -> dict[str, Any]:
    """The one error body of the API, whoever answers: ``{"error", "index", "rule",
    "message", ...extra}``."""
    return {"error": code, "index": index, "rule": rule, "message": message, **extra}


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def _error(code: str, message: str) -> JsonResponse:
    return error_response(AppError(message, code=code))


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's own 400s: a body over DATA_UPLOAD_MAX_MEMORY_SIZE (413 under /api/),
    a disallowed host, a malformed request."""
    if _is_api(request):
        if isinstance(exception, RequestDataTooBig):
            return _error("too_large", _("the request body is larger than the API accepts"))
        if isinstance(exception, NulCharacter):
            return _error("malformed", str(exception))
        return _error("malformed", _("the request could not be read"))
    return defaults.bad_request(request, exception)


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return _error("not_found", _("not found"))
    return defaults.page_not_found(request, exception)


@csrf_exempt  # it changes nothing; a POST to no route is a 404 like any other, not a CSRF 403
def api_not_found(request: HttpRequest, url: str = "") -> HttpResponse:
    """The last route of all: any /api/... path no other route matched. Django's handler404
    is not used with DEBUG on (it shows its own HTML page), so without this route the
    API's 404s would be HTML in development. A GET of a path that exists with a slash
    appended is redirected there, as APPEND_SLASH does for the site's pages (a route
    matching every /api/ path would otherwise keep CommonMiddleware from doing it)."""
    path = request.path_info
    if settings.APPEND_SLASH and not path.endswith("/") and request.method in ("GET", "HEAD"):
        try:
            found = resolve(path + "/")
        except Resolver404:
            found = None
        if found is not None and found.func is not api_not_found:
            query = request.META.get("QUERY_STRING", "")
            return HttpResponsePermanentRedirect(
                request.path + "/" + (f"?{query}" if query else "")
            )
    return _error("not_found", _("not found"))


def server_error(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        return _error("server_error", _("the server failed on this request; it has been logged"))
    return defaults.server_error(request)
