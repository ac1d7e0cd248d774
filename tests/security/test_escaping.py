"""Player handles are text: a handle of ``<script>alert(1)</script>`` shows as that text
on every page that names players (lists, match and replay pages, ladders, the player
page, head-to-head, tournaments, uploads), and is never markup."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.services import LogRejected, ingest_log
from tests.games.logs import bot_log
from tests.security.conftest import seed_club

pytestmark = pytest.mark.django_db

SCRIPT = "<script>alert(1)</script>"
ATTRIBUTE = "\"'><img src=x onerror=alert(2)>"
NEWCOMER = "<b onmouseover=alert(3)>newcomer</b>"  # not in the club: named by a rejection
HANDLES = [SCRIPT, ATTRIBUTE, "carol", "dave"]
HOSTILE = [SCRIPT, ATTRIBUTE, NEWCOMER]


def _escaped(handle: str) -> list[str]:
    """How the handle may appear safely: HTML-escaped text, or inside JSON in a script
    (json_script escapes <, > and &)."""
    html = (
        handle.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&#x27;")
    )
    json = handle.replace("<", "\\u003C").replace(">", "\\u003E").replace('"', '\\"')
    return [html, json]


def test_hostile_handles_render_as_text_on_every_page_that_names_players(
    people, django_capture_on_commit_callbacks
):
    world = seed_club(
        "Escape Club",
        "escape",
        HANDLES,
        people,
        public=True,
        seed=3,
        on_commit=django_capture_on_commit_callbacks,
    )
    club, game = world.club.slug, world.ladders[0].game
    match = next(m for m in world.matches if m.game == game)
    event, pairing = world.tournaments[0], world.pairings[0]
    # A member's upload naming a player the club does not have: the rejection names it.
    newcomer = bot_log("cryptid-urban-legends", 4, [SCRIPT, NEWCOMER])
    with pytest.raises(LogRejected) as refused:
        ingest_log(world.club, newcomer, people["member"])
    pages = [
        reverse("index"),
        reverse("club", args=[club]),
        reverse("club-matches", args=[club]),
        reverse("match-detail", args=[match.pk]),
        reverse("match-replay", args=[match.pk]),
        reverse("ladder-standings", args=[club, game]),
        # SCRIPT holds a "/": its URLs too must work (ladder.converters)
        reverse("ladder-player", args=[club, game, SCRIPT]),
        reverse("ladder-player", args=[club, game, ATTRIBUTE]),
        reverse("ladder-h2h", args=[club, game, SCRIPT, ATTRIBUTE]),
        reverse("tournaments:detail", args=[event.pk]),
        reverse("tournaments:round", args=[event.pk, pairing.round]),
        reverse("club-uploads", args=[club]),
        reverse("upload-detail", args=[refused.value.upload.pk]),
        reverse("club-manage", args=[club]),
    ]
    client = Client()
    client.force_login(people["organiser"])
    problems = []
    for url in pages:
        response = client.get(url)
        if response.status_code != 200:
            problems.append(f"{url}: {response.status_code}")
            continue
        page = response.content.decode()
        for handle in HOSTILE:
            if handle in page:
                problems.append(f"{url}: {handle!r} as markup")
        if not any(form in page for handle in HOSTILE for form in _escaped(handle)):
            problems.append(f"{url}: names none of the hostile players")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("handle", ["a/b", "~", "~s", "a~~/b/", "/", "é ü", "100%", "a?b#c"])
def test_any_handle_has_a_player_url_that_resolves_back_to_it(handle):
    from urllib.parse import unquote

    from django.urls import resolve

    url = reverse("ladder-player", args=["club", "mister-x", handle])
    # The server hands Django the path percent-decoded (PATH_INFO): so does this test.
    assert resolve(unquote(url)).kwargs["handle"] == handle
