"""Issue 35 item 9: a member's log naming handles the club does not know is not simply
refused: an organiser, or the uploader where the club allows it, confirms them as
guests in the same step (the upload page's next step, the API's ``guests``), and the
audit trail says who did."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from clubs.models import AuditEntry, Player
from games.models import Match, Upload

pytestmark = pytest.mark.django_db

URL = "/api/clubs/riverside/matches/"


@pytest.fixture
def stranger_log(example_log) -> dict:
    log = example_log("cryptid-escape.json")
    log["seats"][0]["player"] = "zoe"  # alice's seat: a guest tonight
    return log


def post(client, log: dict, guests: str = ""):
    url = URL + (f"?guests={guests}" if guests else "")
    return client.post(url, data=json.dumps(log), content_type="application/json")


def test_a_member_confirms_a_guest_through_the_api_where_the_club_allows_it(
    api, club, people, stranger_log
):
    refused = post(api("member"), stranger_log, guests="zoe")
    assert refused.status_code == 422 and refused.json()["can_confirm_guests"] is False
    club.members_confirm_guests = True
    club.save()
    refused = post(api("member"), stranger_log)
    assert refused.status_code == 422 and refused.json()["can_confirm_guests"] is True
    assert "confirm them as guests" in refused.json()["message"]
    stored = post(api("member"), stranger_log, guests="zoe")
    assert stored.status_code == 201, stored.json()
    zoe = Player.objects.get(club=club, handle="zoe")
    assert zoe.guest and zoe.user is None
    entry = AuditEntry.objects.get(club=club, action="player.guests")
    assert entry.actor == people["member"] and entry.details["handles"] == ["zoe"]


def test_every_new_handle_must_be_confirmed(api, club, stranger_log):
    club.members_confirm_guests = True
    club.save()
    stranger_log["seats"][1]["player"] = "yann"
    assert post(api("member"), stranger_log, guests="zoe").status_code == 422
    assert not Player.objects.filter(handle__in=["zoe", "yann"]).exists()
    assert post(api("member"), stranger_log, guests="zoe,yann").status_code == 201


@pytest.mark.parametrize("language", ["ja", "ru"])
def test_an_organiser_confirms_a_members_refused_log_on_its_upload_page(
    client, club, people, stranger_log, language
):
    client.force_login(people["member"])
    response = client.post(
        reverse("club-upload", args=[club.slug]), {"log": json.dumps(stranger_log)}
    )
    upload = Upload.objects.get(status="rejected")
    assert response.url == reverse("upload-detail", args=[upload.pk])
    page = client.get(response.url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert (
        reverse("upload-guests", args=[upload.pk]) not in page
    )  # a member of a club that does not allow it

    client.force_login(people["organiser"])
    page = client.get(response.url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert reverse("upload-guests", args=[upload.pk]) in page
    assert {"ja": "ゲストとして確認", "ru": "как гостей"}[language] in page
    # its actions broke no rule: no walk through them, no word of a broken document
    assert {"ja": "有効なアクションがありません", "ru": "нет ни одного допустимого действия"}[
        language
    ] not in page
    stored = client.post(reverse("upload-guests", args=[upload.pk]), {"guest": ["zoe"]})
    match = Match.objects.get()
    assert stored.url == reverse("match-detail", args=[match.pk])
    assert Player.objects.get(club=club, handle="zoe").guest
    assert AuditEntry.objects.get(action="player.guests").actor == people["organiser"]


def test_nothing_unticked_is_created_and_a_member_cannot_post_the_step(
    client, club, people, stranger_log
):
    client.force_login(people["member"])
    client.post(reverse("club-upload", args=[club.slug]), {"log": json.dumps(stranger_log)})
    upload = Upload.objects.get(status="rejected")
    assert (
        client.post(reverse("upload-guests", args=[upload.pk]), {"guest": ["zoe"]}).status_code
        == 403
    )
    client.force_login(people["organiser"])
    client.post(reverse("upload-guests", args=[upload.pk]), {})  # nothing ticked: refused again
    assert not Match.objects.exists() and not Player.objects.filter(handle="zoe").exists()


def test_an_organiser_lets_members_confirm_guests_and_it_is_audited(client, club, people):
    client.force_login(people["organiser"])
    client.post(reverse("club-guests", args=[club.slug]), {"members_confirm_guests": "on"})
    club.refresh_from_db()
    assert club.members_confirm_guests
    assert AuditEntry.objects.filter(action="club.members_confirm_guests").exists()
