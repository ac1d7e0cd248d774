"""Driving a table's sockets in tests: each person's socket (``live.consumers``, on the
in-memory channel layer of the test process) collected message by message while the
table is played through its services."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from live.routing import websocket_urlpatterns

APP = URLRouter(websocket_urlpatterns)


async def connect(
    table_id: int, user: Any, since: int | str = 0, lang: str = "en"
) -> WebsocketCommunicator:
    """A socket of ``user`` (already signed in: the scope's user) on the table, connected."""
    socket = WebsocketCommunicator(APP, f"/ws/tables/{table_id}/?since={since}&lang={lang}")
    socket.scope["user"] = user
    connected, _code = await socket.connect()
    assert connected
    return socket


async def take(socket: WebsocketCommunicator, out: list[str]) -> str:
    """The socket's next message (appended to ``out``)."""
    text = await socket.receive_from(timeout=20)
    out.append(text)
    return text


def sync(function: Any) -> Any:
    """A database-touching function to await (it runs where the test's connection is)."""
    return database_sync_to_async(function)


def run(scenario: Callable[[], Awaitable[Any]]) -> Any:
    """Run an async scenario to its end from a test, in a thread of its own: the browser
    tests' Playwright keeps an event loop in the main thread for the whole session, where
    async_to_sync may not run."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, scenario()).result()
