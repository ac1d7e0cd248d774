"""The API's root (/api/ lists every resource, found from the URL tree) and the router an
app's ``api_urls.py`` registers its viewsets on."""

from __future__ import annotations

from functools import cache
from typing import Any

from drf_spectacular.generators import EndpointEnumerator, SchemaGenerator
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.routers import APIRootView, SimpleRouter

import config.converters  # noqa: F401 (registers the <id:...> path converter)


@cache
def api_paths() -> list[tuple[str, list[str]]]:
    """Every path of the API (as the schema writes them: ``/api/matches/{match_id}/``)
    with its methods, in order; found once, from the URLconf, as drf-spectacular does."""
    methods: dict[str, list[str]] = {}
    generator = SchemaGenerator()
    for path, _regex, method, view in EndpointEnumerator().get_api_endpoints():
        # ``{pk}`` named as the schema names it (``{id}``)
        methods.setdefault(generator.coerce_path(path, method, view), []).append(method)
    return sorted(methods.items())


class LanternAPIRoot(APIRootView):
    """Every resource of the Lantern API. A path with `{…}` needs a club's slug or an id;
    the others are links. The schema (`/api/schema/`) describes each one, Swagger UI
    (`/api/docs/`) and ReDoc (`/api/redoc/`) show it."""

    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        resources = {}
        for path, methods in api_paths():
            resources[path] = {
                "methods": methods,
                "url": None if "{" in path else request.build_absolute_uri(path),
            }
        return Response(
            {
                "schema": reverse("api-schema", request=request),
                "docs": reverse("api-docs", request=request),
                "redoc": reverse("api-redoc", request=request),
                "resources": resources,
            }
        )


class LanternRouter(SimpleRouter):
    """An app's viewsets' routes, mounted under /api/ with its other API routes. A
    SimpleRouter: the API has one root (``LanternAPIRoot``, mounted by config.urls), and
    no ".json" suffix routes: the rest of the API has none, the schema documents none, and
    the viewsets' extra actions do not take the ``format`` argument they would be passed
    (GET /api/tournaments/1/entries.json was a TypeError, a 500). Its paths use converters
    (``use_regex_path=False``), so a lookup is an ``<id:...>`` like elsewhere."""

    def __init__(self) -> None:
        super().__init__(use_regex_path=False)

    def get_lookup_regex(self, viewset: type, lookup_prefix: str = "") -> str:
        """``<id:pk>`` unless the viewset names another converter: DRF's default
        ``[^/.]+`` let /api/pairings/<30 digits>/forfeit/ reach the database, a 500."""
        lookup_field = getattr(viewset, "lookup_field", "pk")
        lookup_url_kwarg = getattr(viewset, "lookup_url_kwarg", None) or lookup_field
        converter = getattr(viewset, "lookup_value_converter", "id")
        return f"<{converter}:{lookup_prefix}{lookup_url_kwarg}>"
