"""What one upload through the API costs the database: the statements, in order, of a
token-authenticated upload (bench/load/ sends fifty a second), new or already stored."""

from __future__ import annotations

import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import Match
from ladder.tasks import rate_match
from tests.games.logs import bot_log

# A transaction of its own per test: the upload's transaction is then BEGIN ... COMMIT,
# as on a server, not a savepoint inside the test's.
pytestmark = pytest.mark.django_db(transaction=True)


def shapes(captured: CaptureQueriesContext) -> list[str]:
    """Each statement as its verb and first table: ``SELECT games_club``, ``BEGIN``."""
    out = []
    for query in captured.captured_queries:
        sql = query["sql"]
        verb = sql.split()[0].upper()
        table = re.search(r'(?:FROM|INTO|UPDATE) "(\w+)"', sql)
        out.append(f"{verb} {table.group(1)}" if table else verb)
    return out


@pytest.fixture(autouse=True)
def queued(monkeypatch) -> list[tuple]:
    """Rating tasks sent: on a server the worker rates, not the process that stored."""
    sent: list[tuple] = []
    monkeypatch.setattr(
        rate_match, "apply_async", lambda args, kwargs=None, **options: sent.append(args)
    )
    return sent


def token_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def upload(client, slug: str, log) -> tuple[int, list[str]]:
    with CaptureQueriesContext(connection) as captured:
        response = client.post(
            f"/api/clubs/{slug}/matches/", data=json.dumps(log), content_type="application/json"
        )
    assert response.status_code in (200, 201), response.content
    return response.status_code, shapes(captured)


#: A new log with known players, uploaded with a token by a member: who asks (the user
#: of the token: accounts.authentication), the club,
#: may they upload, the players' ids; then the match, its seats, its log and the upload
#: record in one transaction; then the answer's seats with their players.
NEW_LOG = [
    "SELECT auth_user",
    "SELECT games_club",
    "SELECT games_membership",
    "SELECT games_player",
    "BEGIN",
    "INSERT games_match",
    "INSERT games_matchseat",
    "INSERT games_matchlog",
    "INSERT games_upload",
    "COMMIT",
    "SELECT games_matchseat",
]


def test_a_new_log_costs_these_statements(people, club, queued):
    status, statements = upload(
        token_client(people["member"]),
        "riverside",
        bot_log("cryptid-urban-legends", 1, ["alice", "bob"]),
    )
    assert status == 201
    assert queued == [(Match.objects.get().pk,)]  # rated by the worker, after the commit
    assert statements == NEW_LOG, statements
    assert len(statements) == 11


@pytest.mark.parametrize(
    "game, players",
    [
        ("mister-x", ["alice", "bob", "carol", "dan"]),  # carol and dan are new
        ("cloak-and-dagger", ["alice", "bob"]),
    ],
)
def test_every_game_costs_the_same_and_new_players_a_few_more(people, club, game, players):
    """Still one statement per table, whatever the number of seats; an organiser's log
    naming two new handles creates both with one INSERT and reads their ids with one
    SELECT."""
    status, statements = upload(
        token_client(people["organiser"]), "riverside", bot_log(game, 2, players)
    )
    assert status == 201
    new_players = len(players) > 2
    expected = list(NEW_LOG)
    if new_players:
        # May the uploader create players (asked of the membership again: the view asked
        # whether they may upload), then the new handles inserted and their ids read.
        at = expected.index("BEGIN")
        expected[at:at] = ["SELECT games_membership"]
        at = expected.index("INSERT games_match")
        expected[at:at] = ["INSERT games_player", "SELECT games_player"]
    assert statements == expected, statements


def test_the_same_log_again_costs_a_look_up_and_its_upload_record(people, club):
    log = bot_log("cryptid-urban-legends", 3, ["alice", "bob"])
    client = token_client(people["member"])
    upload(client, "riverside", log)
    status, statements = upload(client, "riverside", log)
    assert status == 200
    assert Match.objects.count() == 1
    # The unique constraint finds the duplicate: the insert is undone, the stored match
    # read, and the attempt recorded; the answer names the match's club without asking.
    assert statements == [
        "SELECT auth_user",
        "SELECT games_club",
        "SELECT games_membership",
        "SELECT games_player",
        "BEGIN",
        "INSERT games_match",
        "ROLLBACK",
        "SELECT games_match",
        "INSERT games_upload",
        "SELECT games_matchseat",
    ], statements
