"""Schemathesis against the project's own OpenAPI schema (``/api/schema/``), in process.

Every operation of the schema gets generated requests through the WSGI app (no
server), with real ids of a seeded world some of the time (so the views do real
work instead of answering 404), in the path and in the query (``?club=``,
``?tournament=``), authenticated by API token as the club's organiser, as a plain
member, as an outsider or anonymously. Each response must not be a 5xx and must have a
status code, content type, headers and body that the schema documents for that
operation; and a request the schema calls valid must not be refused as malformed
(positive data acceptance): whatever the server checks of a request's shape, the
schema says; and a request the schema calls invalid must be refused (negative data
rejection): whatever the schema forbids, the server refuses. Every check schemathesis
has is on. What no schema can say is answered 409 (the object's state: an event
already started) or 422 (a rule: the engine's, an event's), both documented on the
operations that answer them, with the rule in the body.

Bounds (about two minutes on the 2-core machine): ``MAX_EXAMPLES`` generated
cases per operation, explicit and schema examples first; no stateful phase.
Raise them locally with ``LANTERN_SCHEMATHESIS_EXAMPLES=500``, and draw other cases than
CI's with ``LANTERN_SCHEMATHESIS_RANDOM=1``: CI's cases change whenever the schema or the
seeded ids do, so a hunt at random before a push finds what the next change would.
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
from schemathesis.checks import CHECKS as REGISTRY
from schemathesis.checks import load_all_checks
from schemathesis.core.parameters import ParameterLocation
from schemathesis.specs.openapi.checks import positive_data_acceptance

MAX_EXAMPLES = int(os.environ.get("LANTERN_SCHEMATHESIS_EXAMPLES", "25"))

# Every check schemathesis has, none left out: those of the stateful phase (use after
# free, resource availability) and of several identities (object-level authorization)
# have nothing to say about one request and pass it.
load_all_checks()
CHECKS = REGISTRY.get_all()


# Loaded when the module is collected (pytest-django has configured Django by then; the
# schema view reads no database), so each operation is its own pytest item.
schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
# A valid request may still be refused for the object's state (409) or by a rule (422):
# the schema documents both where they happen (status_code_conformance holds it to that).
schema.config.checks.positive_data_acceptance.expected_statuses = [
    "2xx",
    "3xx",
    "401",
    "403",
    "404",
    "409",
    "422",
    "429",
]


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


def _real_query(world) -> dict[str, list]:
    """For each query parameter naming an object, the seeded values worth trying."""
    return {
        "club": [world.club.slug],
        "tournament": [t.pk for t in world.tournaments],
    }


def _ids_for_route(path: str, world) -> dict[str, list]:
    """``{id}`` means a tournament under /tournaments/ and a pairing under /pairings/."""
    ids = _real_ids(world)
    if "/tournaments/" in path:
        ids["id"] = [t.pk for t in world.tournaments]
    elif "/pairings/" in path:
        ids["id"] = [p.pk for p in world.pairings]
    return ids


#: Operations whose body is a lantern-log/1 document or a file of them: whether one is
#: valid is the engine's replay, not something a JSON Schema can say, so a body valid by
#: the schema may still be refused as malformed (LOG-*, 400) or illegal (422), as
#: documented on each; and an empty file part is dropped by Django's multipart parser
#: (then "send the logs as a multipart field 'file'"). tests/games and
#: tests/security/test_ingest_fuzz.py cover them.
LOG_BODIES = {
    ("POST", "/api/clubs/{slug}/matches/"),
    ("POST", "/api/pairings/{id}/result/"),
    ("POST", "/api/clubs/{slug}/imports/"),
}


def _negative_at(case, location: ParameterLocation) -> bool:
    meta = case.meta
    return meta is not None and meta.is_negative_at(location)


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    # The same examples on every run: CI passes or fails on the code, not on the draw.
    derandomize=not os.environ.get("LANTERN_SCHEMATHESIS_RANDOM"),
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
@schema.given(data=st.data())
@pytest.mark.django_db
def test_api_conforms_to_its_schema_and_never_fails(
    case, data, public_club, tokens, wsgi_keeps_test_transaction
):
    real = _ids_for_route(case.path, public_club)
    # A value generated to break the schema (negative data) stays as generated: a real id
    # in its place would make the request valid, and the server right to accept it.
    if not _negative_at(case, ParameterLocation.PATH):
        for name in list(case.path_parameters or {}):
            if name in real and data.draw(st.booleans(), label=f"real {name}"):
                case.path_parameters[name] = data.draw(st.sampled_from(real[name]), label=name)
    if not _negative_at(case, ParameterLocation.QUERY):
        for name, values in _real_query(public_club).items():
            if case.query and name in case.query and data.draw(st.booleans(), label=f"real {name}"):
                case.query[name] = data.draw(st.sampled_from(values), label=name)
    who = data.draw(st.sampled_from(["organiser", "member", "outsider", None]), label="as")
    # identity: the WSGI transport does not undo Content-Encoding (the frames API gzips;
    # tests/replay covers that path).
    headers = {"Accept-Encoding": "identity"}
    if who:
        headers["Authorization"] = f"Token {tokens[who]}"
    checks = CHECKS
    if (case.method.upper(), case.path) in LOG_BODIES:
        checks = [check for check in CHECKS if check is not positive_data_acceptance]
    case.call_and_validate(headers=headers, checks=checks)
