"""Two people play a whole Cryptid game against each other, each in their own browser,
from the club page: one opens a table, the other joins it with a click. In mid-game a
reload resumes where the game stands, and a dropped socket catches up from the last
event it had (its reconnect names that number) while the other person moves on."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from games.models import Match
from live.models import Table
from tests.live.browsers import moves_shown, n_of, signed_in

PlaywrightTimeout = pytest.importorskip("playwright.sync_api").TimeoutError

pytestmark = [pytest.mark.browser, pytest.mark.live, pytest.mark.django_db(transaction=True)]


def play_one(page: Any, rng: random.Random) -> None:
    """Enter one move on ``page`` (its turn): a seeded choice at every question, then the
    confirm button; wait until the table's answer is drawn."""
    before = n_of(page)
    for _ in range(40):
        if n_of(page) > before:  # the move was made (a click that seemed to miss did land)
            return
        confirm = page.locator("#live-entry .rec-confirm")
        if confirm.count():
            try:
                confirm.click(timeout=3000)
            except PlaywrightTimeout:
                continue  # redrawn under the pointer: look again
            page.wait_for_function(f"Number(document.querySelector('#live').dataset.n) > {before}")
            return
        question = page.locator("#live-entry .rec-question").last
        try:
            question.wait_for(timeout=3000)
        except PlaywrightTimeout:
            continue
        buttons = question.locator("button.rec-choice")
        if buttons.count():
            buttons.nth(rng.randrange(buttons.count())).click()
        else:
            values = question.locator("select option").evaluate_all(
                "els => els.map(e => e.value).filter(Boolean)"
            )
            question.locator("select").select_option(value=rng.choice(values))
        page.wait_for_timeout(50)
    raise AssertionError("no move could be entered")


def test_two_browsers_play_cryptid_from_the_club_page(
    chromium, asgi_server, club, people, settings
):
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
    errors: list[str] = []
    ann = signed_in(chromium, asgi_server, people["ann"], errors)
    ben = signed_in(chromium, asgi_server, people["ben"], errors)

    ann.goto(f"{asgi_server}/clubs/riverside/")
    ann.get_by_role("link", name="Open a table").click()
    ann.select_option("select[name=game]", "cryptid-urban-legends")
    ann.locator("#live-choose button[type=submit]").click()
    ann.get_by_role("button", name="Open the table").click()
    ann.wait_for_selector('#live[data-status="open"] #live-link[data-state="live"]')

    ben.goto(f"{asgi_server}/clubs/riverside/")
    ben.locator(".live-table-list").get_by_role("button", name=re.compile("^Join")).click()
    for page in (ann, ben):
        page.wait_for_selector('#live[data-status="playing"]')
    table = Table.objects.get()
    assert {s.user_id for s in table.seats.all()} == {people["ann"].pk, people["ben"].pk}

    # How each person's moves went: on the socket while it is open, else over HTTP.
    posted = {"ann": 0, "ben": 0}
    on_socket = {"ann": 0, "ben": 0}
    for name, page in (("ann", ann), ("ben", ben)):

        def count_posts(request: Any, name: str = name) -> None:
            if request.method == "POST" and request.url.endswith("/act/"):
                posted[name] += 1

        def count_frames(ws: Any, name: str = name) -> None:
            def sent(payload: Any) -> None:
                if isinstance(payload, str) and payload.startswith('{"act"'):
                    on_socket[name] += 1

            ws.on("framesent", sent)

        page.on("request", count_posts)
        page.on("websocket", count_frames)

    rng = random.Random(5)
    sockets: list[str] = []
    dropped: list[Any] = []

    def through(ws: Any) -> None:  # ben's socket, passed through so it can be dropped
        sockets.append(ws.url)
        dropped.append(ws)
        ws.connect_to_server()

    moves, had = 0, -1
    for _ in range(200):
        if ann.get_attribute("#live", "data-status") != "playing":
            break
        mover = ann if ann.get_attribute("#live", "data-turn") == "true" else ben
        if mover.get_attribute("#live", "data-turn") != "true":
            mover.wait_for_timeout(100)
            continue
        play_one(mover, rng)
        moves += 1
        if moves == 1:
            # The tab title tells whose turn it is; a reload in mid-game resumes.
            waiting = ben if mover is ann else ann
            waiting.wait_for_function("document.title.startsWith('●')")
            ann.reload()
            ann.wait_for_selector('#live-link[data-state="live"]')
            ann.wait_for_function(
                f"Number(document.querySelector('#live').dataset.n) >= {n_of(ben)}"
            )
            assert moves_shown(ann) == int(ann.get_attribute("#live", "data-ply"))
        if moves == 2 and not dropped:
            # Ben's next socket goes through a route that can drop it; no polling
            # answers while it is down, so only the reconnect can catch him up.
            ben.route_web_socket(re.compile(r".*/ws/tables/.*"), through)
            ben.reload()
            ben.wait_for_selector('#live-link[data-state="live"]')
            ben.wait_for_function(
                f"Number(document.querySelector('#live').dataset.n) >= {n_of(ann)}"
            )
            had = n_of(ben)
            ben.route(re.compile(r".*/news/.*"), lambda route: route.abort())
            dropped[0].close()
            ben.wait_for_selector('#live-link[data-state="polling"]')
    assert ann.get_attribute("#live", "data-status") == "finished", "the game did not end"
    ben.wait_for_selector('#live[data-status="finished"]')
    assert dropped, "the game ended before a socket could be dropped"
    assert len(sockets) >= 2 and f"since={had}" in sockets[1]  # caught up from its last event
    # Ann's socket was open at each of her moves: each went on it, none over HTTP.
    assert posted["ann"] == 0 and on_socket["ann"] >= 2 and on_socket["ben"] >= 1, (
        posted,
        on_socket,
    )
    for page in (ann, ben):
        assert moves_shown(page) == int(page.get_attribute("#live", "data-ply"))
        page.wait_for_selector('#live-done a[data-link="match"]')
        page.context.close()
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert Match.objects.filter(pk=table.match_id, club=club).exists()
    assert not errors, errors
