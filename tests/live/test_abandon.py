"""Abandoning a table: its opener or the club's organisers close a table that is not
over; it is a numbered event its seats are told about, it leaves the club's list, and
it frees a place among the opener's open games against a bot."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from rest_framework.test import APIClient

from clubs.models import Membership
from live import push, services
from live.models import Table, TableEvent
from tests.live.conftest import CLOAK, CRYPTID, play_out, seats

pytestmark = pytest.mark.django_db


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_the_opener_abandons_and_the_seats_are_told(
    club, people, monkeypatch, django_capture_on_commit_callbacks
):
    table = services.open_table(
        club, people["ann"], game_id=CRYPTID, seats=seats(CRYPTID, "me", "free")
    )
    table = services.take_seat(table.pk, people["ben"])
    seen = table.last_event
    told: list[int] = []
    monkeypatch.setattr(push, "tell", lambda table_id, *_push: told.append(table_id))
    with django_capture_on_commit_callbacks(execute=True):
        answer = api(people["ann"]).post(f"/api/tables/{table.pk}/abandon/")
    assert answer.status_code == 200 and answer.json()["status"] == "abandoned"
    table.refresh_from_db()
    assert table.status == Table.Status.ABANDONED and table.last_event == seen + 1
    assert table.events.get(number=seen + 1).kind == TableEvent.Kind.ABANDONED
    assert told == [table.pk]
    # Each seat's news (the bytes its socket sends) says so.
    news = api(people["ben"]).get(f"/api/tables/{table.pk}/news/?since={seen}").json()
    assert news["status"] == "abandoned"
    assert [e["kind"] for e in news["events"]] == ["abandoned"]
    # No one plays it any more.
    refused = api(people["ben"]).post(
        f"/api/tables/{table.pk}/act/", {"seen": table.last_event, "action": {}}, format="json"
    )
    assert refused.status_code == 409


def test_a_waiting_table_is_abandoned_too_and_an_organiser_may(club, people):
    Membership.objects.filter(user=people["cat"]).update(role="organiser")
    table = services.open_table(
        club, people["ann"], game_id=CRYPTID, seats=seats(CRYPTID, "me", "free")
    )
    assert api(people["cat"]).post(f"/api/tables/{table.pk}/abandon/").status_code == 200
    news = api(people["ann"]).get(f"/api/tables/{table.pk}/news/").json()
    assert news["status"] == "abandoned" and news["position"] is None


def test_someone_else_is_refused(club, people):
    table = services.open_table(
        club, people["ann"], game_id=CRYPTID, seats=seats(CRYPTID, "me", "free")
    )
    assert api(people["ben"]).post(f"/api/tables/{table.pk}/abandon/").status_code == 403
    assert api(people["outsider"]).post(f"/api/tables/{table.pk}/abandon/").status_code in (
        403,
        404,
    )
    web = Client()
    web.force_login(people["ben"])
    page = web.post(f"/clubs/riverside/tables/{table.pk}/abandon")
    assert page.status_code == 403
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN


def test_a_finished_table_cannot_be_abandoned(club, people):
    table = services.open_table(
        club, people["ann"], game_id=CRYPTID, seats=seats(CRYPTID, "me", "free")
    )
    table = services.take_seat(table.pk, people["ben"])
    table = play_out(table, {s.seat: s.user for s in table.seats.all()}, random.Random(3))
    assert table.status == Table.Status.FINISHED
    answer = api(people["ann"]).post(f"/api/tables/{table.pk}/abandon/")
    assert answer.status_code == 409 and answer.json()["error"] == "closed"
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED


def test_the_pages_button_abandons_and_frees_a_place_among_games_against_a_bot(
    club, people, settings
):
    settings.LANTERN_BOT_DRAFTS_OPEN = 1
    ann = api(people["ann"])
    body = {"club": "riverside", "game": CLOAK, "seats": seats(CLOAK, "me", "free", "bot")}
    first = ann.post("/api/tables/", body, format="json")
    assert first.status_code == 201
    assert ann.post("/api/tables/", body, format="json").status_code == 429
    web = Client()
    web.force_login(people["ann"])
    club_page = web.get("/clubs/riverside/").content.decode()
    action = f"/clubs/riverside/tables/{first.json()['id']}/abandon"
    assert action in club_page
    table_page = web.get(f"/clubs/riverside/tables/{first.json()['id']}/").content.decode()
    assert action in table_page and "<details" in table_page
    assert web.post(action).status_code == 302
    assert Table.objects.get(pk=first.json()["id"]).status == Table.Status.ABANDONED
    assert action not in web.get("/clubs/riverside/").content.decode()
    assert ann.post("/api/tables/", body, format="json").status_code == 201
