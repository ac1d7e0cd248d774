"""Every URL pattern of the site, found by walking the URLconf, and its parameters filled
from a seeded club: so that a walk covers a URL the day it is added.

A parameter this module does not know fails the walk with a message saying what to
add, except ``<model>_id`` parameters, whose values are looked up generically: the
rows of the model named ``<model>`` that belong to the club (through a ``club``,
``match``, ``tournament``, ``ladder`` or ``player`` relation).
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass

from django.apps import apps
from django.core.exceptions import FieldError
from django.http import HttpResponseBase
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.urls.converters import IntConverter

from config.converters import IdConverter
from tests.security.conftest import SeededClub

#: an id no seeded row has
MISSING_ID = 987_654
MISSING_SLUG = "no-such-club"
MISSING_HANDLE = "nobody-here"


@dataclass(frozen=True)
class Route:
    name: str  # for reverse(), namespaced
    pattern: str  # as written in the URLconf, for messages
    params: tuple[str, ...]
    #: the parameters that are integers (``<int:...>`` or ``<id:...>``)
    integer_params: tuple[str, ...] = ()

    @property
    def is_api(self) -> bool:
        return self.pattern.startswith("api/")

    @property
    def is_admin(self) -> bool:
        return self.name.startswith("admin:")


def routes() -> list[Route]:
    """Every URL pattern, including those of included URLconfs (admin, DRF's router)."""
    return list(_walk(get_resolver(), "", None, ()))


def _walk(
    resolver: URLResolver,
    prefix: str,
    namespace: str | None,
    params: tuple[str, ...],
    integer_params: tuple[str, ...] = (),
) -> Iterator[Route]:
    for entry in resolver.url_patterns:
        names = tuple(entry.pattern.regex.groupindex)
        integers = integer_params + tuple(
            name
            for name, converter in getattr(entry.pattern, "converters", {}).items()
            if isinstance(converter, IntConverter | IdConverter)
        )
        if isinstance(entry, URLResolver):
            inner = namespace
            if entry.namespace:
                inner = f"{namespace}:{entry.namespace}" if namespace else entry.namespace
            yield from _walk(entry, prefix + str(entry.pattern), inner, params + names, integers)
        elif isinstance(entry, URLPattern):
            name = f"{namespace}:{entry.name}" if namespace and entry.name else entry.name
            yield Route(name or "", prefix + str(entry.pattern), params + names, integers)


def _object_for(route: Route, param: str) -> str:
    """What ``pk``/``id``/``object_id`` names in this route."""
    if route.is_admin or route.pattern.startswith("admin/"):
        return "admin"
    if "pairing" in route.name:
        return "pairing"
    if "tournament" in route.name:
        return "tournament"
    raise LookupError(f"{route.pattern}: which object does <{param}> name? Teach urlwalk.")


#: ``<x>_id`` parameters whose model is not named ``x``
MODEL_OF = {"job_id": "ladder.RecomputeJob", "claim_id": "clubs.HandleClaim"}


def _generic_ids(param: str, world: SeededClub) -> list[int]:
    """Ids of the rows of the model ``param`` names (``draft_id`` -> Draft) in the club."""
    if param in MODEL_OF:
        models = [apps.get_model(MODEL_OF[param])]
    else:
        model_name = param.removesuffix("_id").replace("_", "")
        models = [m for m in apps.get_models() if m._meta.model_name == model_name]
    if not models:
        raise LookupError(f"<{param}>: no model named like it; add it to urlwalk.MODEL_OF")
    model = models[0]
    for path in ("club", "match__club", "tournament__club", "ladder__club", "player__club"):
        try:
            return list(model.objects.filter(**{path: world.club}).values_list("pk", flat=True))
        except FieldError:
            continue
    raise LookupError(f"<{param}>: {model.__name__} has no relation to a club; teach urlwalk")


def fill(route: Route, world: SeededClub | None, *, integers: str | None = None) -> str:
    """The route's URL pointing at ``world``'s objects, or (None) at objects that do not exist.

    ``integers``, if given, is written as every integer parameter, as is, even where no
    URL could be reversed with it (a number too long for any id)."""
    kwargs = {param: _value(route, param, world) for param in route.params}
    if integers is not None:
        kwargs.update(dict.fromkeys(route.integer_params, integers))
    if route.name and integers is None:
        return reverse(route.name, kwargs=kwargs)
    # Unnamed (admin's redirects and catch-all), or values no converter would reverse:
    # put the values into the pattern itself.
    url = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: kwargs[m.group(1)], route.pattern)
    url = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: kwargs[m.group(1)], url)
    return "/" + url.replace("^", "").replace("$", "")


def _value(route: Route, param: str, world: SeededClub | None) -> str:
    fixed = {
        # Not about any club: the same value in every walk.
        "format": "json",
        "kind": "zip",
        "app_label": "games",
        "url": "nothing-here",
        "uidb64": "MQ",
        # Invite links are capabilities: whoever holds one is invited and may see the
        # club's name. Walking them with a real token would be a false alarm.
        "token": "no-such-invite-token",
        # The rules reference: public documents, no club's.
        "document": "log-format",
    }
    if param in fixed:
        return fixed[param]
    if param == "game":
        return world.ladders[0].game if world else "cryptid-urban-legends"
    if param == "round_number":
        return "1"
    if world is None:
        if param in ("slug", "club_slug"):
            return MISSING_SLUG
        if param in ("handle", "a", "b", "username"):
            return MISSING_HANDLE
        return str(MISSING_ID)
    if param in ("slug", "club_slug"):
        return world.club.slug
    if param in ("handle", "a"):
        return world.handles[0]
    if param == "username":  # a person page: a member of the club (the last membership)
        return world.memberships[-1].user.get_username()
    if param == "b":
        return world.handles[1]
    by_name = {
        "match_id": world.matches,
        "upload_id": world.uploads,
        "import_id": world.imports,
        "ladder_id": world.ladders,
        "player_id": world.players,
        "pairing_id": world.pairings,
        "invite_id": world.invites,
        "request_id": world.join_requests,
        "membership_id": world.memberships,
    }
    if param in by_name:
        return str(by_name[param][0].pk)
    if param in ("pk", "id", "object_id", "content_type_id"):
        kind = _object_for(route, param)
        if kind == "admin":
            return str(world.club.pk)
        return str((world.tournaments if kind == "tournament" else world.pairings)[0].pk)
    ids = _generic_ids(param, world)
    return str(ids[0]) if ids else str(MISSING_ID)


def response_text(response: HttpResponseBase) -> str:
    """Everything a response tells: headers (but Location, which echoes the URL asked
    for) and body, a zip's members unpacked."""
    if getattr(response, "streaming", False):
        body = b"".join(response.streaming_content)
    else:
        body = response.content
    if response.get("Content-Type", "").startswith("application/zip") and body:
        with zipfile.ZipFile(io.BytesIO(body)) as archive:
            body = b"\n".join(
                info.filename.encode() + b"\n" + archive.read(info) for info in archive.infolist()
            )
    headers = "\n".join(f"{k}: {v}" for k, v in response.items() if k.lower() != "location")
    return headers + "\n" + body.decode("utf-8", errors="replace")
