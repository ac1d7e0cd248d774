"""The live tables within a person's share of the bots (recorder.budgets, live.budgets,
docs/fair-share.md): a table with a bot seat is an open game against a bot of the person
who opened it, counted with their bot drafts in one budget; the moves its bots make are
counted in that person's bot moves a minute; a 429 past either, from the API and from
the page that opens a table."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from clubs.models import Club
from clubs.services import handle_for_member
from live.models import Table, TableEvent
from recorder.models import Draft
from tests.live.conftest import CLOAK, CRYPTID, seats

pytestmark = pytest.mark.django_db


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def open_table(client: APIClient, *takes: str, language: str = "en", game: str = CLOAK):
    return client.post(
        "/api/tables/",
        {"club": "riverside", "game": game, "seats": seats(game, *takes)},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )


def open_draft(client: APIClient, user) -> Any:
    """A draft against a bot in the recorder, ``user``'s seat played as their handle."""
    handle = handle_for_member(user, Club.objects.get(slug="riverside"), user.pk).handle
    return client.post(
        "/api/drafts/",
        {
            "club": "riverside",
            "game": CLOAK,
            "seats": [{"seat": "p1", "player": handle}, {"seat": "p2", "bot": "random"}],
        },
        format="json",
    )


@pytest.mark.parametrize(("language", "words"), [("en", "limit is 3 per person"), ("ru", "3")])
def test_bot_drafts_and_live_tables_share_one_budget_of_open_games(
    club, people, settings, language, words
):
    settings.LANTERN_BOT_DRAFTS_OPEN = 3
    ann = api(people["ann"])
    assert open_draft(ann, people["ann"]).status_code == 201
    assert open_table(ann, "me", "bot").status_code == 201  # dealt at once: playing
    assert open_table(ann, "me", "free", "bot").status_code == 201  # waiting for players
    refused = open_table(ann, "me", "bot", language=language)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    body = refused.json()
    assert body["error"] == "over_budget" and body["limit"] == 3 and words in body["message"]
    assert Table.objects.count() == 2
    # The recorder counts the tables too: one budget per person.
    assert open_draft(ann, people["ann"]).status_code == 429
    # A table of people only is not counted; another person is not held back.
    assert open_table(ann, "me", "free").status_code == 201
    assert open_table(api(people["ben"]), "me", "bot").status_code == 201
    # A table over (finished or abandoned) frees a place.
    Table.objects.filter(created_by=people["ann"], status=Table.Status.PLAYING).update(
        status=Table.Status.ABANDONED
    )
    assert open_table(ann, "me", "bot").status_code == 201


def bot_moves() -> int:
    """The moves of the bot seat (p2) at the tables."""
    return TableEvent.objects.filter(kind=TableEvent.Kind.MOVE, seat="p2").count()


def test_the_bots_at_a_live_table_make_so_many_moves_a_minute_for_its_opener(
    club, people, settings
):
    settings.LANTERN_BOT_MOVES_PER_MINUTE = 3
    ann = api(people["ann"])
    table = open_table(ann, "me", "bot").json()
    url = f"/api/tables/{table['id']}/"
    for _ in range(20):
        news = ann.get(f"{url}news/", {"since": 0}).json()
        choice = ann.get(f"{url}legal-actions/").json()
        action = choice["actions"][0]["action"]
        answer = ann.post(f"{url}act/", {"seen": news["n"], "action": action}, format="json")
        if answer.status_code == 429:
            break
        assert answer.status_code == 200, answer.json()
    assert answer.status_code == 429, "the bots never stopped"
    assert bot_moves() >= 3
    body = answer.json()
    assert body["error"] == "over_budget" and "3 moves a minute" in body["message"]
    assert (
        0 < int(answer["Retry-After"]) <= 60 and f"{body['retry_after']} second" in body["message"]
    )
    # Refused, nothing changed; a minute later the bots play again.
    assert ann.get(f"{url}news/", {"since": 0}).json()["n"] == news["n"]
    TableEvent.objects.update(created_at=timezone.now() - timezone.timedelta(seconds=61))
    again = ann.post(f"{url}act/", {"seen": news["n"], "action": action}, format="json")
    assert again.status_code == 200, again.json()


def test_the_bot_moves_of_tables_and_drafts_are_one_budget(club, people, settings):
    settings.LANTERN_BOT_MOVES_PER_MINUTE = 1
    ann = api(people["ann"])
    opened = open_table(ann, "me", "bot").json()
    bots_first = TableEvent.objects.filter(table_id=opened["id"], kind="move").count()
    draft = open_draft(ann, people["ann"])
    assert draft.status_code == 201
    if bots_first == 0:  # the person moves first: the bot replies (its first move is in budget)
        url = f"/api/tables/{opened['id']}/"
        n = ann.get(f"{url}news/", {"since": 0}).json()["n"]
        action = ann.get(f"{url}legal-actions/").json()["actions"][0]["action"]
        assert (
            ann.post(f"{url}act/", {"seen": n, "action": action}, format="json").status_code == 200
        )
    assert bot_moves() >= 1
    # The bot's moves at the table leave none for a draft this minute.
    draft = draft.json()
    action = ann.get(f"/api/drafts/{draft['id']}/legal-actions/").json()["actions"][0]["action"]
    answer = ann.post(
        f"/api/drafts/{draft['id']}/apply/",
        {"version": draft["version"], "action": action},
        format="json",
    )
    assert answer.status_code == 429 and answer.json()["error"] == "over_budget"
    assert Draft.objects.count() == 1


def test_the_open_table_page_says_the_limit_with_a_429_not_a_crash(club, people, settings):
    settings.LANTERN_BOT_DRAFTS_OPEN = 0
    client = Client()
    client.force_login(people["ann"])
    url = f"/clubs/riverside/tables/new/?game={CRYPTID}"
    form = client.get(url).context["form"]
    bot = next(
        value
        for _group, choices in form.fields["seat.scientist"].choices
        if isinstance(choices, list | tuple)
        for value, _label in choices
        if value.startswith("bot")
    )
    data = {
        name: field.initial
        for name, field in form.fields.items()
        if name.startswith("option.") and field.initial is not None
    }
    answer = client.post(
        url, {**data, "seat.cryptid": "me", "seat.scientist": bot}, HTTP_ACCEPT_LANGUAGE="ru"
    )
    assert answer.status_code == 429 and int(answer["Retry-After"]) > 0
    assert "на человека можно не больше 0" in answer.content.decode()
    assert Table.objects.count() == 0
