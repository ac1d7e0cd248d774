"""Tables: opened with seats for the opener, members to come and bots; dealt when the
last seat is taken; played seat by seat with numbered events; stored as a match through
ingest_log when the game ends."""

from __future__ import annotations

import random

import pytest

from games.models import Match, Upload
from live import services
from live.models import Table, TableEvent
from tests.live.conftest import CLOAK, CRYPTID, MX, play_out, seats

pytestmark = pytest.mark.django_db


def test_a_table_waits_for_its_free_seats_then_deals(club, people):
    table = services.open_table(
        club, people["ann"], game_id=CRYPTID, seats=seats(CRYPTID, "me", "free")
    )
    assert table.status == Table.Status.OPEN and table.seed is None
    assert [e.kind for e in table.events.all()] == ["seated"]
    table = services.take_seat(table.pk, people["ben"])
    assert table.status == Table.Status.PLAYING and table.seed is not None
    kinds = [e.kind for e in table.events.order_by("number")]
    assert kinds[:3] == ["seated", "seated", "started"]
    assert [e.number for e in table.events.order_by("number")] == list(
        range(1, table.last_event + 1)
    )
    with pytest.raises(services.ClosedTable):
        services.take_seat(table.pk, people["cat"])


def test_a_finished_table_is_a_match_through_ingest(club, people):
    table = services.open_table(
        club, people["ann"], game_id=CRYPTID, seats=seats(CRYPTID, "me", "free")
    )
    table = services.take_seat(table.pk, people["ben"])
    by_seat = {s.seat: s.user for s in table.seats.all()}
    table = play_out(table, by_seat, random.Random(3))
    assert table.status == Table.Status.FINISHED
    match = Match.objects.get(pk=table.match_id)
    assert match.club == club and match.status == Match.Status.VALID
    assert Upload.objects.filter(source=Upload.Source.LIVE, match=match).exists()
    assert table.events.order_by("-number").first().kind == TableEvent.Kind.FINISHED


def test_against_bots_the_game_starts_at_once_and_bots_reply(club, people, monkeypatch):
    # A deal of its own: Mister X ends only when caught or home (MX-4.3), and with random
    # detectives some deals run past the longest log a table may hold (LOG-LENGTH).
    monkeypatch.setattr(services.secrets, "randbelow", lambda limit: 20261129 % limit)
    table = services.open_table(club, people["ann"], game_id=MX, seats=seats(MX, "bot", "me"))
    assert table.status == Table.Status.PLAYING
    # Mister X (a bot) moves first: its move is an event before the person's turn.
    assert table.events.filter(kind="move").exists()
    table = play_out(table, {"det1": people["ann"]}, random.Random(1))
    assert table.status == Table.Status.FINISHED and table.match_id is not None


def test_a_move_for_another_seat_or_against_an_old_event_is_refused(club, people):
    table = services.open_table(
        club, people["ann"], game_id=CRYPTID, seats=seats(CRYPTID, "me", "free")
    )
    table = services.take_seat(table.pk, people["ben"])
    position = services.position_of(table)
    seat = position.to_act[0]
    holder = next(s.user for s in table.seats.all() if s.seat == seat)
    other = next(s.user for s in table.seats.all() if s.seat != seat)
    action = position.session.legal_actions(seat, seat)[0]
    with pytest.raises(services.TableIllegal) as refused:
        services.play(table.pk, services.Move(user=other, seen=table.last_event, action=action))
    assert refused.value.rule == services.LIVE_SEAT
    with pytest.raises(services.StaleTable):
        services.play(
            table.pk, services.Move(user=holder, seen=table.last_event - 1, action=action)
        )
    table.refresh_from_db()
    assert table.actions == []


