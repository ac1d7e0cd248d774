"""A refused upload says why in the reader's language (Accept-Language or ?lang=): the
same error code, index and rule id in every language, the sentence the engine's own, the
rule link on the rule's translation; read again later, in the later reader's language."""

from __future__ import annotations

import html
import io
import json
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

import engine
from config.sentences import Sentence
from games.models import Upload

pytestmark = pytest.mark.django_db

URL = "/api/clubs/riverside/matches/"


def _refusal(example_log):
    log = example_log("cryptid-illegal-draw.json")  # action 14 draws 1 card where 2 are due
    with pytest.raises(engine.IllegalAction) as refused:
        engine.replay(log)
    return log, refused.value


@pytest.mark.parametrize("language", ["en", "ja", "ru"])
def test_a_rejected_upload_is_explained_in_the_readers_language(api, people, example_log, language):
    log, refusal = _refusal(example_log)
    response = api("member").post(
        URL, data=json.dumps(log), content_type="application/json", HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 422
    body = response.json()
    assert (body["error"], body["index"], body["rule"]) == ("illegal", 14, "CUL-3.7")
    assert body["message"] == f"{refusal.where(language)}: {refusal.text(language)}"
    assert refusal.text(language) in body["message"]
    suffix = "" if language == "en" else f"?lang={language}"
    assert body["rule_url"] == f"http://testserver/rules/cryptid-urban-legends/{suffix}#CUL-3.7"
    assert response["Content-Language"] == language


def test_the_three_languages_differ_and_the_english_is_kept_on_the_row(api, people, example_log):
    log, refusal = _refusal(example_log)
    bodies = {}
    for language in ("en", "ja", "ru"):
        Upload.objects.all().delete()
        bodies[language] = (
            api("member")
            .post(
                URL,
                data=json.dumps(log),
                content_type="application/json",
                HTTP_ACCEPT_LANGUAGE=language,
            )
            .json()
        )
    assert len({body["message"] for body in bodies.values()}) == 3
    assert "アクション 14" in bodies["ja"]["message"]
    assert "действие 14" in bodies["ru"]["message"]
    # Uploaded by a Russian reader, read by a Japanese one: in Japanese.
    upload = Upload.objects.get()
    assert upload.error_message == bodies["en"]["message"]
    listed = api("member").get("/api/clubs/riverside/uploads/", HTTP_ACCEPT_LANGUAGE="ja").json()
    assert listed["results"][0]["message"] == bodies["ja"]["message"]
    assert (
        api("member").get("/api/clubs/riverside/uploads/?lang=ru").json()["results"][0]["message"]
        == (bodies["ru"]["message"])
    )


def test_a_refusal_of_the_site_itself_is_translated_too(api, people, example_log):
    log = example_log("cryptid-escape.json")
    log["seats"][0]["player"] = "zoe"
    body = (
        api("member")
        .post(URL, data=json.dumps(log), content_type="application/json", HTTP_ACCEPT_LANGUAGE="ru")
        .json()
    )
    assert body["error"] == "unknown_players"
    assert body["message"].startswith("этих игроков нет в клубе Riverside Deduction Society: zoe")
    assert Upload.objects.get().error_message.startswith("these players are not in Riverside")


def test_a_malformed_document_is_explained_in_japanese(api, people):
    body = (
        api("member")
        .post(
            URL,
            data=b'{"format": "lantern-log/1", "game": ',
            content_type="application/json",
            HTTP_ACCEPT_LANGUAGE="ja",
        )
        .json()
    )
    assert body["rule"] == "LOG-JSON"
    assert body["message"] and body["message"].isascii() is False
    # Where the document breaks, in numbers; not the JSON parser's English ("Expecting value").
    assert "1 行目" in body["message"] and "Expecting" not in body["message"], body["message"]
    deep = (
        api("member")
        .post(URL, data=b"[" * 100_000, content_type="application/json", HTTP_ACCEPT_LANGUAGE="ru")
        .json()
    )
    assert deep["rule"] == "LOG-JSON" and deep["message"].endswith("(слишком глубокая вложенность)")


def test_a_stored_sentence_without_a_kept_form_reads_as_its_english():
    assert Sentence.from_json({}, "old text").text("ja") == "old text"
    assert (
        Sentence.from_json(
            {"msgid": "the log is larger than the %(limit)s bytes accepted", "params": {"limit": 5}}
        ).text("en")
        == "the log is larger than the 5 bytes accepted"
    )


def _failed_import(club):
    """An import whose zip breaks while it is read (a member's header lies about its size)."""
    from games import services

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("a.json", b"{" + b" " * 200_000 + b"}")
    data = bytearray(buffer.getvalue())
    central = data.rfind(b"PK\x01\x02")  # uncompressed size: offset 24 of the central entry
    data[central + 24 : central + 28] = (10).to_bytes(4, "little")
    run = services.create_import(club, bytes(data), "lying.zip", None, enqueue=False)
    services.run_import(run.pk)
    run.refresh_from_db()
    assert run.status == "failed"
    return run


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "a.json: cannot be read"),
        ("ja", "a.json: 読み取れません"),
        ("ru", "a.json: прочитать не удалось"),
    ],
)
def test_a_failed_import_says_why_in_each_readers_language(
    api, client, people, club, language, expected
):
    run = _failed_import(club)
    # Kept as what to say; the English stays for logs and search.
    assert run.error_sentence["msgid"] == "%(name)s: cannot be read (%(reason)s)"
    assert run.error.startswith("a.json: cannot be read (")
    body = api("organiser").get(f"/api/imports/{run.pk}/", HTTP_ACCEPT_LANGUAGE=language).json()
    assert body["error"].startswith(expected), body["error"]
    client.force_login(people["organiser"])
    page = client.get(f"/imports/{run.pk}/?lang={language}").content.decode()
    assert expected in page
    if language != "en":
        assert "cannot be read" not in page


