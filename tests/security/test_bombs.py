"""Zip bombs and deeply nested JSON are refused with clear errors, in bounded memory.

Each test measures the peak of Python allocations (tracemalloc) while the request is
handled and asserts a bound far below what the attack would cost if it worked: a
member inflating to 1 GiB, 100 000 zip entries, JSON nested 100 000 deep. Bounds
are on allocations, not time (timings live in bench/).
"""

from __future__ import annotations

import io
import json
import struct
import tracemalloc
import zipfile
import zlib
from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from games import bundles
from games.models import Import, Match, MatchLog, MatchSeat, Upload
from games.services import MAX_LOG_DEPTH, LogRejected, ingest_log, run_import
from tests.games.logs import bot_log, compact

pytestmark = pytest.mark.django_db

GIB = 1024**3
MB = 1024**2


def peak_bytes(call: Callable[[], Any]) -> tuple[Any, int]:
    """``call()``'s result and the peak of memory Python allocated while it ran."""
    tracemalloc.start()
    try:
        result = call()
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, peak


def deflated_zeros(size: int) -> tuple[bytes, int]:
    """A raw deflate stream of ``size`` zero bytes (built in 1 MiB chunks) and its CRC."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    chunk, crc, parts = bytes(MB), 0, []
    for _ in range(size // MB):
        parts.append(packer.compress(chunk))
        crc = zlib.crc32(chunk, crc)
    parts.append(packer.flush())
    return b"".join(parts), crc


def zip_with_member(name: str, stream: bytes, crc: int, declared: int) -> bytes:
    """A zip of one deflated member whose headers declare ``declared`` bytes, written
    field by field (APPNOTE 4.3) so that they can be honest about a gigabyte without
    anyone inflating one, or lie."""
    encoded = name.encode()
    fields = (8, 0, 0x5C21, crc, len(stream), declared, len(encoded))  # deflate, 2026-01-01
    local = struct.pack("<4sHHHHHIIIHH", b"PK\x03\x04", 20, 0, *fields, 0) + encoded
    central = (
        struct.pack("<4sHHHHHHIIIHHHHHII", b"PK\x01\x02", 20, 20, 0, *fields, 0, 0, 0, 0, 0, 0)
        + encoded
    )
    offset = len(local) + len(stream)
    end = struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, 1, 1, len(central), offset, 0)
    return local + stream + central + end


def zip_of_empty_members(count: int) -> bytes:
    """A zip of ``count`` empty stored members, written directly (zipfile takes ~10 s)."""
    local, central = [], []
    offset = 0
    for i in range(count):
        name = f"{i}.json".encode()
        fields = (0, 0, 0x5C21, 0, 0, 0, len(name))  # stored, 2026-01-01, empty
        header = struct.pack("<4sHHHHHIIIHH", b"PK\x03\x04", 20, 0, *fields, 0) + name
        central.append(
            struct.pack(
                "<4sHHHHHHIIIHHHHHII", b"PK\x01\x02", 20, 20, 0, *fields, 0, 0, 0, 0, 0, offset
            )
            + name
        )
        local.append(header)
        offset += len(header)
    directory = b"".join(central)
    entries = min(count, 0xFFFF)  # more than 65535: zip64 records, as zipfile writes them
    end = b""
    if count > 0xFFFF:
        end += struct.pack(
            "<4sQHHIIQQQQ", b"PK\x06\x06", 44, 45, 45, 0, 0, count, count, len(directory), offset
        )
        end += struct.pack("<4sIQI", b"PK\x06\x07", 0, offset + len(directory), 1)
    end += struct.pack(
        "<4sHHHHIIH",
        b"PK\x05\x06",
        0,
        0,
        entries,
        entries,
        min(len(directory), 0xFFFFFFFF),
        min(offset, 0xFFFFFFFF),
        0,
    )
    return b"".join(local) + directory + end


@pytest.fixture
def organiser_api(people, public_club) -> APIClient:
    client = APIClient()
    client.force_authenticate(people["organiser"])
    return client


def _post_import(client: APIClient, name: str, data: bytes, on_commit):
    with on_commit(execute=True):
        return client.post(
            "/api/clubs/riverside/imports/",
            {"file": SimpleUploadedFile(name, data)},
            format="multipart",
        )


def _no_new_matches(before: tuple[int, int, int]) -> bool:
    return (Match.objects.count(), MatchSeat.objects.count(), MatchLog.objects.count()) == before


def _counts() -> tuple[int, int, int]:
    return Match.objects.count(), MatchSeat.objects.count(), MatchLog.objects.count()


# --- zip bombs --------------------------------------------------------------------------


def test_a_member_declaring_a_gigabyte_is_refused_at_the_door(
    organiser_api, django_capture_on_commit_callbacks
):
    stream, crc = deflated_zeros(64 * MB)  # the real stream; the header says 1 GiB
    data = zip_with_member("bomb.json", stream, crc, declared=GIB)
    assert len(data) < 100_000
    before = _counts()

    response, peak = peak_bytes(
        lambda: _post_import(organiser_api, "bomb.zip", data, django_capture_on_commit_callbacks)
    )

    assert response.status_code == 413
    assert response.json() == {
        "error": "too_large",
        "index": None,
        "rule": None,
        "message": f"the archive would expand to {GIB} bytes, more than the {256 * MB} allowed",
    }
    assert Import.objects.count() == 1 and _no_new_matches(before)  # the seeded one
    assert peak < 16 * MB, f"peak {peak / MB:.1f} MiB"


def test_a_member_lying_about_its_size_is_not_inflated_past_the_limit(
    organiser_api, django_capture_on_commit_callbacks
):
    """Headers claim 1 KB; the stream inflates to 64 MiB. Nothing reads past the claim
    (the member fails its checksum), and the import fails saying which file."""
    stream, crc = deflated_zeros(64 * MB)
    data = zip_with_member("liar.json", stream, crc, declared=1000)
    before = _counts()

    response, peak = peak_bytes(
        lambda: _post_import(organiser_api, "liar.zip", data, django_capture_on_commit_callbacks)
    )

    assert response.status_code == 202
    run = Import.objects.get(pk=response.json()["id"])
    assert run.status == "failed"
    assert run.error.startswith("liar.json: cannot be read")
    assert _no_new_matches(before)
    assert peak < 16 * MB, f"peak {peak / MB:.1f} MiB"


def test_a_hundred_thousand_members_are_refused_without_reading_the_directory_into_memory(
    organiser_api, django_capture_on_commit_callbacks
):
    data = zip_of_empty_members(100_000)
    assert len(zipfile.ZipFile(io.BytesIO(data)).infolist()) == 100_000  # a real zip

    response, peak = peak_bytes(
        lambda: _post_import(organiser_api, "many.zip", data, django_capture_on_commit_callbacks)
    )

    assert response.status_code == 413
    assert response.json()["message"] == "the archive holds more than 20000 files"
    assert Import.objects.count() == 1  # the seeded one
    # The upload itself is ~10 MB and Django holds it (a copy or two); zipfile's
    # 100 000 ZipInfo objects would have been ~55 MB more.
    assert peak < 3 * len(data) + 8 * MB, f"peak {peak / MB:.1f} MiB for {len(data) / MB:.1f}"


def test_a_zip_inside_a_zip_is_one_malformed_log_never_opened(
    organiser_api, django_capture_on_commit_callbacks
):
    stream, crc = deflated_zeros(64 * MB)
    inner = zip_with_member("bomb.json", stream, crc, declared=64 * MB)
    outer = io.BytesIO()
    with zipfile.ZipFile(outer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("inner.zip", inner)
        archive.writestr("ok.json", compact(bot_log("cryptid-urban-legends", 1, ["alice", "bob"])))
    before = _counts()

    response, peak = peak_bytes(
        lambda: _post_import(
            organiser_api, "nested.zip", outer.getvalue(), django_capture_on_commit_callbacks
        )
    )

    run = Import.objects.get(pk=response.json()["id"])
    assert (run.status, run.total, run.accepted, run.rejected) == ("done", 2, 1, 1)
    rejected = Upload.objects.get(import_run=run, status="rejected")
    assert (rejected.name, rejected.error, rejected.error_rule) == (
        "inner.zip",
        "malformed",
        "LOG-JSON",
    )
    assert _counts() == (before[0] + 1, before[1] + 2, before[2] + 1)
    assert peak < 16 * MB, f"peak {peak / MB:.1f} MiB"


def test_an_unreadable_zip_is_a_400_before_anything_is_stored(
    organiser_api, django_capture_on_commit_callbacks
):
    data = b"PK\x03\x04" + b"\x00" * 100
    response = _post_import(organiser_api, "broken.zip", data, django_capture_on_commit_callbacks)
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "malformed" and "not a readable zip archive" in body["message"]
    assert Import.objects.count() == 1  # the seeded one


# --- deeply nested JSON -----------------------------------------------------------------

DEEP = 100_000


def nested_arrays(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


def test_json_nested_100k_deep_is_a_400_through_the_upload_api(people, public_club):
    client = APIClient()
    client.force_authenticate(people["member"])
    body = b'{"format": "lantern-log/1", "game": ' + nested_arrays(DEEP) + b"}"
    before = _counts()

    response, peak = peak_bytes(
        lambda: client.post(
            "/api/clubs/riverside/matches/", data=body, content_type="application/json"
        )
    )

    assert response.status_code == 400
    error = response.json()
    assert (error["error"], error["rule"]) == ("malformed", "LOG-JSON")
    assert "not valid JSON" in error["message"]
    assert Upload.objects.get(pk=error["upload"]).error == "malformed"
    assert _no_new_matches(before)
    assert peak < 16 * MB, f"peak {peak / MB:.1f} MiB"


def test_json_nested_100k_deep_is_a_400_through_the_drf_json_parser(people, public_club):
    """The tournaments API parses JSON with DRF, whose parser would raise RecursionError on
    deep nesting."""
    client = APIClient()
    client.force_authenticate(people["organiser"])
    pairing = public_club.pairings[0]

    response, peak = peak_bytes(
        lambda: client.post(
            f"/api/pairings/{pairing.pk}/result/",
            data=b'{"log": ' + nested_arrays(DEEP) + b"}",
            content_type="application/json",
        )
    )

    assert response.status_code == 400
    assert response.json()["error"] == "malformed"
    assert "nested too deeply" in response.json()["message"]
    assert peak < 16 * MB, f"peak {peak / MB:.1f} MiB"


def test_nesting_the_parser_takes_but_no_log_needs_is_refused_by_depth(people, public_club):
    """Deep enough to parse, too deep to trust to every recursive reader after us."""
    log = bot_log("cryptid-urban-legends", 1, ["alice", "bob"])
    log["meta"]["notes"] = json.loads(nested_arrays(MAX_LOG_DEPTH + 10))
    before = _counts()
    with pytest.raises(LogRejected) as refused:
        ingest_log(public_club.club, json.dumps(log), people["member"])
    assert refused.value.code == "malformed" and refused.value.rule == "LOG-JSON"
    assert refused.value.message == (
        f"the document nests arrays and objects more than {MAX_LOG_DEPTH} deep"
    )
    assert _no_new_matches(before)


def test_a_parsed_document_nested_100k_deep_is_refused_without_recursion(people, public_club):
    """ingest_log also takes parsed JSON (tournament results): a Python structure 100 000
    deep must be refused by an iterative walk, and its text not kept (it has none)."""
    deep: list = []
    for _ in range(DEEP):
        deep = [deep]
    with pytest.raises(LogRejected) as refused:
        ingest_log(public_club.club, {"format": "lantern-log/1", "meta": deep}, people["member"])
    assert refused.value.code == "malformed"
    assert refused.value.upload.document_text == ""


def test_a_deep_line_in_a_bulk_import_is_one_rejection(public_club, people):
    ok = compact(bot_log("cryptid-urban-legends", 7, ["alice", "bob"]))
    data = bundles.write_json_lines([ok, nested_arrays(DEEP).decode()])
    from games.services import create_import

    run = create_import(public_club.club, data, "deep.jsonl", people["organiser"], enqueue=False)
    run, peak = peak_bytes(lambda: run_import(run.pk))

    assert (run.status, run.accepted, run.rejected) == ("done", 1, 1)
    assert Upload.objects.get(import_run=run, status="rejected").error_rule == "LOG-JSON"
    assert peak < 16 * MB, f"peak {peak / MB:.1f} MiB"
