"""Everything is reachable by clicking: every page URL the site defines (not the API, not
the admin) is linked — as a link, or as a form's action for what a button does — from
some page reachable from the home page, for a person who may use it.

The crawl starts at ``/`` as a visitor, a member, an organiser and an operator of a
seeded public club (tests/security/conftest.py), follows every link to a page of the
site, and notes the URL pattern of every link and form it finds. A URL pattern nobody
reaches fails the test, unless listed in NOT_LINKED with the reason.
"""

from __future__ import annotations

from collections import deque
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import pytest
from django.test import Client
from django.urls import Resolver404, resolve

from tests.security.urlwalk import routes

pytestmark = pytest.mark.django_db

#: URL patterns no page links to, and why that is right.
NOT_LINKED = {
    "": "/favicon.ico: asked by browsers, not people",
    "healthz": "the load balancer's, not a page",
    "invite-accept": "a capability: the organiser sends the link (shown once on the manage page)",
    "password_reset_confirm": "the link of the password-reset e-mail",
    "password_reset_done": "where the password-reset form leads",
    "password_reset_complete": "where setting a new password leads",
    "password_change_done": "where changing the password leads",
    "dashboard-jobs": "JSON the dashboard's script polls",
    "javascript-catalog": "the JS modules' words (a <script src>, not a link), static/js/i18n.js",
    "record-seat-labels": "JSON the recorder's setup form asks as its options change",
    "api-not-found": "the API's answer to an unknown /api/ path (a JSON 404), not a page",
    "club-address": "JSON the new club form's script asks for its address preview",
    "live-seat-link": "a capability: a one-time seat link the table's opener sends a guest "
    "(shown once on the table's page; tests/live/test_guests.py)",
    "upload-guests": "the form on the page of a log refused for unknown handles, for those who "
    "may confirm them as guests (tests/games/test_guests.py)",
}

#: a URL pattern is crawled through at most this many of its URLs (all matches, all
#: players... would take long and show nothing new)
PER_PATTERN = 3


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.pages: list[str] = []  # <a href>: followed
        self.actions: list[str] = []  # <form action>: noted, not submitted

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "a" and values.get("href"):
            self.pages.append(values["href"])
        elif tag == "form":
            self.actions.append(values.get("action") or "")


def pattern_of(path: str) -> str | None:
    try:
        match = resolve(path)
    except Resolver404:
        return None
    name = match.url_name or ""
    return f"{match.namespace}:{name}" if match.namespace else name


def crawl(client: Client) -> set[str]:
    """The URL patterns linked from the pages reachable from ``/`` for this client."""
    seen_paths: set[str] = set()
    per_pattern: dict[str, int] = {}
    linked: set[str] = {"index"}
    queue = deque(["/"])
    while queue:
        path = queue.popleft()
        response = client.get(path)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        parser = Links()
        parser.feed(response.content.decode())
        targets = [(href, True) for href in parser.pages] + [
            (action or path, False) for action in parser.actions
        ]
        for href, follow in targets:
            url = urlsplit(urljoin(path, href))
            if url.netloc or url.scheme not in ("", "http"):
                continue
            if url.path.startswith(("/api/", "/admin/", "/static/")):
                continue
            pattern = pattern_of(url.path)
            if pattern is None:
                continue
            linked.add(pattern)
            if not follow or url.path in seen_paths or pattern == "logout":
                continue
            if per_pattern.get(pattern, 0) >= PER_PATTERN:
                continue
            per_pattern[pattern] = per_pattern.get(pattern, 0) + 1
            seen_paths.add(url.path)
            queue.append(url.path + (f"?{url.query}" if url.query else ""))
    return linked


def test_every_page_is_linked_from_a_page_reachable_from_home(
    public_club, people, django_user_model
):
    from rest_framework.authtoken.models import Token

    from clubs import services as club_services
    from games import services as match_services
    from ladder.models import RecomputeJob
    from tournaments import services as tournament_services

    # What some pages show only when there is one: a void match (its restore link), a
    # failed ladder job (the dashboard's retry), an API token (revoke), a handle claim
    # (the organiser's answer), an event open for entries (the entry form), guests at the
    # club's tables (a table's seat-link form).
    club_services.set_live_tables(
        people["organiser"], public_club.club, guests_at_tables=True, watchers_see_all_after=0
    )
    match_services.void_match(people["organiser"], public_club.matches[-1], "wrong deck")
    RecomputeJob.objects.create(
        ladder=public_club.ladders[0],
        reason="changed",
        status="failed",
        error="the worker was lost",
    )
    Token.objects.create(user=people["member"])
    club_services.claim_handle(people["member"], public_club.players[-1])
    tournament_services.create_tournament(
        club=public_club.club,
        name="Spring Swiss",
        game=public_club.ladders[0].game,
        format="swiss",
        rounds=3,
    )
    staff = django_user_model.objects.create_user(username="sam", is_staff=True)
    visitors = {"visitor": Client()}
    for who, user in (
        ("member", people["member"]),
        ("organiser", people["organiser"]),
        ("operator", staff),
    ):
        visitors[who] = Client()
        visitors[who].force_login(user)
    linked: set[str] = set()
    for client in visitors.values():
        linked |= crawl(client)
    pages = {
        r.name
        for r in routes()
        if not r.is_api and not r.is_admin and not r.pattern.startswith("admin/")
    }
    missing = sorted(pages - linked - set(NOT_LINKED))
    assert missing == [], f"no page reachable from home links to: {missing}"
    # NOT_LINKED names real patterns, and none of them is linked after all
    assert set(NOT_LINKED) <= pages
    assert not (linked & set(NOT_LINKED)), "linked now: take it off NOT_LINKED"
