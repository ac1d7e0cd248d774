"""Bulk imports: JSON lines or zip, through the API and `manage.py import_logs`."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command

from clubs.models import Player
from games.bundles import BundleError, BundleLimits, read_bundle, write_json_lines, write_zip
from games.models import Import, Match, Upload
from tests.games.logs import bot_log, compact, corrupt

pytestmark = pytest.mark.django_db

CRYPTID = "cryptid-urban-legends"


def post_import(client, name: str, data: bytes, captured):
    """POST a bundle; run the import task that is enqueued on commit (eager Celery)."""
    with captured(execute=True):
        return client.post(
            "/api/clubs/riverside/imports/",
            {"file": SimpleUploadedFile(name, data)},
            format="multipart",
        )


def test_a_thousand_bot_played_logs_with_ten_corrupted(
    api, people, client, django_capture_on_commit_callbacks
):
    logs = [bot_log(CRYPTID, seed, ["ann", "ben"]) for seed in range(1000)]
    corrupted_at = set(range(5, 1000, 100))  # 10 of them: lines 6, 106, ..., 906
    lines = [compact(corrupt(log) if i in corrupted_at else log) for i, log in enumerate(logs)]

    response = post_import(
        api("organiser"),
        "season.jsonl",
        write_json_lines(lines),
        django_capture_on_commit_callbacks,
    )

    assert response.status_code == 202, response.json()
    body = api("organiser").get(response["Location"]).json()
    assert body["status"] == "done"
    assert (body["total"], body["processed"]) == (1000, 1000)
    assert (body["accepted"], body["duplicates"], body["rejected"]) == (990, 0, 10)
    assert body["progress_percent"] == 100
    assert Match.objects.count() == 990
    # The organiser may create handles: ann and ben became players of the club.
    assert set(Player.objects.values_list("handle", flat=True)) >= {"ann", "ben"}

    rejections = api("organiser").get(body["rejections_url"]).json()["results"]
    assert len(rejections) == 10
    assert sorted(r["name"] for r in rejections) == sorted(f"line {i + 1}" for i in corrupted_at)
    for rejection in rejections:
        assert (rejection["error"], rejection["index"], rejection["rule"]) == (
            "illegal",
            0,
            "CUL-1.1",
        )
        assert "'nobody' is no seat of this game" in rejection["message"]

    client.force_login(people["organiser"])
    page = client.get(body["page_url"])
    html = page.content.decode()
    assert page.status_code == 200
    assert 'value="100"' in html and "line 906" in html and "CUL-1.1" in html


def test_a_zip_import_counts_duplicates_and_rejects_a_too_large_member(
    api, settings, django_capture_on_commit_callbacks
):
    settings.LANTERN_MAX_LOG_BYTES = 50_000
    logs = [compact(bot_log(CRYPTID, seed, ["ann", "ben"])) for seed in range(3)]
    data = write_zip(
        [
            ("a.json", logs[0]),
            ("b.json", logs[1]),
            ("again/a.json", logs[0]),  # the same log twice: one match
            ("big.json", " " * 60_000 + logs[2]),  # over the per-log limit: rejected alone
            ("__MACOSX/._a.json", "junk"),  # archiver droppings are skipped
            ("notes/", ""),
        ]
    )
    response = post_import(api("organiser"), "season.zip", data, django_capture_on_commit_callbacks)

    run = Import.objects.get(pk=response.json()["id"])
    assert (run.status, run.total, run.accepted, run.duplicates, run.rejected) == (
        "done",
        4,
        2,
        1,
        1,
    )
    rejected = Upload.objects.get(import_run=run, status="rejected")
    assert (rejected.name, rejected.error) == ("big.json", "too_large")
    assert Match.objects.count() == 2


def test_every_zip_member_skipped_is_counted_and_said_why(
    api, people, client, django_capture_on_commit_callbacks
):
    """A member whose name starts with a dot was skipped without a word (issue #34)."""
    log = compact(bot_log(CRYPTID, 4, ["ann", "ben"]))
    data = write_zip(
        [
            ("a.json", log),
            (".b.json", log),  # a real log, but hidden: skipped, and said so
            ("notes/.DS_Store", "junk"),
            ("__MACOSX/._a.json", "junk"),
            ("notes/", ""),
        ]
    )
    response = post_import(api("organiser"), "season.zip", data, django_capture_on_commit_callbacks)
    body = api("organiser").get(response["Location"]).json()
    assert (body["status"], body["total"], body["accepted"]) == ("done", 1, 1)
    assert [(m["name"], m["reason"]) for m in body["skipped"]] == [
        (".b.json", "hidden"),
        ("__MACOSX/._a.json", "macos"),
        ("notes/", "folder"),
        ("notes/.DS_Store", "hidden"),
    ]
    assert "starts with a dot" in body["skipped"][0]["why"]
    client.force_login(people["organiser"])
    html = client.get(body["page_url"], HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert ".b.json" in html and "__MACOSX/._a.json" in html and "notes/.DS_Store" in html
    assert "начинается с точки" in html


def test_a_zip_bomb_is_refused_before_anything_is_stored(
    api, settings, django_capture_on_commit_callbacks
):
    settings.LANTERN_MAX_IMPORT_EXPANDED_BYTES = 1_000_000
    ok = compact(bot_log(CRYPTID, 1, ["ann", "ben"]))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("ok.json", ok)
        for i in range(40):  # 40 x 1 MB of spaces: 40 MB expanded from ~40 KB
            archive.writestr(f"bomb-{i:02}.json", b" " * 1_000_000)
    data = buffer.getvalue()
    assert len(data) < 100_000

    response = post_import(api("organiser"), "bomb.zip", data, django_capture_on_commit_callbacks)

    # Refused at the door from the zip's directory: nothing inflated, no import created.
    assert response.status_code == 413
    expanded = 40 * 1_000_000 + len(ok)
    assert response.json() == {
        "error": "too_large",
        "index": None,
        "rule": None,
        "message": f"the archive would expand to {expanded} bytes, more than the 1000000 allowed",
    }
    assert Import.objects.count() == 0
    assert Match.objects.count() == 0


def test_a_lying_zip_header_is_caught_while_reading():
    """A member whose header claims 10 bytes but inflates to 5 MB is never read past the
    claim: zipfile stops there and the checksum no longer matches, so the bundle is refused."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("a.json", b"{" + b" " * 5_000_000 + b"}")
    data = bytearray(buffer.getvalue())
    central = data.rfind(b"PK\x01\x02")  # uncompressed size: offset 24 of the central entry
    data[central + 24 : central + 28] = (10).to_bytes(4, "little")
    limits = BundleLimits(max_log_bytes=100_000, max_entries=10, max_total_bytes=1_000_000)

    with pytest.raises(BundleError, match="a.json: cannot be read"):
        read_bundle(bytes(data), limits)


def test_a_bundle_that_is_neither_zip_nor_json_lines_is_one_rejection_per_line(
    api, django_capture_on_commit_callbacks
):
    response = post_import(
        api("organiser"), "notes.txt", b"hello\nworld\n", django_capture_on_commit_callbacks
    )
    run = Import.objects.get(pk=response.json()["id"])
    assert (run.status, run.total, run.rejected) == ("done", 2, 2)
    assert set(Upload.objects.values_list("error", "error_rule")) == {("malformed", "LOG-JSON")}


def test_only_organisers_bulk_import(api, django_capture_on_commit_callbacks):
    data = write_json_lines([compact(bot_log(CRYPTID, 1, ["alice", "bob"]))])
    member = post_import(api("member"), "a.jsonl", data, django_capture_on_commit_callbacks)
    assert member.status_code == 403
    assert member.json()["error"] == "forbidden"
    outsider = post_import(api("outsider"), "a.jsonl", data, django_capture_on_commit_callbacks)
    assert outsider.status_code == 403
    assert Import.objects.count() == 0
    assert api("member").get("/api/clubs/riverside/imports/").status_code == 403


def test_import_logs_command(tmp_path, club, capsys):
    logs = [bot_log(CRYPTID, seed, ["ann", "ben"]) for seed in range(4)]
    jsonl = tmp_path / "season.jsonl"
    jsonl.write_bytes(write_json_lines([compact(logs[0]), compact(corrupt(logs[1]))]))
    single = tmp_path / "one.json"
    single.write_text(json.dumps(logs[2], indent=2))  # one pretty-printed log
    archive = tmp_path / "more.zip"
    archive.write_bytes(write_zip([("x.json", compact(logs[3])), ("y.json", compact(logs[0]))]))

    call_command("import_logs", "riverside", str(jsonl), str(single), str(archive))

    out = capsys.readouterr().out
    assert Match.objects.filter(club=club).count() == 3
    assert Import.objects.count() == 3
    assert "season.jsonl: 2 logs: 1 new, 0 already stored, 1 rejected" in out
    assert "line 2: action 0 (nobody" in out and "CUL-1.1" in out
    assert "one.json: 1 log: 1 new, 0 already stored, 0 rejected" in out
    assert "more.zip: 2 logs: 1 new, 1 already stored, 0 rejected" in out


def test_import_logs_command_refuses_an_unknown_club(tmp_path):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="no club 'nowhere'"):
        call_command("import_logs", "nowhere", str(tmp_path / "x.jsonl"))


def test_an_internal_error_fails_the_import_keeping_the_batches_already_stored(club, monkeypatch):
    from games import services

    logs = [
        compact(bot_log(CRYPTID, seed, ["ann", "ben"])) for seed in range(services.IMPORT_BATCH + 5)
    ]
    real_ingest = services.ingest_log
    calls = {"n": 0}

    def ingest_then_break(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == services.IMPORT_BATCH + 3:
            raise RuntimeError("disk on fire")
        return real_ingest(*args, **kwargs)

    monkeypatch.setattr(services.imports, "ingest_log", ingest_then_break)
    run = services.create_import(club, write_json_lines(logs), "s.jsonl", None, enqueue=False)
    with pytest.raises(RuntimeError):
        services.run_import(run.pk)
    run.refresh_from_db()
    assert run.status == "failed"
    assert "disk on fire" in run.error
    # The first batch was committed; the second, interrupted, was rolled back entirely.
    assert (run.processed, run.accepted) == (services.IMPORT_BATCH, services.IMPORT_BATCH)
    assert Match.objects.count() == services.IMPORT_BATCH