def test_a_refused_bundle_is_explained_in_the_readers_language(
    api, settings, django_capture_on_commit_callbacks
):
    settings.LANTERN_MAX_IMPORT_EXPANDED_BYTES = 1000
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("big.json", b" " * 5000)
    upload = SimpleUploadedFile("big.zip", buffer.getvalue(), content_type="application/zip")
    response = api("organiser").post(
        "/api/clubs/riverside/imports/", {"file": upload}, HTTP_ACCEPT_LANGUAGE="ru"
    )
    assert response.status_code == 413
    assert response.json()["error"] == "too_large"
    assert (
        response.json()["message"]
        == "после распаковки архив займёт 5000 байт, а допустимо не больше 1000"
    )


@pytest.mark.parametrize("language", ["ja", "ru"])
def test_a_rejected_uploads_board_text_speaks_the_readers_language(
    client, people, example_log, language
):
    log = example_log("cryptid-illegal-draw.json")
    client.force_login(people["member"])
    client.post("/clubs/riverside/upload/", {"log": json.dumps(log)})
    upload = Upload.objects.get()
    page = html.unescape(
        client.get(f"/uploads/{upload.pk}/?ply=3&lang={language}").content.decode()
    )
    with pytest.raises(engine.IllegalAction) as refused:
        engine.replay(log)
    game = engine.get_game(log["game"])
    board = game.render_text(refused.value.partial.state_at(3), language)
    assert board in page  # the engine's own text of that step, in the reader's language
    assert game.render_text(refused.value.partial.state_at(3)) not in page  # not the English one
    assert ("感知フェイズ" if language == "ja" else "Фаза") in board


def test_a_json_lines_imports_log_is_named_in_the_readers_language(client, people, club):
    from games import services
    from games.bundles import write_json_lines

    run = services.create_import(
        club, write_json_lines(['{"format": "not a log"}']), "night.jsonl", None, enqueue=False
    )
    services.run_import(run.pk)
    upload = Upload.objects.get(import_run=run)
    assert upload.name == "line 1"  # stored as the bundle names it; the API serves that
    client.force_login(people["organiser"])
    for language, said in (("ja", "1 行目"), ("ru", "строка 1"), ("en", "line 1")):
        page = client.get(f"/uploads/{upload.pk}/?lang={language}").content.decode()
        assert said in page
        if language != "en":
            assert "line 1" not in page
