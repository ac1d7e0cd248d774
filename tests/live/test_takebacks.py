"""Take-backs the opponents agree to (issue #36, item 3): a seat asks to take back its last
move, the other seat agrees, and the engine's undo takes it back; refused at a table with
a bot, for a move that is not the asker's last, and for a move in which chance drew
something hidden. Across a take-back, counterfactual twins still send every pair of eyes
byte-identical streams, and a client catching up is never sent the move taken back."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from engine import PUBLIC
from live import selectors, services, takebacks
from live.models import Table, TableEvent
from tests.live.conftest import CLOAK, MX, seats
from tests.live.sockets import connect, run, sync, take
from tests.live.test_stream_secrets import TWINS, deal_as
from tests.live.twins import first_walked, seat_ids

pytestmark = [pytest.mark.live]


def _move(table: Table, user) -> Table:
    table.refresh_from_db()
    position = services.position_of(table)
    seat = position.to_act[0]
    action = first_walked(position.session.legal_actions(seat, seat))
    return services.play(table.pk, services.Move(user=user, seen=table.last_event, action=action))


def _two_person_table(club, people, game=CLOAK) -> Table:
    table = services.open_table(club, people["ann"], game_id=game, seats=seats(game, "me", "free"))
    return services.take_seat(table.pk, people["ben"])


@pytest.mark.django_db
def test_an_agreed_takeback_removes_the_move_and_gives_the_turn_back(club, people):
    table = _two_person_table(club, people)
    first, second = seat_ids(CLOAK)
    holder = {first: people["ann"], second: people["ben"]}
    table = _move(table, holder[first])  # p1 drops
    before = list(table.actions)
    table = _move(table, holder[second])  # p2 drops
    assert len(table.actions) == 2
    table = takebacks.ask(table.pk, holder[second])
    assert table.takeback_by == second
    news = selectors.news(table, first, 0)
    assert news["takeback"] == {"by": second, "agreed": [], "waiting": [first]}
    table = takebacks.answer(table.pk, holder[first], agree=True)
    assert table.actions == before and len(table.moves) == 1 and table.takeback_by == ""
    last = table.events.order_by("-number").first()
    assert (last.kind, last.seat, last.ply) == (TableEvent.Kind.TAKEN_BACK, second, 2)
    position = services.position_of(table)
    assert position.to_act == [second]
    # A client catching up from the start is told the move existed, never what it was.
    news = selectors.news(table, first, 0)
    moves = [e for e in news["events"] if e["kind"] == "move"]
    assert [("move" in e, e.get("undone", False)) for e in moves] == [(True, False), (False, True)]
    assert news["takeback"] is None and news["position"]["ply"] == 1


@pytest.mark.django_db
def test_a_declined_takeback_changes_nothing(club, people):
    table = _two_person_table(club, people)
    table = _move(table, people["ann"])
    table = takebacks.ask(table.pk, people["ann"])
    with pytest.raises(services.TableIllegal) as refused:
        takebacks.answer(table.pk, people["ann"], agree=True)  # not one's own
    assert refused.value.rule == takebacks.LIVE_TAKEBACK
    table = takebacks.answer(table.pk, people["ben"], agree=False)
    assert len(table.actions) == 1 and table.takeback_by == ""
    assert table.events.order_by("-number").first().kind == TableEvent.Kind.TAKEBACK_DECLINED


@pytest.mark.django_db
def test_a_move_made_instead_of_an_answer_declines_it(club, people):
    table = _two_person_table(club, people)
    table = _move(table, people["ann"])
    table = takebacks.ask(table.pk, people["ann"])
    table = _move(table, people["ben"])
    assert table.takeback_by == "" and len(table.actions) == 2
    kinds = list(table.events.order_by("number").values_list("kind", flat=True))
    assert kinds[-2:] == [TableEvent.Kind.TAKEBACK_DECLINED, TableEvent.Kind.MOVE]


@pytest.mark.django_db
def test_only_ones_own_last_move_is_taken_back(club, people):
    table = _two_person_table(club, people)
    table = _move(table, people["ann"])
    table = _move(table, people["ben"])
    with pytest.raises(services.TableIllegal) as refused:
        takebacks.ask(table.pk, people["ann"])
    assert refused.value.rule == takebacks.LIVE_TAKEBACK
    takebacks.ask(table.pk, people["ben"])
    with pytest.raises(services.TableIllegal):
        takebacks.ask(table.pk, people["ben"])  # asked already


@pytest.mark.django_db
def test_a_move_that_drew_hidden_chance_is_not_taken_back(club, people):
    """Mister X's refill draws tickets from the bag (MX-6.8): dealt from the server's
    seed, the same move again would draw the same tickets, which he has seen."""
    ids = seat_ids(MX)
    table = services.open_table(club, people["ann"], game_id=MX, seats=seats(MX, "me", "free"))
    table = services.take_seat(table.pk, people["ben"])
    holder = dict(zip(ids, [people["ann"], people["ben"]], strict=True))
    for _ in range(10):
        table.refresh_from_db()
        position = services.position_of(table)
        seat = position.to_act[0]
        action = first_walked(position.session.legal_actions(seat, seat))
        drew = bool(position.game.chance_fields(position.session.state, action))
        table = services.play(
            table.pk, services.Move(user=holder[seat], seen=table.last_event, action=action)
        )
        if drew:
            break
    assert drew and table.actions[-1]["seat"] == seat
    with pytest.raises(services.TableIllegal) as refused:
        takebacks.ask(table.pk, holder[seat])
    assert refused.value.rule == takebacks.LIVE_TAKEBACK and "chance" in refused.value.message


@pytest.mark.django_db
def test_no_takeback_at_a_table_with_a_bot(club, people):
    table = services.open_table(club, people["ann"], game_id=CLOAK, seats=seats(CLOAK, "me", "bot"))
    client = Client()
    client.force_login(people["ann"])
    answer = client.post(f"/api/tables/{table.pk}/takeback/", content_type="application/json")
    assert answer.status_code == 403
    assert Table.objects.get(pk=table.pk).takeback_by == ""


@pytest.mark.django_db
def test_the_api_asks_and_answers(club, people):
    table = _two_person_table(club, people)
    table = _move(table, people["ann"])
    ann, ben, cat = Client(), Client(), Client()
    ann.force_login(people["ann"])
    ben.force_login(people["ben"])
    cat.force_login(people["cat"])
    url = f"/api/tables/{table.pk}/takeback/"
    assert cat.post(url, content_type="application/json").status_code == 403  # a watcher
    asked = ann.post(url, content_type="application/json")
    assert asked.status_code == 200, asked.content
    assert asked.json()["takeback"]["by"] == seat_ids(CLOAK)[0]
    agreed = ben.post(url + "answer/", {"agree": True}, content_type="application/json")
    assert agreed.status_code == 200, agreed.content
    body = agreed.json()
    assert body["takeback"] is None and body["position"]["ply"] == 0
    assert body["events"][-1]["kind"] == "taken-back"
    nothing = ben.post(url + "answer/", {"agree": True}, content_type="application/json")
    assert nothing.status_code == 422 and nothing.json()["rule"] == takebacks.LIVE_TAKEBACK


# --- the stream across a take-back ------------------------------------------------------------

#: The Cloak & Dagger twins of tests.live.test_stream_secrets, for each pair of eyes.
CLOAK_TWINS = [
    (eyes, one, two) for game, count, eyes, _moves, one, two in TWINS if (game, count) == (CLOAK, 2)
]


def takeback_stream(club, people, monkeypatch, deal, eyes: str) -> list[str]:
    """Every message the eyes' socket gets while p1 and p2 each drop, p2 takes its drop
    back (p1 agreeing), drops again and play goes on; then what a page opened at the end
    (since=0) catches up with."""
    first, second = seat_ids(CLOAK)
    holder = {first: people["ann"], second: people["ben"]}
    watcher = holder.get(eyes, people["cat"])
    with monkeypatch.context() as patched:
        deal_as(patched, deal)

        async def scenario() -> list[str]:
            out: list[str] = []
            table = await sync(services.open_table)(
                club, people["ann"], game_id=CLOAK, seats=seats(CLOAK, "me", "free")
            )
            socket = await connect(table.pk, watcher)
            await take(socket, out)
            table = await sync(services.take_seat)(table.pk, people["ben"])
            await take(socket, out)
            steps = ["move", "move", "ask", "agree", "move", "move", "move"]
            for step in steps:
                if step == "move":
                    table = await sync(Table.objects.get)(pk=table.pk)
                    seat = (await sync(services.position_of)(table)).to_act[0]
                    await sync(_move)(table, holder[seat])
                elif step == "ask":
                    await sync(takebacks.ask)(table.pk, holder[second])
                else:
                    await sync(takebacks.answer)(table.pk, holder[first], agree=True)
                await take(socket, out)
            assert await socket.receive_nothing(timeout=0.2)
            await socket.disconnect()
            late = await connect(table.pk, watcher)
            await take(late, out)
            await late.disconnect()
            return out

        return run(scenario)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("eyes", "one", "two"), CLOAK_TWINS, ids=[e for e, *_ in CLOAK_TWINS])
def test_twins_send_the_same_bytes_across_a_takeback(club, people, monkeypatch, eyes, one, two):
    first = takeback_stream(club, people, monkeypatch, one, eyes)
    second = takeback_stream(club, people, monkeypatch, two, eyes)
    assert first == second
    bodies = [json.loads(text) for text in first]
    kinds = [event["kind"] for body in bodies for event in body["events"]]
    assert "takeback-ask" in kinds and "taken-back" in kinds
    # The page opened at the end hears of the dropped move only that it was taken back.
    late = bodies[-1]["events"]
    undone = [e for e in late if e.get("undone")]
    assert len(undone) == 1 and "move" not in undone[0]
    assert bodies[-1]["eyes"] == (eyes if eyes != PUBLIC else PUBLIC)
