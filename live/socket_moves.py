"""A move sent on a table's socket: ``{"act": {"seen": <the last event number you have>,
"action": {...}}}``, played exactly as ``POST /api/tables/{id}/act/`` plays it
(``live.endings.play_settled``: the same checks, the same refusals, what fell due
settled first), answered on that socket alone with one of two messages: ``{"moved": <the news
since the last event the socket sent, drawn from the table as the move left it>}`` or
``{"refused": <the API's error body>}`` (every other message of a socket is news itself,
so an answer is never taken for another's move that came first).
The other sockets hear of it as of any write (``live.push``).

HTTP stays the one way that always works (a page without a socket, a script with a
token); the socket saves a move the cost of an HTTP request (its middleware, the token,
a read of the table before the locked one) and the read after it: the process that
made the move keeps the table as written for its own sockets (``live.shared_reads``).
"""

from __future__ import annotations

import json
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext

from clubs.policy import AnyUser
from config.errors import AppError
from live import endings, selectors, services


def act(
    table_id: int, user: AnyUser, text: str, since: int, language: str, eyes_before: str | None
) -> tuple[str | None, int | None, str | None]:
    """Play the move in ``text`` for ``user``: ``(text to send, last, eyes)``, the news
    after ``since`` as ``live.selectors.news_text`` gives it (as ``moved``), or the
    refusal's text with ``last`` and ``eyes`` None; the text is None when ``user`` may
    not watch the table (any more)."""
    with _in_language(language):
        try:
            table = endings.play_settled(table_id, _move(user, text))
        except AppError as exc:
            return refused_text(exc, language), None, None
    allowed, news, last, eyes = selectors.news_text(
        table,
        user,
        since,
        language,
        eyes_before=eyes_before,
        drawn=selectors.Drawn.after_write(table),
    )
    if not allowed or news is None:
        return None, None, None
    return f'{{"moved":{news}}}', last, eyes


def refused_text(exc: AppError, language: str) -> str:
    """The answer to a message refused: ``{"refused": <the API's error body>}``, its
    sentence in the socket's language."""
    with _in_language(language):
        return json.dumps({"refused": exc.as_dict()}, ensure_ascii=False)


def _in_language(language: str) -> AbstractContextManager[Any]:
    languages = {code for code, _name in settings.LANGUAGES}
    return translation.override(language) if language in languages else nullcontext()


def _move(user: AnyUser, text: str) -> services.Move:
    try:
        body: Any = json.loads(text)
    except (ValueError, RecursionError):
        body = None
    act = body.get("act") if isinstance(body, dict) else None
    if not isinstance(act, dict):
        raise services.TableInvalid(
            gettext('a move on the socket is {"act": {"seen": <event number>, "action": {…}}}'),
            field="act",
        )
    return services.Move(user=user, seen=act.get("seen"), action=act.get("action"))
