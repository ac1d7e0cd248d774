"""The server-rendered pages: club, upload form with a readable rejection and a
step-through of the valid part, match list and detail, imports."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

import engine
from games import services
from games.models import Match, Upload
from tests.games.logs import bot_log

pytestmark = pytest.mark.django_db


@pytest.fixture
def signed_in(client, people):
    def as_(who: str):
        client.force_login(people[who])
        return client

    return as_


def text(response) -> str:
    return html.unescape(response.content.decode())


def test_a_rejected_upload_shows_the_rule_next_to_the_offending_action_and_steps_through(
    signed_in, example_log
):
    log = example_log("cryptid-illegal-draw.json")
    client = signed_in("member")
    response = client.post("/clubs/riverside/upload/", {"log": json.dumps(log)})

    upload = Upload.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/uploads/{upload.pk}/"
    assert Match.objects.count() == 0

    page = text(client.get(response["Location"]))
    assert "Rejected: illegal action" in page
    assert upload.error_message.startswith("action 14 (Cryptid: draw cards): ")
    assert f'<p class="plain">A{upload.error_message[1:]}</p>' in page
    offending = re.search(r'<li class="offending" id="offending">(.*?)</li>', page, re.S).group(1)
    game = engine.get_game("cryptid-urban-legends")
    # The refused action in words, and as the log writes it for the one who fixes the file.
    assert "Cryptid (alice) draws Split" in offending
    assert json.dumps(log["actions"][14]) in offending
    assert upload.error_message in offending and "CUL-3.7" in offending
    # The valid part: setup + actions 0..13; the page starts at the last valid state.
    for ply in range(15):
        assert f'href="?ply={ply}"' in page
    assert 'href="?ply=15"' not in page
    assert "(14 of 14 valid)" in page

    step = text(client.get(f"/uploads/{upload.pk}/?ply=3"))
    try:
        engine.replay(log)
    except engine.IllegalAction as exc:
        expected_board = game.render_text(exc.partial.state_at(3))
    assert "after action 2 (3 of 14 valid)" in step
    assert expected_board in step


def test_an_upload_page_is_for_its_uploader_and_the_organisers(
    signed_in, client, people, example_log
):
    signed_in("member").post("/clubs/riverside/upload/", {"log": "not json"})
    upload = Upload.objects.get()
    assert upload.error_rule == "LOG-JSON"
    assert "The document is not valid JSON" in text(client.get(f"/uploads/{upload.pk}/"))
    assert signed_in("organiser").get(f"/uploads/{upload.pk}/").status_code == 200
    assert signed_in("outsider").get(f"/uploads/{upload.pk}/").status_code == 404


def test_a_valid_upload_by_file_goes_to_the_match_page(signed_in, example_log):
    log = example_log("cryptid-escape.json")
    client = signed_in("member")
    response = client.post(
        "/clubs/riverside/upload/",
        {"file": SimpleUploadedFile("game.json", json.dumps(log).encode())},
    )
    match = Match.objects.get()
    assert response["Location"] == f"/matches/{match.pk}/"
    page = text(client.get(response["Location"]))
    assert f"Stored as match {match.pk}." in page
    # The result in the engine's words (games.display), not its document.
    assert "Cryptid (alice) wins: the cryptid escaped" in re.sub(r"<[^>]+>", "", page)
    assert f'href="/matches/{match.pk}/replay"' in page
    assert "alice" in page and "bob" in page

    again = client.post("/clubs/riverside/upload/", {"log": json.dumps(log, indent=2)})
    assert again["Location"] == f"/matches/{match.pk}/"
    assert "already stored as match" in text(client.get(again["Location"]))
    assert Match.objects.count() == 1


def test_the_upload_form_is_for_members(client, signed_in):
    anonymous = client.get("/clubs/riverside/upload/")
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
    assert signed_in("outsider").get("/clubs/riverside/upload/").status_code == 403
    assert signed_in("member").get("/clubs/riverside/upload/").status_code == 200
    assert signed_in("member").get("/clubs/riverside/imports/").status_code == 403
    assert signed_in("organiser").get("/clubs/riverside/imports/").status_code == 200


def test_club_page_match_list_with_filters_and_match_detail(client, club):
    cryptid = services.ingest_log(club, bot_log("cryptid-urban-legends", 1, ["alice", "bob"]), None)
    mister_x = services.ingest_log(club, bot_log("mister-x", 2, ["carl", "alice"]), None)

    club_page = text(client.get("/clubs/riverside/"))
    assert "Riverside Deduction Society" in club_page
    assert (
        f'href="/matches/{cryptid.pk}/"' in club_page
        and f'href="/matches/{mister_x.pk}/"' in club_page
    )

    listed = text(client.get("/clubs/riverside/matches/", {"game": "mister-x"}))
    assert f'href="/matches/{mister_x.pk}/"' in listed
    assert f'href="/matches/{cryptid.pk}/"' not in listed
    assert "/api/clubs/riverside/matches/export.zip?game=mister-x" in listed

    by_player = text(client.get("/clubs/riverside/matches/", {"player": "carl"}))
    assert f'href="/matches/{mister_x.pk}/"' in by_player
    assert f'href="/matches/{cryptid.pk}/"' not in by_player

    detail = text(client.get(f"/matches/{mister_x.pk}/"))
    assert "carl" in detail and "Mister X" in detail and "Detectives" in detail
    assert ">det1<" not in detail  # seats by the names the game gives them
    assert f'href="/matches/{mister_x.pk}/replay"' in detail


def test_import_form_starts_an_import_and_its_page_shows_progress(
    signed_in, django_capture_on_commit_callbacks
):
    lines = b"\n".join(
        json.dumps(bot_log("cryptid-urban-legends", s, ["alice", "bob"])).encode() for s in range(3)
    )
    client = signed_in("organiser")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/clubs/riverside/imports/", {"file": SimpleUploadedFile("s.jsonl", lines + b"\n{}\n")}
        )
    assert response.status_code == 302
    page = text(client.get(response["Location"]))
    assert "Done" in page
    assert re.search(r"<dt>New matches</dt><dd>3</dd>", page)
    assert re.search(r"<dt>Rejected</dt><dd>1</dd>", page)
    assert "line 4" in page


def test_the_upload_form_shares_the_upload_throttle(signed_in, settings, example_log):
    settings.LANTERN_UPLOAD_RATE = "1/min"
    client = signed_in("member")
    body = {"log": json.dumps(example_log("cryptid-escape.json"))}
    assert client.post("/clubs/riverside/upload/", body).status_code == 302
    refused = client.post("/clubs/riverside/upload/", body)
    assert refused.status_code == 429
    assert "Too many uploads: try again in" in text(refused)
    assert Upload.objects.count() == 1


def test_the_admin_lists_uploads_and_imports_read_only(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("root", "root@example.org", None))
    client.post("/clubs/riverside/upload/", {"log": "{}"})
    assert Upload.objects.get().error_rule == "LOG-FORMAT"
    listing = client.get("/admin/games/upload/")
    assert listing.status_code == 200 and "LOG-FORMAT" in text(listing)
    assert client.get("/admin/games/import/").status_code == 200
    assert client.get("/admin/games/upload/add/").status_code == 403
