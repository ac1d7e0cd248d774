"""An event's rounds played online have a clock (issue #36, items 4 and 6): the organiser
chooses the time control (as a table's opener does: real time minutes + increment, or days
per move), the event keeps it, and each pairing's table gets it; a clock ending closes a
table whose player is absent, and its result enters the standings as any table's. Time is
a fixed clock the test moves (``live.clocks.now``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from rest_framework.test import APIClient

from games.models import MatchLog
from live import clocks, endings
from live.models import Table
from tests.tournaments.test_play_online import running  # noqa: F401 (a fixture)
from tournaments import online, selectors
from tournaments.models import Pairing, Tournament
from tournaments.services import TournamentError

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_each_table_of_a_round_gets_the_organisers_time_control(running, organiser):  # noqa: F811
    online.set_round_clock(running, {"kind": "realtime", "minutes": 5, "increment": 3})
    started = online.start_round_online(running, organiser)
    assert len(started.tables) == 2
    for table in started.tables:
        table.refresh_from_db()
        assert (table.clock, table.clock_minutes, table.clock_increment) == ("realtime", 5, 3)
        assert table.on_time_out == Table.OnTimeOut.LOSE
        assert [s.clock_ms for s in table.seats.all()] == [300_000, 300_000]
        assert table.due_at is not None  # the running clock's fall is due


def test_the_round_page_chooses_the_clock_and_the_event_page_shows_it(running, organiser):  # noqa: F811
    round_page = _client(organiser).get(f"/tournaments/{running.pk}/rounds/1/").content.decode()
    assert 'name="clock"' in round_page and 'value="correspondence:3"' in round_page
    answer = _client(organiser).post(
        f"/tournaments/{running.pk}/play-online", {"clock": "correspondence:3"}
    )
    assert answer.status_code == 302
    running.refresh_from_db()
    assert (running.clock, running.clock_days) == ("correspondence", 3)
    tables = Table.objects.filter(pairing__tournament=running)
    assert tables.count() == 2
    assert {(t.clock, t.clock_days) for t in tables} == {("correspondence", 3)}
    detail = _client(organiser).get(f"/tournaments/{running.pk}/").content.decode()
    assert "3 days per move" in detail
    # A choice the form does not offer is refused, and changes nothing.
    _client(organiser).post(f"/tournaments/{running.pk}/play-online", {"clock": "realtime:999+0"})
    running.refresh_from_db()
    assert (running.clock, running.clock_days) == ("correspondence", 3)


def test_the_create_form_and_the_api_keep_the_clock(club, organiser):
    answer = _client(organiser).post(
        f"/clubs/{club.slug}/tournaments/new/",
        {
            "name": "Autumn Cup",
            "game": "cryptid-urban-legends",
            "format": "swiss",
            "rounds": "3",
            "bye_points": "1",
            "clock": "realtime:10+5",
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    event = Tournament.objects.get(name="Autumn Cup")
    assert (event.clock, event.clock_minutes, event.clock_increment) == ("realtime", 10, 5)
    api = APIClient()
    api.force_authenticate(organiser)
    body = {
        "club": club.slug,
        "name": "Winter Ladder",
        "game": "cryptid-urban-legends",
        "format": "swiss",
        "rounds": 2,
        "clock": {"kind": "correspondence", "days": 2},
    }
    created = api.post("/api/tournaments/", body, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["clock"]["kind"] == "correspondence"
    assert created.json()["clock"]["days"] == 2
    for bad in (
        {"kind": "realtime"},
        {"kind": "realtime", "minutes": 500},
        {"kind": "correspondence", "days": 2, "on_time_out": "bot"},
    ):
        refused = api.post(
            "/api/tournaments/", {**body, "name": "Bad", "clock": bad}, format="json"
        )
        assert refused.status_code in (400, 422), (bad, refused.content)
        assert refused.json()["message"]
    assert not Tournament.objects.filter(name="Bad").exists()  # nothing half made


def test_the_database_keeps_an_events_clock_in_shape(running):  # noqa: F811
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.filter(pk=running.pk).update(clock="realtime", clock_minutes=None)
    with pytest.raises(TournamentError):
        online.set_round_clock(running, {"kind": "sundial"})


def test_live_1_1_a_time_out_at_an_events_table_enters_the_standings(
    running,  # noqa: F811
    organiser,
    monkeypatch,
    django_capture_on_commit_callbacks,
):
    at = [datetime(2026, 11, 29, 12, 0, tzinfo=UTC)]
    monkeypatch.setattr(clocks, "now", lambda: at[0])
    online.set_round_clock(running, {"kind": "realtime", "minutes": 3, "increment": 2})
    online.start_round_online(running, organiser)
    pairing = selectors.pairings(running, 1).select_related("table").first()
    table = pairing.table
    absent = table.seats.get(seat=endings_first_to_act(table))
    # The player to act never comes: their 3 minutes run out.
    at[0] += timedelta(minutes=3, seconds=1)
    with django_capture_on_commit_callbacks(execute=True):
        endings.settle_due(table.pk)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert (table.ending, table.ended_seat) == ("time", absent.seat)
    document = MatchLog.objects.get(match_id=table.match_id).document
    assert document["end"] == {"reason": "time", "seat": absent.seat}
    pairing.refresh_from_db()
    assert pairing.status == Pairing.Status.PLAYED and pairing.match_id == table.match_id
    points = {
        s.entry.player.handle: s.points for s in pairing.seats.select_related("entry__player")
    }
    assert points[absent.player] == 0.0
    assert sorted(points.values()) == [0.0, 1.0]
    standings = {row.entrant.name: row.points for row in selectors.standings(running)}
    for handle, won in points.items():
        assert standings[handle] == won


def endings_first_to_act(table: Table) -> str:
    from live import services

    return services.position_of(table).to_act[0]
