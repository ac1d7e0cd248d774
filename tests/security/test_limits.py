"""Size and rate limits on every way in, beyond those tests/games already covers
(a 10 MB log to the upload API as JSON and as a file: 413; the upload API and the
upload form throttled, sharing one budget)."""

from __future__ import annotations

import json
import tracemalloc

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from rest_framework.test import APIClient

from games.models import Import, Match, Upload
from tests.games.logs import bot_log, compact

pytestmark = pytest.mark.django_db

MB = 1024**2


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _peak(call):
    tracemalloc.start()
    try:
        result = call()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# --- JSON bodies of the rest of the API ---------------------------------------------------


def test_a_large_json_body_is_413_before_it_is_parsed(people, public_club, settings):
    """Refused from its length (Django's DATA_UPLOAD_MAX_MEMORY_SIZE), in the API's error
    shape. Parsed, this body (1.5 million numbers) would cost several times its size."""
    body = json.dumps(
        {
            "club": "riverside",
            "name": "Big",
            "game": "cryptid-urban-legends",
            "format": "swiss",
            "rounds": 1,
            "pad": list(range(1_500_000)),
        }
    )
    assert len(body) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    client = _api(people["organiser"])

    response, peak = _peak(
        lambda: client.post("/api/tournaments/", data=body, content_type="application/json")
    )

    assert response.status_code == 413
    assert response.json() == {
        "error": "too_large",
        "index": None,
        "rule": None,
        "message": "the request body is larger than the API accepts",
    }
    assert peak < 3 * len(body), f"peak {peak / MB:.1f} MiB for a {len(body) / MB:.1f} MiB body"


def test_a_log_sent_as_json_to_settle_a_pairing_is_bounded_too(people, public_club):
    pairing = public_club.pairings[0]
    body = '{"log": {"format": "lantern-log/1", "pad": "' + "x" * (4 * MB) + '"}}'
    matches = Match.objects.count()
    response = _api(people["organiser"]).post(
        f"/api/pairings/{pairing.pk}/result/", data=body, content_type="application/json"
    )
    assert response.status_code == 413
    assert response.json()["error"] == "too_large"
    assert Match.objects.count() == matches


# --- bulk imports ------------------------------------------------------------------------


def test_an_import_file_over_the_limit_is_413_by_api_and_a_form_error_on_the_page(
    people, public_club, settings
):
    settings.LANTERN_MAX_IMPORT_FILE_BYTES = 10_000
    data = b"\n".join(
        [
            compact(bot_log("cryptid-urban-legends", seed, ["alice", "bob"])).encode()
            for seed in range(20)
        ]
    )
    assert len(data) > 10_000
    imports = Import.objects.count()

    response = _api(people["organiser"]).post(
        "/api/clubs/riverside/imports/",
        {"file": SimpleUploadedFile("big.jsonl", data)},
        format="multipart",
    )
    assert response.status_code == 413
    assert response.json() == {
        "error": "too_large",
        "index": None,
        "rule": None,
        "message": "at most 10000 bytes are accepted",
    }

    page = Client()
    page.force_login(people["organiser"])
    response = page.post(
        "/clubs/riverside/imports/", {"file": SimpleUploadedFile("big.jsonl", data)}
    )
    assert response.status_code == 200
    assert f"the file is {len(data)} bytes; at most 10000 bytes are accepted" in (
        response.content.decode()
    )
    assert Import.objects.count() == imports


def test_imports_share_the_upload_budget_by_api_and_by_page(people, public_club, settings):
    settings.LANTERN_UPLOAD_RATE = "2/min"
    log = bot_log("cryptid-urban-legends", 11, ["alice", "bob"])
    api = _api(people["organiser"])
    assert (
        api.post(
            "/api/clubs/riverside/matches/", data=json.dumps(log), content_type="application/json"
        ).status_code
        == 201
    )
    bundle = compact(bot_log("cryptid-urban-legends", 12, ["alice", "bob"])).encode()
    assert (
        api.post(
            "/api/clubs/riverside/imports/",
            {"file": SimpleUploadedFile("a.jsonl", bundle)},
            format="multipart",
        ).status_code
        == 202
    )
    imports = Import.objects.count()

    refused = api.post(
        "/api/clubs/riverside/imports/",
        {"file": SimpleUploadedFile("b.jsonl", bundle)},
        format="multipart",
    )
    assert refused.status_code == 429
    assert refused.json()["error"] == "throttled" and int(refused["Retry-After"]) > 0

    page = Client()
    page.force_login(people["organiser"])
    refused = page.post(
        "/clubs/riverside/imports/", {"file": SimpleUploadedFile("c.jsonl", bundle)}
    )
    assert refused.status_code == 429
    assert "Too many uploads: try again in" in refused.content.decode()
    assert Import.objects.count() == imports


# --- the upload form -----------------------------------------------------------------------


def test_a_file_over_the_limit_on_the_upload_form_is_a_recorded_rejection(
    people, public_club, settings
):
    settings.LANTERN_MAX_LOG_BYTES = 1000
    page = Client()
    page.force_login(people["member"])
    big = json.dumps(bot_log("mister-x", 2, ["alice", "bob", "carol"])).encode()
    assert len(big) > 1000

    response = page.post("/clubs/riverside/upload/", {"file": SimpleUploadedFile("x.json", big)})

    upload = Upload.objects.latest("id")
    assert response.status_code == 302 and response["Location"] == f"/uploads/{upload.pk}/"
    assert (upload.status, upload.error, upload.size, upload.document_text) == (
        "rejected",
        "too_large",
        len(big),
        "",
    )
