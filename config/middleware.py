"""Requests refused before any view sees them."""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import SuspiciousOperation
from django.http import HttpRequest, HttpResponse


class NulCharacter(SuspiciousOperation):
    """A NUL character in the path or the query string."""


class RefuseNulCharactersMiddleware:
    """PostgreSQL text cannot hold NUL (0x00): a URL carrying one into any query
    (``/api/drafts/?club=%00``, ``?player=a%00b``, a handle in a path) made the database
    raise, a 500. Forms and serializers already refuse NUL in fields; here every URL is
    refused up front, with a 400 (the API's error shape under /api/, config.errors)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path_info or "%00" in request.META.get("QUERY_STRING", ""):
            raise NulCharacter("the URL holds a NUL character (%00)")
        return self.get_response(request)
