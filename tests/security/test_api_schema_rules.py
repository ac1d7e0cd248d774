"""What the server checks of a request's shape, said by the schema too (issue #34):
found by schemathesis' conformance and positive-data checks (test_api_schema.py), each
pinned here on its own."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tournaments.models import Entry

pytestmark = pytest.mark.django_db


def openapi() -> dict:
    return Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()


def api_as(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_the_drafts_list_is_documented_as_the_page_it_answers(people, public_club):
    documented = openapi()["paths"]["/api/drafts/"]["get"]["responses"]["200"]
    ref = documented["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    page = openapi()["components"]["schemas"][ref]
    assert set(page["properties"]) == {"next", "previous", "results"}
    answer = api_as(people["organiser"]).get("/api/drafts/", {"club": "riverside"}).json()
    assert set(answer) == {"next", "previous", "results"} and answer["results"]


@pytest.mark.parametrize("limit", ["0", "-3", "true", "1.5"])
def test_a_page_size_that_is_not_a_whole_number_from_1_is_refused_naming_limit(
    people, public_club, limit
):
    response = api_as(people["organiser"]).get(
        "/api/drafts/", {"club": "riverside", "limit": limit}
    )
    assert response.status_code == 400 and "limit" in response.json()["message"]
    response = Client().get("/api/clubs/riverside/matches/", {"limit": limit})
    assert response.status_code == 400 and "limit" in response.json()["message"]


def test_a_page_size_past_the_most_gives_the_most(public_club):
    response = Client().get("/api/clubs/riverside/matches/", {"limit": "100000"})
    stored = public_club.club.matches.count()
    assert response.status_code == 200 and len(response.json()["results"]) == stored > 1
    spec = openapi()["paths"]["/api/clubs/{slug}/matches/"]["get"]["parameters"]
    (limit,) = [p for p in spec if p["name"] == "limit"]
    assert limit["schema"] == {"type": "integer", "minimum": 1}


def test_every_free_text_of_the_schema_says_it_holds_no_nul():
    spec = openapi()
    for path, operations in spec["paths"].items():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                schema = parameter.get("schema", {})
                if schema.get("type") == "string" and not schema.keys() & {"enum", "format"}:
                    assert not re.search(schema["pattern"], "a\x00b"), (path, parameter["name"])


def test_a_rule_of_the_event_is_a_documented_422(people, public_club):
    event = public_club.tournaments[0]  # running: entries are closed
    response = api_as(people["organiser"]).post(f"/api/tournaments/{event.pk}/start/")
    assert response.status_code == 422 and response.json()["error"] == "refused"
    documented = openapi()["paths"]["/api/tournaments/{id}/start/"]["post"]["responses"]
    assert "422" in documented


def test_a_withdrawal_posted_as_a_form_names_its_entry_as_text(people, public_club):
    entry = Entry.objects.filter(tournament=public_club.tournaments[0]).first()
    response = api_as(people["organiser"]).post(
        f"/api/tournaments/{entry.tournament_id}/withdraw/", {"entry": str(entry.pk)}
    )
    assert response.status_code == 200, response.content
    assert response.json()["withdrawn"] is True


@pytest.mark.parametrize(
    ("url", "query", "field"),
    [
        ("/api/clubs/riverside/matches/export.zip", "played_from=", "played_from"),
        ("/api/clubs/riverside/matches/", "player=", "player"),
        ("/api/clubs/riverside/matches/", "status=valid&status=unfinished", "status"),
        ("/api/pairings/", "tournament=1&tournament=2", "tournament"),
        ("/api/pairings/", "round=0.0", "round"),
        ("/api/pairings/", "tournament=%201", "tournament"),
        ("/api/ladders/", "page=1.0", "page"),
        ("/api/ladders/", "page=", "page"),
        ("/api/tournaments/", "page=last", "page"),
        ("/api/tournaments/", "page=0", "page"),
        ("/api/ladders/", "page=1&page=2", "page"),
    ],
)
def test_a_query_the_schema_calls_invalid_is_refused_naming_the_parameter(
    people, public_club, url, query, field
):
    """Found by negative data rejection: an empty value is a value (not a date, not a
    handle), a parameter is given once, a page is a whole number from 1, and an integer
    is written in digits ("0.0" and " 1" are whole numbers to DRF, not to the schema)."""
    response = api_as(people["organiser"]).get(f"{url}?{query}")
    assert response.status_code == 400, response.content
    assert field in response.json()["message"]


def test_the_page_of_a_numbered_list_is_documented_from_1(public_club):
    (page,) = [p for p in openapi()["paths"]["/api/ladders/"]["get"]["parameters"]]
    assert page["name"] == "page" and page["schema"] == {"type": "integer", "minimum": 1}
    assert Client().get("/api/ladders/", {"page": "1"}).status_code == 200


def test_a_required_list_a_form_may_send_is_documented_as_never_empty():
    """Found by positive data: a form or multipart body sends an empty list as no field at
    all, so a list of values a request must carry has at least one (the forfeit's absent)."""
    spec = openapi()
    schemas = spec["components"]["schemas"]
    checked = 0
    for path, operations in spec["paths"].items():
        for operation in operations.values():
            content = operation.get("requestBody", {}).get("content", {})
            if "multipart/form-data" not in content and not any("form" in c for c in content):
                continue
            ref = content.get("application/json", {}).get("schema", {}).get("$ref", "")
            body = schemas.get(ref.rsplit("/", 1)[-1], {})
            for name in body.get("required", []):
                field = body["properties"][name]
                if field.get("type") == "array" and "$ref" not in field["items"]:
                    checked += 1
                    assert field.get("minItems", 0) >= 1, (path, name)
    assert checked >= 1


_TYPED = {"type", "$ref", "allOf", "anyOf", "oneOf", "enum", "const"}


def _resolved(node: dict, schemas: dict) -> dict:
    while "$ref" in node or len(node.get("allOf", [])) == 1:
        node = schemas[node["$ref"].rsplit("/", 1)[-1]] if "$ref" in node else node["allOf"][0]
    return node


def test_a_body_holding_an_object_is_never_an_urlencoded_form():
    """Found by negative data: in an urlencoded form OpenAPI spreads an object's keys among
    the body's own, and an empty one is no key at all, so a clock given without its kind
    read as no clock. A body holding an object (or a list of them) is JSON or multipart,
    where the object is a part of JSON; and one holding any JSON value (a move) is JSON."""
    spec = openapi()
    schemas = spec["components"]["schemas"]
    holding = []
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            content = operation.get("requestBody", {}).get("content", {})
            if "application/json" not in content:
                continue
            body = _resolved(content["application/json"]["schema"], schemas)
            for name, field in body.get("properties", {}).items():
                field = _resolved(field, schemas)
                items = _resolved(field.get("items", {}), schemas)
                if field.get("type") == "object" or items.get("type") == "object":
                    holding.append((method, path, name))
                    assert "application/x-www-form-urlencoded" not in content, (path, name)
                elif name in body.get("required", []) and not _TYPED & set(field):  # any JSON
                    holding.append((method, path, name))
                    assert list(content) == ["application/json"], (path, name)
    assert {
        ("post", "/api/tables/", "clock"),
        ("post", "/api/tables/{table_id}/act/", "action"),
    } <= set(holding)


@pytest.mark.parametrize("body", [b"[null, 0]", b"-1119", b"a=1&[true]"])
def test_a_form_that_is_not_name_value_pairs_is_refused(people, public_club, body):
    """Found by negative data: JSON sent as an urlencoded form read as a form of one empty
    field named after it, and a pairing's recording, whose fields are all optional, was
    opened. Every pair of a form has its '='; a form without is a 400, nothing done."""
    from recorder.models import Draft

    pairing = public_club.pairings[0]
    drafts = Draft.objects.count()
    answer = api_as(people["organiser"]).generic(
        "POST",
        f"/api/pairings/{pairing.pk}/record/",
        body,
        content_type="application/x-www-form-urlencoded",
    )
    assert answer.status_code == 400, answer.content
    assert Draft.objects.count() == drafts
    fine = api_as(people["organiser"]).generic(
        "POST",
        f"/api/pairings/{pairing.pk}/record/",
        b"",
        content_type="application/x-www-form-urlencoded",
    )
    assert fine.status_code in (200, 201, 409, 422), fine.content
