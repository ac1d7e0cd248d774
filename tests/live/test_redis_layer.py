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


class Processes:
    """Two Daphne processes on ``env`` (each's log tail in ``logs`` once stopped)."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        self.logs = ""

    def __enter__(self) -> tuple[servers.Server, servers.Server]:
        self.servers = (
            servers.daphne(self.env, name="daphne-a"),
            servers.daphne(self.env, name="daphne-b"),
        )
        try:
            for server in self.servers:
                server.wait_ready()
        except BaseException:
            self.__exit__()
            raise
        return self.servers

    def __exit__(self, *_exc: object) -> None:
        self.logs = "\n".join(f"--- {s.name}\n{s.tail()}" for s in self.servers)
        for server in self.servers:
            server.stop()


async def socket_at(server: servers.Server, table_id: int, cookie: str) -> tuple[Any, dict]:
    """A socket on ``server`` of the person whose session ``cookie`` is, and its first
    message (where the table stands)."""
    from websockets.asyncio.client import connect

    socket = await connect(
        f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}/?since=0",
        origin=server.url,
        additional_headers={"Cookie": cookie},
        open_timeout=30,
    )
    return socket, json.loads(await socket.recv())


def test_a_move_made_through_one_process_reaches_the_sockets_of_another(
    require_postgres, require_redis, club, people, settings
):
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
    processes = Processes(env)
    with processes as (one, two):

        async def scenario() -> list[dict]:
            sockets = []
            for server, seat in ((one, "mrx"), (two, "det1")):
                socket, first = await socket_at(server, table.pk, cookies[seat])
                assert first["n"] == table.last_event
                sockets.append(socket)
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
    logs = processes.logs
    for body in bodies:
        assert [(e["n"], e["kind"], e["seat"]) for e in body["events"]] == [
            (table.last_event + 1, "move", mover)
        ], logs
    assert "Traceback" not in logs, logs


def test_a_persons_limit_on_socket_messages_holds_across_two_processes(
    require_postgres, require_redis, club, people, settings
):
    """One person's sockets held by two Daphne processes share one count (Django's cache
    in Redis, live.socket_limits): past the person's limit, the next message is refused
    by the process that had read only half of them."""
    from django.core.cache import cache

    from live import socket_limits

    settings.SECRET_KEY = "live-redis-test-not-a-secret-" + "x" * 40
    table = services.open_table(club, people["ann"], game_id=MX, seats=seats(MX, "me", "free"))
    table = services.take_seat(table.pk, people["ben"])
    throttle = socket_limits.PersonThrottle()
    cache.delete(throttle.cache_format % {"scope": throttle.scope, "ident": people["ann"].pk})
    cookie = session_cookie(people["ann"])
    env = servers.server_env(
        served_database_url(),
        require_redis,
        settings.SECRET_KEY,
        LANTERN_LIVE_MESSAGES_PER_MINUTE="6",
    )
    processes = Processes(env)
    with processes as (one, two):

        async def scenario() -> list[dict]:
            sockets = [(await socket_at(server, table.pk, cookie))[0] for server in (one, two)]
            answers = []
            for n in range(7):
                await sockets[n % 2].send("now")
                answers.append(json.loads(await asyncio.wait_for(sockets[n % 2].recv(), 20)))
            for socket in sockets:
                await socket.close()
            return answers

        answers = run(scenario)
    logs = processes.logs
    assert all("refused" not in answer for answer in answers[:6]), logs
    refused = answers[6]["refused"]
    assert (refused["error"], refused["per"], refused["limit"]) == ("over_budget", "person", 6)
    assert "Traceback" not in logs, logs


def test_where_redis_is_the_live_tests_run_on_its_channel_layer(require_redis):
    """.ci/run's `pytest -m live` step is the live tests on the Redis layer: that is the
    layer they get wherever REDIS_URL is set (none of them swaps in the memory one)."""
    from channels.layers import get_channel_layer
    from channels_redis.core import RedisChannelLayer

    assert isinstance(get_channel_layer(), RedisChannelLayer)
