"""Clocks and absence at a live table (docs/live.md, "Clocks and absence"; the endings are
LIVE-1 of docs/rules/log-format.md): a clock charged exactly from the moment it became the
seat's turn, the increment, time-outs that lose for the side or hand the seat to a bot,
correspondence days, a stale countdown, claims after the grace period (once), the idle end.
Time is a fixed clock the tests move (``live.clocks.now``)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from games.models import Match, MatchLog
from live import clocks, endings, services, tasks
from live.models import Table, TableEvent, TableSeat
from tests.live.conftest import CLOAK, CRYPTID, MX, play_out, seats
from tests.live.test_api import token_client

pytestmark = pytest.mark.django_db


class FixedClock:
    """The time the services read, moved only by the test."""

    def __init__(self) -> None:
        self.at = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.at

    def tick(self, **delta: float) -> None:
        self.at += timedelta(**delta)


@pytest.fixture
def clock(monkeypatch) -> FixedClock:
    fixed = FixedClock()
    monkeypatch.setattr(clocks, "now", fixed)
    return fixed


def two_people(club, people, game: str, control: dict | None) -> Table:
    table = services.open_table(
        club, people["ann"], game_id=game, seats=seats(game, "me", "free"), clock=control
    )
    return services.take_seat(table.pk, people["ben"])


def seat_row(table: Table, seat: str) -> TableSeat:
    return TableSeat.objects.get(table=table, seat=seat)


def move(table: Table, user: Any, rng: random.Random) -> str:
    """The seat ``user`` holds plays a random legal move; returns that seat."""
    table.refresh_from_db()
    position = services.position_of(table)
    seat = next(s.seat for s in table.seats.all() if s.user_id == user.pk)
    assert seat in position.to_act
    action = rng.choice(position.session.legal_actions(seat, seat))
    services.play(table.pk, services.Move(user=user, seen=table.last_event, action=action))
    return seat


def to_act(table: Table) -> list[str]:
    table.refresh_from_db()
    return services.position_of(table).to_act


def holder(table: Table, seat: str) -> Any:
    return seat_row(table, seat).user


# --- charging ---------------------------------------------------------------------------------


def test_a_real_time_clock_is_charged_exactly_and_gets_its_increment(club, people, clock):
    table = two_people(club, people, CRYPTID, {"kind": "realtime", "minutes": 5, "increment": 3})
    first = to_act(table)[0]
    other = next(s for s in ("cryptid", "scientist") if s != first)
    row = seat_row(table, first)
    assert row.clock_ms == 300_000 and row.turn_since == clock.at
    assert seat_row(table, other).turn_since is None
    clock.tick(seconds=7.25)
    move(table, holder(table, first), random.Random(1))
    row = seat_row(table, first)
    expected = 300_000 - 7_250 + 3_000
    if first in to_act(table):  # still its turn: charged, increment given, running again
        assert row.clock_ms == expected and row.turn_since == clock.at
    else:
        assert row.clock_ms == expected and row.turn_since is None
        assert seat_row(table, other).turn_since == clock.at
    # The figures every seat is sent count the running clock down to this moment.
    clock.tick(seconds=2)
    table.refresh_from_db()
    figures = clocks.figures(table, list(table.seats.all()), clock.at)
    running = [seat for seat, c in figures["clocks"].items() if c["running"]]
    assert running == to_act(table)
    for seat in running:
        row = seat_row(table, seat)
        assert figures["clocks"][seat]["left_ms"] == row.clock_ms - 2_000 - int(
            (clock.at - timedelta(seconds=2) - row.turn_since).total_seconds() * 1000
        )
    assert figures["control"]["grace_s"] == 120


def test_the_club_page_and_the_lobby_say_the_clock(club, people, client, clock):
    services.open_table(
        club,
        people["ann"],
        game_id=CRYPTID,
        seats=seats(CRYPTID, "me", "free"),
        clock={"kind": "realtime", "minutes": 5, "increment": 3},
    )
    waiting = services.open_table(
        club,
        people["ben"],
        game_id=CRYPTID,
        seats=seats(CRYPTID, "me", "free"),
        clock={"kind": "correspondence", "days": 3},
    )
    client.force_login(people["cat"])
    page = client.get("/clubs/riverside/?lang=ru").content.decode()
    assert "реальное время 5 + 3" in page and "3 дня на ход" in page
    lobby = client.get(f"/clubs/riverside/tables/{waiting.pk}/?lang=ja").content.decode()
    assert "持ち時間：1 手 3 日。" in lobby


def test_an_untimed_table_has_no_clocks_and_the_database_checks_a_control(club, people, clock):
    table = two_people(club, people, CRYPTID, None)
    assert table.clock == "none" and all(s.clock_ms is None for s in table.seats.all())
    with pytest.raises(services.TableInvalid) as caught:
        services.open_table(
            club,
            people["ann"],
            game_id=CRYPTID,
            seats=seats(CRYPTID, "me", "free"),
            clock={"kind": "realtime", "minutes": 500},
        )
    assert caught.value.details["field"] == "minutes"
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.filter(pk=table.pk).update(clock="realtime", clock_minutes=0)


# --- time-outs ----------------------------------------------------------------------------------


def test_live_1_1_a_time_out_loses_for_the_side_and_is_rated(club, people, clock):
    table = two_people(club, people, MX, {"kind": "realtime", "minutes": 1})
    assert to_act(table) == ["mrx"]
    clock.tick(seconds=59)
    endings.settle_due(table.pk)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING  # not yet
    clock.tick(seconds=1)
    endings.settle_due(table.pk)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert (table.ending, table.ended_seat) == ("time", "mrx")
    assert seat_row(table, "mrx").clock_ms == 0
    assert table.events.order_by("-number").first().kind == TableEvent.Kind.FINISHED
    match = Match.objects.get(pk=table.match_id)
    assert match.status == Match.Status.VALID and match.winner == "detectives"
    assert match.result == {"winner": "detectives", "reason": "time", "seat": "mrx"}
    document = MatchLog.objects.get(match=match).document
    assert document["end"] == {"reason": "time", "seat": "mrx"}
    # A move after the end is refused as at any finished table.
    with pytest.raises(services.ClosedTable):
        services.play(
            table.pk,
            services.Move(user=people["ann"], seen=table.last_event, action={"seat": "mrx"}),
        )


def test_a_move_made_after_the_clock_fell_is_refused(club, people, clock):
    table = two_people(club, people, MX, {"kind": "realtime", "minutes": 1})
    clock.tick(seconds=61)
    position = services.position_of(table)
    action = position.session.legal_actions("mrx", "mrx")[0]
    with pytest.raises(services.TimeRanOut):
        services.play(
            table.pk, services.Move(user=people["ann"], seen=table.last_event, action=action)
        )


def test_live_1_5_a_bot_takes_over_a_seat_whose_time_ran_out(club, people, clock):
    control = {"kind": "realtime", "minutes": 2, "increment": 0, "on_time_out": "bot"}
    table = two_people(club, people, CRYPTID, control)
    late = to_act(table)[0]
    before = seat_row(table, late).player
    clock.tick(seconds=121)
    tasks.settle_table(table.pk)
    table.refresh_from_db()
    row = seat_row(table, late)
    assert table.status in (Table.Status.PLAYING, Table.Status.FINISHED) and table.ending == ""
    assert row.user_id is None and row.bot == "greedy" and row.player == "bot-greedy"
    assert table.takeovers == [{"seat": late, "player": before, "reason": "time", "at": 0}]
    assert table.events.filter(kind="seated", seat=late).count() == 2
    stayed = next(s for s in table.seats.all() if s.user_id is not None)
    table = play_out(table, {stayed.seat: stayed.user}, random.Random(4))
    assert table.status == Table.Status.FINISHED
    document = MatchLog.objects.get(match_id=table.match_id).document
    entry = next(e for e in document["seats"] if e["seat"] == late)
    assert entry["bot"] == "greedy" and entry["player"] == "bot-greedy"
    assert document["meta"]["live"]["takeovers"][0]["seat"] == late
    assert "end" not in document


def test_a_time_out_past_the_bots_budget_loses_instead_of_failing_the_read(
    club, people, clock, monkeypatch
):
    from config.errors import OverBudget

    def spent(user):
        raise OverBudget("no more bot moves this minute", retry_after=30, limit=1)

    table = two_people(club, people, MX, {"kind": "realtime", "minutes": 1, "on_time_out": "bot"})
    monkeypatch.setattr(services.budgets, "admit_bot_moves", spent)
    clock.tick(minutes=2)
    api = token_client(people["ben"])
    assert api.get(f"/api/tables/{table.pk}/news/").status_code == 200
    table.refresh_from_db()
    assert (table.status, table.ending, table.ended_seat, table.takeovers) == (
        "finished",
        "time",
        "mrx",
        [],
    )
    assert seat_row(table, "mrx").bot == ""


def test_live_1_4_in_a_free_for_all_a_bot_takes_the_seat_over(club, people, clock):
    table = services.open_table(
        club,
        people["ann"],
        game_id=CLOAK,
        seats=seats(CLOAK, "me", "free", "free"),
        clock={"kind": "realtime", "minutes": 1},
    )
    services.take_seat(table.pk, people["ben"])
    table = services.take_seat(table.pk, people["cat"])
    late = to_act(table)[0]
    clock.tick(minutes=2)
    endings.settle(table.pk)
    table.refresh_from_db()
    # "loses" was chosen, but one of three losing makes no single winner: a bot plays on.
    assert table.status == Table.Status.PLAYING and seat_row(table, late).bot == "greedy"
    assert table.takeovers[0]["reason"] == "time"


def test_correspondence_gives_days_for_each_move(club, people, clock):
    table = two_people(club, people, CRYPTID, {"kind": "correspondence", "days": 2})
    first = to_act(table)[0]
    assert seat_row(table, first).clock_ms == 2 * 86_400_000
    clock.tick(days=1)
    move(table, holder(table, first), random.Random(2))
    now_to_act = to_act(table)[0]
    assert seat_row(table, now_to_act).clock_ms == 2 * 86_400_000  # a whole move's days
    assert seat_row(table, now_to_act).turn_since == clock.at
    clock.tick(hours=47)
    endings.settle_due(table.pk)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    clock.tick(hours=1)
    endings.settle_due(table.pk)
    table.refresh_from_db()
    assert (table.status, table.ending, table.ended_seat) == ("finished", "time", now_to_act)


def test_a_stale_countdown_does_nothing(club, people, clock):
    table = two_people(club, people, CRYPTID, {"kind": "realtime", "minutes": 1})
    table.refresh_from_db()
    stale = table.due_at
    first = to_act(table)[0]
    clock.tick(seconds=10)
    move(table, holder(table, first), random.Random(5))
    table.refresh_from_db()
    assert table.due_at > stale
    last = table.last_event
    clock.at = stale + timedelta(milliseconds=50)  # when the first countdown runs
    tasks.settle_table(table.pk)
    table.refresh_from_db()
    assert (table.status, table.last_event) == (Table.Status.PLAYING, last)
    # ... and the one that is due now ends it, once.
    clock.at = table.due_at
    tasks.settle_table(table.pk)
    tasks.settle_table(table.pk)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert table.events.filter(kind="finished").count() == 1


def test_the_sweep_settles_the_tables_something_fell_due_at(club, people, clock):
    table = two_people(club, people, CRYPTID, {"kind": "realtime", "minutes": 1})
    assert tasks.settle_due_tables() == 0
    clock.tick(minutes=2)
    assert tasks.settle_due_tables() == 1
    table.refresh_from_db()
    assert table.ending == "time"


# --- absence and claims -------------------------------------------------------------------------


def test_live_1_2_a_claim_after_the_grace_period_wins_once(club, people, clock):
    table = two_people(club, people, CRYPTID, {"kind": "realtime", "minutes": 30})
    ann_seat = seat_row(table, "cryptid")
    assert ann_seat.user == people["ann"]
    endings.arrive(table.pk, people["ben"])
    endings.arrive(table.pk, people["ben"])  # a second tab
    for _ in range(10):  # his pages say "here" every minute
        clock.tick(minutes=1)
        endings.seen(table.pk, people["ben"])
    with pytest.raises(endings.NoClaim) as caught:
        endings.claim(table.pk, people["ann"])
    assert caught.value.code == "nobody_away"
    endings.leave(table.pk, people["ben"])  # one tab closed: still here
    with pytest.raises(endings.NoClaim) as caught:
        endings.claim(table.pk, people["ann"])
    assert caught.value.code == "nobody_away"
    endings.leave(table.pk, people["ben"])
    clock.tick(seconds=60)
    with pytest.raises(endings.NoClaim) as caught:
        endings.claim(table.pk, people["ann"])
    assert caught.value.code == "too_early" and caught.value.details["wait_s"] == 61
    api = token_client(people["ann"])
    refused = api.post(f"/api/tables/{table.pk}/claim/", {}, format="json")
    assert refused.status_code == 409 and refused.json()["error"] == "too_early"
    clock.tick(seconds=61)
    news = api.get(f"/api/tables/{table.pk}/news/").json()
    assert news["presence"]["scientist"] == "gone" and news["claimable"] == ["scientist"]
    claimed = api.post(f"/api/tables/{table.pk}/claim/", {}, format="json")
    assert claimed.status_code == 200, claimed.json()
    assert claimed.json()["ending"] == {"reason": "claim", "seat": "scientist"}
    table.refresh_from_db()
    assert (table.status, table.ending, table.ended_seat) == ("finished", "claim", "scientist")
    match = Match.objects.get(pk=table.match_id)
    assert match.winner == "cryptid" and match.result["reason"] == "claim"
    again = api.post(f"/api/tables/{table.pk}/claim/", {}, format="json")
    assert again.status_code == 409 and again.json()["error"] == "closed"
    assert Match.objects.filter(club=club).count() == 1


def test_a_socket_silent_for_minutes_counts_away(club, people, clock):
    """A socket whose server process died never closes: without a word from its page for
    a few minutes its seat is away, then gone, like any other."""
    table = two_people(club, people, CRYPTID, None)
    endings.arrive(table.pk, people["ben"])
    clock.tick(minutes=2)
    with pytest.raises(endings.NoClaim) as caught:
        endings.claim(table.pk, people["ann"])
    assert caught.value.code == "nobody_away"
    # Past the silence allowed, the seat counts away since its last word, three minutes
    # ago: longer than the grace period, so it may be claimed at once.
    clock.tick(minutes=1, seconds=1)
    endings.claim(table.pk, people["ann"])
    table.refresh_from_db()
    assert (table.ending, table.ended_seat) == ("claim", "scientist")


def test_a_countdown_is_sent_on_commit_unless_tasks_run_eagerly(club, people, clock, monkeypatch):
    from config.queueing import registered

    task = registered("live.settle_table")
    sent: list[tuple] = []
    monkeypatch.setattr(task, "apply_async", lambda args, **options: sent.append((args, options)))
    table = two_people(club, people, CRYPTID, {"kind": "realtime", "minutes": 1})
    table.refresh_from_db()
    clocks.schedule(table.pk, table.due_at)
    assert sent == []  # eager (no Redis): the page's read at zero and the sweep settle it
    monkeypatch.setitem(task.app.conf, "task_always_eager", False)
    clock.tick(seconds=20)
    clocks.schedule(table.pk, table.due_at)
    assert sent == [((table.pk,), {"countdown": 40.05, "ignore_result": True})]
    clocks.schedule(table.pk, clock.at + timedelta(hours=2))  # the sweep's, not a countdown
    assert len(sent) == 1


def test_a_correspondence_table_has_no_claims(club, people, clock):
    table = two_people(club, people, CRYPTID, {"kind": "correspondence", "days": 3})
    clock.tick(hours=5)
    with pytest.raises(endings.NoClaim) as caught:
        endings.claim(table.pk, people["ann"])
    assert caught.value.code == "no_claims"


def test_polling_for_news_counts_as_being_here(club, people, clock):
    table = two_people(club, people, CRYPTID, None)
    ben = token_client(people["ben"])
    for _ in range(10):
        clock.tick(seconds=20)
        ben.get(f"/api/tables/{table.pk}/news/")
    with pytest.raises(endings.NoClaim) as caught:
        endings.claim(table.pk, people["ann"])
    assert caught.value.code == "nobody_away"


# --- idle ----------------------------------------------------------------------------------------


def test_live_1_6_a_table_nobody_moves_at_ends_without_a_result(club, people, clock, settings):
    settings.LIVE_IDLE_AFTER = 3600
    table = two_people(club, people, CRYPTID, None)
    waiting = services.open_table(
        club, people["cat"], game_id=CRYPTID, seats=seats(CRYPTID, "me", "free")
    )
    clock.tick(minutes=59)
    assert tasks.settle_due_tables() == 0
    clock.tick(minutes=1)
    endings.settle_due(table.pk)
    assert tasks.settle_due_tables() == 1  # the table waiting for players too
    for each in (table, waiting):
        each.refresh_from_db()
        assert (each.status, each.ending, each.match_id) == ("abandoned", "idle", None)
        assert each.events.order_by("-number").first().kind == TableEvent.Kind.ABANDONED


# --- the API --------------------------------------------------------------------------------------


def test_the_api_opens_a_timed_table_and_its_schema_says_so(club, people, client, clock):
    api = token_client(people["ann"])
    opened = api.post(
        "/api/tables/",
        {
            "club": "riverside",
            "game": CRYPTID,
            "seats": seats(CRYPTID, "me", "free"),
            "clock": {"kind": "realtime", "minutes": 10, "increment": 5, "on_time_out": "bot"},
        },
        format="json",
    )
    assert opened.status_code == 201, opened.json()
    assert opened.json()["clock"] == {
        "kind": "realtime",
        "minutes": 10,
        "increment": 5,
        "days": None,
        "on_time_out": "bot",
        "grace_s": 120,
    }
    bad = api.post(
        "/api/tables/",
        {
            "club": "riverside",
            "game": CRYPTID,
            "seats": seats(CRYPTID, "me", "free"),
            "clock": {"kind": "correspondence", "days": 40},
        },
        format="json",
    )
    assert bad.status_code == 400
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    assert "/api/tables/{table_id}/claim/" in schema["paths"]
    opening = schema["components"]["schemas"]["OpenTableRequest"]["properties"]
    assert "clock" in opening
