"""Spectators (issue #36, item 5): a member who holds no seat watches a game from the public
view while it is played; when it ends its seats see everything, and its watchers too once
the club's delay after the end has passed (``Club.watchers_see_all_after``). Twins: a
watcher's stream is byte-identical for two tables alike in public while they are played,
and after the end it shows each table's truth."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from engine import PUBLIC, get_game
from live import policy, selectors, services
from live.models import Table
from tests.live.conftest import CRYPTID, seats
from tests.live.sockets import connect, run, sync, take
from tests.live.test_stream_secrets import deal_as
from tests.live.twins import first_walked, seat_ids

pytestmark = [pytest.mark.live]

#: Cryptid deals the public cannot tell apart while they are played (test_stream_secrets).
ONE, TWO = (1, {}), (10, {})


def _play_to_the_end(table: Table, holder: dict) -> Table:
    for _ in range(60):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            return table
        position = services.position_of(table)
        seat = position.to_act[0]
        action = first_walked(position.session.legal_actions(seat, seat))
        services.play(
            table.pk, services.Move(user=holder[seat], seen=table.last_event, action=action)
        )
    raise AssertionError("the scripted game did not end")


def watched_to_the_end(club, people, monkeypatch, deal) -> tuple[list[str], list[str]]:
    """A watcher's socket over a scripted Cryptid game, split into what it got while the
    game was played and what it got from the end on."""
    first, second = seat_ids(CRYPTID)
    holder = {first: people["ann"], second: people["ben"]}
    with monkeypatch.context() as patched:
        deal_as(patched, deal)

        async def scenario() -> tuple[list[str], list[str]]:
            playing: list[str] = []
            table = await sync(services.open_table)(
                club, people["ann"], game_id=CRYPTID, seats=seats(CRYPTID, "me", "free")
            )
            socket = await connect(table.pk, people["cat"])
            await take(socket, playing)
            table = await sync(services.take_seat)(table.pk, people["ben"])
            await take(socket, playing)
            ended: list[str] = []
            for _ in range(60):
                table = await sync(Table.objects.get)(pk=table.pk)
                if table.status != Table.Status.PLAYING:
                    break
                position = await sync(services.position_of)(table)
                seat = position.to_act[0]
                action = first_walked(position.session.legal_actions(seat, seat))
                await sync(services.play)(
                    table.pk, services.Move(user=holder[seat], seen=table.last_event, action=action)
                )
                text = await take(socket, [])
                (ended if json.loads(text)["status"] == "finished" else playing).append(text)
            await socket.disconnect()
            return playing, ended

        return run(scenario)


@pytest.mark.django_db(transaction=True)
def test_a_watchers_stream_is_the_same_for_twins_in_play_and_the_truth_after(
    club, people, monkeypatch
):
    playing_one, ended_one = watched_to_the_end(club, people, monkeypatch, ONE)
    playing_two, ended_two = watched_to_the_end(club, people, monkeypatch, TWO)
    assert playing_one == playing_two
    assert all(json.loads(text)["eyes"] == PUBLIC for text in playing_one)
    assert ended_one and ended_two
    last_one, last_two = json.loads(ended_one[-1]), json.loads(ended_two[-1])
    assert last_one["eyes"] == last_two["eyes"] == policy.ALL
    # The truth: the all-seeing view of each table's game, which differ.
    truths = []
    for deal in (ONE, TWO):
        table = Table.objects.filter(status=Table.Status.FINISHED).order_by("-id")
        table = table[0] if deal is TWO else table[1]
        position = services.position_of(table)
        truths.append(get_game(CRYPTID).view(position.session.state, None))
    assert last_one["position"]["frame"]["view"] == truths[0]
    assert last_two["position"]["frame"]["view"] == truths[1]
    assert truths[0] != truths[1]


@pytest.mark.django_db
def test_the_clubs_delay_keeps_watchers_on_the_public_view_until_it_passes(club, people):
    club.watchers_see_all_after = 30
    club.save()
    first, second = seat_ids(CRYPTID)
    table = services.open_table(
        club, people["ann"], game_id=CRYPTID, seats=seats(CRYPTID, "me", "free")
    )
    table = services.take_seat(table.pk, people["ben"])
    assert policy.eyes(people["cat"], table) == PUBLIC
    table = _play_to_the_end(table, {first: people["ann"], second: people["ben"]})
    table = selectors.table_for(people["cat"], table.pk)
    # The seats see everything at once; the watcher after 30 minutes.
    assert policy.eyes(people["ann"], table) == policy.ALL
    assert policy.eyes(people["ben"], table) == policy.ALL
    assert policy.eyes(people["cat"], table) == PUBLIC
    news = selectors.news(table, policy.eyes(people["cat"], table), 0)
    assert news["eyes"] == PUBLIC and news["sees_all_later"] is True
    public = services.position_of(table).session.view(PUBLIC)
    assert news["position"]["frame"]["view"] == public
    later = timezone.now() + timedelta(minutes=31)
    assert policy.eyes(people["cat"], table, now=later) == policy.ALL
    assert policy.eyes(people["cat"], table, now=later - timedelta(minutes=2)) == PUBLIC
    everything = selectors.news(table, policy.ALL, 0)
    assert "sees_all_later" not in everything
    assert everything["position"]["frame"]["view"] != public


@pytest.mark.django_db
def test_a_member_watches_a_game_in_progress_from_the_public_view(club, people):
    from django.test import Client

    table = services.open_table(
        club, people["ann"], game_id=CRYPTID, seats=seats(CRYPTID, "me", "free")
    )
    services.take_seat(table.pk, people["ben"])
    client = Client()
    client.force_login(people["cat"])
    news = client.get(f"/api/tables/{table.pk}/news/?since=0").json()
    assert news["eyes"] == PUBLIC and news["position"]["your_turn"] is False
    outsider = Client()
    outsider.force_login(people["outsider"])
    assert outsider.get(f"/api/tables/{table.pk}/news/?since=0").status_code in (403, 404)


@pytest.mark.django_db
def test_an_organiser_sets_the_delay_and_guests_on_the_manage_page(club, people):
    from django.test import Client

    from clubs.models import Membership

    Membership.objects.filter(user=people["ann"], club=club).update(role="organiser")
    url = f"/clubs/{club.slug}/live-tables/"
    member = Client()
    member.force_login(people["ben"])
    assert member.post(url, {"watchers_see_all_after": "5"}).status_code in (403, 404)
    organiser = Client()
    organiser.force_login(people["ann"])
    page = organiser.get(f"/clubs/{club.slug}/manage/")
    assert 'name="watchers_see_all_after"' in page.content.decode()
    organiser.post(url, {"watchers_see_all_after": "15", "guests_at_tables": "on"})
    club.refresh_from_db()
    assert (club.watchers_see_all_after, club.guests_at_tables) == (15, True)
    for bad in ("-1", "ten", "999999"):
        organiser.post(url, {"watchers_see_all_after": bad})
        club.refresh_from_db()
        assert club.watchers_see_all_after == 15  # refused, nothing lost
    assert club.audit_entries.filter(action="club.watchers_see_all_after").exists()
