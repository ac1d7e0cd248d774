"""Request bodies the site cannot read, refused before any view reads them as empty."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from config.errors import AppError, error_response


class RefuseChunkedBodiesMiddleware:
    """A body sent with ``Transfer-Encoding: chunked`` has no Content-Length, and Django
    reads a request by its Content-Length: such an upload was read as empty and refused
    for what it did not say ("format must be 'lantern-log/1', not None"). It is refused
    here instead with 411 Length Required, saying to send the length (every HTTP client
    does for a file or a string; only a stream of unknown length is sent chunked)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "HTTP_TRANSFER_ENCODING" not in request.META:
            return self.get_response(request)
        message = _(
            "the request body was sent in chunks (Transfer-Encoding: chunked) without "
            "a Content-Length: send it again with its length in a Content-Length header"
        )
        if request.path.startswith("/api/"):
            return error_response(AppError(message, code="length_required"))
        return HttpResponse(message, status=411, content_type="text/plain; charset=utf-8")