def test_a_pick_is_an_event_but_never_in_the_log(club, people):
    table = services.open_table(
        club, people["ann"], game_id=CLOAK, seats=seats(CLOAK, "me", "free")
    )
    table = services.take_seat(table.pk, people["ben"])
    users = {s.seat: s.user for s in table.seats.all()}
    for _ in range(50):  # play on until a seat's choice is a pick (an envelope to open)
        position = services.position_of(table)
        seat = position.to_act[0]
        first = position.session.legal_actions(seat, seat)[0]
        if first["type"] == "open":
            break
        table = services.play(
            table.pk, services.Move(user=users[seat], seen=table.last_event, action=first)
        )
    assert first["type"] == "open"
    logged = list(table.actions)
    table = services.play(
        table.pk, services.Move(user=users[seat], seen=table.last_event, action=first)
    )
    assert table.actions == logged and seat in table.opened
    assert table.events.order_by("-number").first().kind == TableEvent.Kind.OPENED


def test_opening_refuses_what_the_game_does_not_have(club, people):
    with pytest.raises(services.TableIllegal):
        services.open_table(
            club, people["ann"], game_id=CRYPTID, seats=seats(CRYPTID, "bot", "bot")
        )
    with pytest.raises(services.TableIllegal):
        services.open_table(
            club,
            people["ann"],
            game_id=CRYPTID,
            seats=[{"seat": "scientist", "take": "me"}, {"seat": "cryptid", "take": "free"}],
        )
    with pytest.raises(services.TableInvalid):
        services.open_table(
            club, people["ann"], game_id="chess", seats=seats(CRYPTID, "me", "free")
        )


def test_news_drawn_from_a_table_read_before_a_move_stops_at_that_reads_last_event(club, people):
    """A socket reads the table, then its events: a move committed between the two has no
    entry in the moves it read. Its news stops at the table as read; the push that follows
    that move's commit brings the rest."""
    from live import selectors

    table = services.open_table(club, people["ann"], game_id=MX, seats=seats(MX, "me", "free"))
    table = services.take_seat(table.pk, people["ben"])
    read_before = selectors.table_for(people["cat"], table.pk)
    by_seat = {"mrx": people["ann"], "det1": people["ben"]}
    seat = services.position_of(table).to_act[0]
    action = random.Random(1).choice(services.position_of(table).session.legal_actions(seat, seat))
    services.play(table.pk, services.Move(user=by_seat[seat], seen=table.last_event, action=action))
    body = selectors.news(read_before, "public", 0)
    assert [event["n"] for event in body["events"]] == list(range(1, read_before.last_event + 1))
    assert body["n"] == read_before.last_event
    after = selectors.news(selectors.table_for(people["cat"], table.pk), "public", body["n"])
    assert [event["kind"] for event in after["events"]] == ["move"]


@pytest.mark.parametrize(("limit", "filled_by"), [(12, "mrx"), (15, "det1")])
def test_log_length_a_full_log_ends_the_table_as_an_unfinished_match(
    club, people, monkeypatch, limit, filled_by
):
    """A game the rules let go on (Mister X ends only when caught or home, MX-4.3) stops
    where a log must (LOG-LENGTH): the table ends and its game is stored unfinished, as
    the recorder stores one, whether a person's move or a bot's fills the log."""
    from recorder import services as steps

    monkeypatch.setattr(services.secrets, "randbelow", lambda top: 20261129 % top)
    monkeypatch.setattr(services, "MAX_ACTIONS", limit)
    monkeypatch.setattr(steps, "MAX_ACTIONS", limit)
    table = services.open_table(club, people["ann"], game_id=MX, seats=seats(MX, "bot", "me"))
    table = play_out(table, {"det1": people["ann"]}, random.Random(2), limit=limit)
    assert table.status == Table.Status.FINISHED
    assert table.ending == Table.Ending.FULL
    assert len(table.actions) == limit
    assert table.actions[-1]["seat"] == filled_by  # the bot's move, or the person's
    match = Match.objects.get(pk=table.match_id)
    assert match.status == Match.Status.UNFINISHED
    assert match.result is None and match.action_count == limit
