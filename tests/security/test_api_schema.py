"""Schemathesis against the project's own OpenAPI schema (``/api/schema/``), in process.

Every operation of the schema gets generated requests through the WSGI app (no
server), with real ids of a seeded world some of the time (so the views do real
work instead of answering 404), authenticated by API token as the club's
organiser, as a plain member, as an outsider or anonymously. Each response must
not be a 5xx, must have a status code, content type, headers and body that the
schema documents for that operation.

Bounds (kept to about a minute on the 2-core machine): ``MAX_EXAMPLES`` generated
cases per operation, explicit and schema examples first; no stateful phase.
Raise them locally with ``LANTERN_SCHEMATHESIS_EXAMPLES=500``.
"""

from __future__ import annotations

import os

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

MAX_EXAMPLES = int(os.environ.get("LANTERN_SCHEMATHESIS_EXAMPLES", "25"))

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


# Loaded when the module is collected (pytest-django has configured Django by then; the
# schema view reads no database), so each operation is its own pytest item.
schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())


@pytest.fixture
def wsgi_keeps_test_transaction():
    """schemathesis calls the WSGI app itself, whose request signals would close the
    database connection, and with it the test's transaction (PostgreSQL: "the connection
    is closed"). Django's test Client unhooks them around each request; so does this."""
    hooks = (signals.request_started, signals.request_finished)
    for hook in hooks:
        hook.disconnect(close_old_connections)
    yield
    for hook in hooks:
        hook.connect(close_old_connections)


def _real_ids(world) -> dict[str, list]:
    """For each path parameter name, the seeded values worth trying."""
    return {
        "slug": [world.club.slug],
        "match_id": [m.pk for m in world.matches],
        "upload_id": [u.pk for u in world.uploads],
        "import_id": [r.pk for r in world.imports],
        "ladder_id": [ladder.pk for ladder in world.ladders],
        "player_id": [p.pk for p in world.players],
        "kind": ["zip", "jsonl"],
    }


def _ids_for_route(path: str, world) -> dict[str, list]:
    """``{id}`` means a tournament under /tournaments/ and a pairing under /pairings/."""
    ids = _real_ids(world)
    if "/tournaments/" in path:
        ids["id"] = [t.pk for t in world.tournaments]
    elif "/pairings/" in path:
        ids["id"] = [p.pk for p in world.pairings]
    return ids


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
@schema.given(data=st.data())
@pytest.mark.django_db
def test_api_conforms_to_its_schema_and_never_fails(case, data, public_club, tokens,
                                                    wsgi_keeps_test_transaction):
    real = _ids_for_route(case.path, public_club)
    for name in list(case.path_parameters or {}):
        if name in real and data.draw(st.booleans(), label=f"real {name}"):
            case.path_parameters[name] = data.draw(st.sampled_from(real[name]), label=name)
    who = data.draw(st.sampled_from(["organiser", "member", "outsider", None]), label="as")
    # identity: the WSGI transport does not undo Content-Encoding (the frames API gzips;
    # tests/replay covers that path).
    headers = {"Accept-Encoding": "identity"}
    if who:
        headers["Authorization"] = f"Token {tokens[who]}"
    case.call_and_validate(headers=headers, checks=CHECKS)
