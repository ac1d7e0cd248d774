"""Several ASGI processes serve one table through the Redis channel layer (issue #36): two
Daphne processes on two ports, sharing REDIS_URL and the database, as two machines would.
A move made through process A reaches the sockets connected to A and to B, also after
they sat idle longer than the layer's blocking wait. Needs PostgreSQL and Redis: skipped
without them, failed instead under LANTERN_REQUIRE_SERVICES=1 (.ci/run)."""

from __future__ import annotations

import asyncio
import json
import random
import urllib.request
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from rest_framework.authtoken.models import Token

from bench.common import servers
from live import services
from tests.live.conftest import MX, seats
from tests.live.sockets import run

pytestmark = [pytest.mark.integration, pytest.mark.live, pytest.mark.django_db(transaction=True)]


def served_database_url() -> str:
    """The test database (its data committed: a transactional test) as a URL for a server."""
    db = connection.settings_dict
    return f"postgresql://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def session_cookie(user: Any) -> str:
    from django.conf import settings

    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


def post_move(server: servers.Server, table_id: int, token: str, body: dict) -> dict:
    request = urllib.request.Request(
        f"{server.url}/api/tables/{table_id}/act/",
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def test_a_move_made_through_one_process_reaches_the_sockets_of_another(
    require_postgres, require_redis, club, people, settings
):
    from websockets.asyncio.client import connect

    # The servers run as production does, which refuses make run's public key: the test
    # signs the sessions it hands them with a key of its own, and gives them the same.
    settings.SECRET_KEY = "live-redis-test-not-a-secret-" + "x" * 40
    table = services.open_table(club, people["ann"], game_id=MX, seats=seats(MX, "me", "free"))
    table = services.take_seat(table.pk, people["ben"])
    by_seat = {"mrx": people["ann"], "det1": people["ben"]}
    position = services.position_of(table)
    mover = position.to_act[0]
    action = random.Random(3).choice(position.session.legal_actions(mover, mover))
    token = Token.objects.create(user=by_seat[mover]).key
    cookies = {seat: session_cookie(user) for seat, user in by_seat.items()}
    env = servers.server_env(served_database_url(), require_redis, settings.SECRET_KEY)
    one, two = servers.daphne(env, name="daphne-a"), servers.daphne(env, name="daphne-b")
    try:
        one.wait_ready()
        two.wait_ready()

        async def scenario() -> list[dict]:
            sockets = [
                await connect(
                    f"ws://127.0.0.1:{server.port}/ws/tables/{table.pk}/?since=0",
                    origin=server.url,
                    additional_headers={"Cookie": cookies[seat]},
                    open_timeout=30,
                )
                for server, seat in ((one, "mrx"), (two, "det1"))
            ]
            for socket in sockets:  # where the table stands
                assert json.loads(await socket.recv())["n"] == table.last_event
            # Longer than the Redis layer's blocking pop (5 s): the sockets stay up.
            await asyncio.sleep(7)
            answer = await asyncio.to_thread(
                post_move, one, table.pk, token, {"seen": table.last_event, "action": action}
            )
            assert answer["n"] == table.last_event + 1
            bodies = [json.loads(await asyncio.wait_for(s.recv(), 20)) for s in sockets]
            for socket in sockets:
                await socket.close()
            return bodies

        bodies = run(scenario)
    finally:
        logs = "\n".join(f"--- {s.name}\n{s.tail()}" for s in (one, two))
        one.stop()
        two.stop()
    for body in bodies:
        assert [(e["n"], e["kind"], e["seat"]) for e in body["events"]] == [
            (table.last_event + 1, "move", mover)
        ], logs
    assert "Traceback" not in logs, logs


def test_where_redis_is_the_live_tests_run_on_its_channel_layer(require_redis):
    """.ci/run's `pytest -m live` step is the live tests on the Redis layer: that is the
    layer they get wherever REDIS_URL is set (none of them swaps in the memory one)."""
    from channels.layers import get_channel_layer
    from channels_redis.core import RedisChannelLayer

    assert isinstance(get_channel_layer(), RedisChannelLayer)
