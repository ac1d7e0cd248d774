"""The pages of the live tables: the club page lists open tables and games in progress
to members only; a table opens from the form; a table's page is for the club's members
(its invitation link), and a member who is not seated sees it with the public eyes."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from live import services
from live.models import Table
from tests.live.conftest import CRYPTID, seats

pytestmark = pytest.mark.django_db


def browser(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_the_club_page_lists_open_tables_and_games_in_progress_to_members(club, people):
    waiting = services.open_table(
        club, people["ann"], game_id=CRYPTID, seats=seats(CRYPTID, "me", "free")
    )
    playing = services.open_table(
        club, people["ann"], game_id=CRYPTID, seats=seats(CRYPTID, "free", "me")
    )
    services.take_seat(playing.pk, people["ben"])
    page = browser(people["cat"]).get("/clubs/riverside/").content.decode()
    assert f'data-table="{waiting.pk}" data-status="open"' in page
    assert f'data-table="{playing.pk}" data-status="playing"' in page
    assert f"/clubs/riverside/tables/{waiting.pk}/take-seat" in page  # a Join button
    assert f"/clubs/riverside/tables/{playing.pk}/take-seat" not in page
    outsider = browser(people["outsider"]).get("/clubs/riverside/").content.decode()
    assert "data-table=" not in outsider and "/tables/new/" not in outsider


def test_a_table_opens_from_the_form_and_a_member_joins_by_its_link(club, people):
    ann = browser(people["ann"])
    form = ann.get("/clubs/riverside/tables/new/", {"game": CRYPTID})
    assert form.status_code == 200 and b'name="seat.scientist"' in form.content
    defaults = {
        name: field.initial
        for name, field in form.context["form"].fields.items()
        if name.startswith("option.")
    }
    opened = ann.post(
        f"/clubs/riverside/tables/new/?game={CRYPTID}",
        {**defaults, "seat.cryptid": "me", "seat.scientist": "free:scientist"},
    )
    assert opened.status_code == 302
    table = Table.objects.get()
    assert opened["Location"] == f"/clubs/riverside/tables/{table.pk}/"
    joined = browser(people["ben"]).post(f"/clubs/riverside/tables/{table.pk}/take-seat")
    assert joined.status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING


def test_a_tables_page_is_for_members_and_says_whose_eyes(club, people):
    table = services.open_table(
        club, people["ann"], game_id=CRYPTID, seats=seats(CRYPTID, "me", "free")
    )
    url = f"/clubs/riverside/tables/{table.pk}/"
    assert browser(people["outsider"]).get(url).status_code == 403
    assert browser().get(url).status_code == 302  # to sign in

    def config_of(user) -> dict:
        page = browser(user).get(url).content.decode()
        found = re.search(
            r'<script id="live-config" type="application/json">(.*?)</script>', page, re.S
        )
        return json.loads(found.group(1))

    assert config_of(people["ann"])["eyes"] == "cryptid"
    assert config_of(people["cat"])["eyes"] == "public"


def test_with_several_socket_origins_a_tables_sockets_all_go_to_the_one_its_id_chooses(
    club, people, settings
):
    """`make prod` with LIVE_PROCESSES=2: a Daphne process per port; both seats of a table
    (and its watchers) open their sockets on the same one, so they share its reads."""
    settings.LIVE_SOCKET_ORIGIN = "ws://127.0.0.1:8001, ws://127.0.0.1:8002"
    tables = [
        services.open_table(
            club, people["ann"], game_id=CRYPTID, seats=seats(CRYPTID, "me", "free")
        )
        for _ in range(2)
    ]
    chosen = set()
    for table in tables:
        sockets = set()
        for who in ("ann", "cat"):
            page = browser(people[who]).get(f"/clubs/riverside/tables/{table.pk}/")
            config = re.search(
                r'<script id="live-config" type="application/json">(.*?)</script>',
                page.content.decode(),
                re.S,
            )
            sockets.add(json.loads(config.group(1))["socket"])
        assert len(sockets) == 1
        chosen |= sockets
    assert chosen == {
        f"ws://127.0.0.1:{8001 + table.pk % 2}/ws/tables/{table.pk}/" for table in tables
    }
