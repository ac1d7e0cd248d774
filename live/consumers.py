"""The socket of a table's page: ``/ws/tables/<id>/?since=<n>&lang=<code>``.

Thin: on connect, and on every hint that the table changed (``live.push``), it reads
from the database what happened after the last event this socket sent and sends it
as ``live.selectors.news_text`` draws it for the person at the socket (their seat's
eyes, or the public view); the sockets of this process that heard the same hint share
one read of the table, and one drawing per pair of eyes (``live.shared_reads``). A seat
moves over HTTP (the API) or on its socket (``live.socket_moves``: the same move, the
same refusals, answered on that socket). A client that reconnects names the last event
it has (``since``) and gets only the rest. A seat's open sockets are its
presence at the table (``live.endings.arrive``/``leave``: several tabs count as one,
the seat is away once the last closes), and every read settles first what fell due (a
clock run out, an idle table). Every message a socket receives is counted first
(``live.socket_limits``: per socket and per person); past a limit it is answered with
the refusal and not read, and a socket that goes on is closed (``TOO_FAST``).
"""

from __future__ import annotations

from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from config.api.requests import as_whole_number
from live import endings, push, shared_reads, socket_limits, socket_moves

#: Close codes (4000-4999 are the application's): not allowed to watch this table.
REFUSED = 4403


class TableConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        query = parse_qs(self.scope.get("query_string", b"").decode(errors="replace"))
        # Anything but an event number is read as none seen: the socket sends everything.
        self.sent = as_whole_number((query.get("since") or ["0"])[0]) or 0
        self.language = (query.get("lang") or [""])[0]
        self.eyes: str | None = None  # whose eyes the last message was drawn with
        self.group = push.group(self.table_id)
        self.pace = socket_limits.Pace(self.scope["user"])
        shared_reads.serve()
        # Joined first, then caught up: a change between the two is still heard.
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        # Here before the first message, so it shows this seat at the table.
        await database_sync_to_async(endings.arrive)(self.table_id, self.scope["user"])
        self.present = True
        if not await self.send_news(first=True):
            await self.close(code=REFUSED)

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)
        if getattr(self, "present", False):
            await database_sync_to_async(endings.leave)(self.table_id, self.scope["user"])

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """A move (a JSON object: ``live.socket_moves``), or "anything new?" (any other
        message); ``now`` asks where the table stands even with no new event (the clocks,
        who is away: the page asks when a clock it shows reaches zero, or a seat's grace
        period is over); ``here`` (every minute) says the page is still open, and asks
        nothing. Each counts against the socket's and its person's limits first."""
        if self.pace.flooding:
            return  # closed already: what was sent before the close is not read
        refusal = await self.pace.admit()
        if refusal is not None:
            if self.pace.flooding:
                await self.close(code=socket_limits.TOO_FAST)
            else:
                await self.send(text_data=socket_moves.refused_text(refusal, self.language))
            return
        if text_data == "here":
            await database_sync_to_async(endings.seen)(self.table_id, self.scope["user"])
            return
        if text_data is not None and text_data.startswith("{"):
            text, last, eyes = await database_sync_to_async(socket_moves.act)(
                self.table_id, self.scope["user"], text_data, self.sent, self.language, self.eyes
            )
            if text is None:  # no longer allowed to watch the table
                await self.close(code=REFUSED)
                return
            await self.send(text_data=text)
            if last is not None:
                self.sent, self.eyes = last, eyes
            return
        await self.send_news(first=text_data == "now")

    async def table_news(self, event: dict) -> None:
        last = event.get("n")
        if isinstance(last, int) and last <= self.sent:
            return  # sent already (this socket's own move, answered on it)
        await self.send_news(push=event.get("push"))

    async def send_news(self, first: bool = False, push: str | None = None) -> bool:
        """Send what happened after the last event sent (``push``: the hint heard); False
        when this person may not watch the table."""
        allowed, text, last, eyes = await database_sync_to_async(shared_reads.news_text)(
            self.table_id,
            self.scope["user"],
            self.sent,
            self.language,
            push=push,
            always=first,
            eyes_before=self.eyes,
        )
        if not allowed:
            return False
        if text is not None:
            # The eyes of what was sent (a read older than one already sent, shared by a
            # push heard late, sends nothing and changes nothing).
            await self.send(text_data=text)
            self.sent, self.eyes = last, eyes
        return True
