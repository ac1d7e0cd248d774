"""Paged frames (issue #17, bounded cost): a long match's frames carry every move but the
views of one page only; the other pages come from /frames/views, the same views as the
whole payload's, and the page in the browser fetches them as a person moves through it."""

from __future__ import annotations

import gzip
import json

import pytest
from django.core.cache import cache

from engine import play
from replay.frames import PAGE_SIZE, build_frames, build_views
from tests.replay.browsing import board_ply, open_replay

#: An unfinished Cloak & Dagger game between random bots: 3 pages and a bit.
ACTIONS = 3 * PAGE_SIZE + 17


@pytest.fixture(scope="module")
def long_log() -> dict:
    log = json.loads(json.dumps(play("cloak-and-dagger", 3, ["random"] * 2, max_actions=ACTIONS)))
    assert len(log["actions"]) == ACTIONS and log["result"] is None
    return log


@pytest.fixture(autouse=True)
def _own_empty_cache(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    cache.clear()


def _without_views(frames: list[dict]) -> list[dict]:
    # a frame's result sentence goes with its view (the state's, where a seat learns it)
    return [
        {key: value for key, value in frame.items() if key not in ("view", "result_sentence")}
        for frame in frames
    ]


@pytest.mark.parametrize("viewer", ["all", "p1", "p2"])
def test_every_page_is_the_whole_payloads_views_and_the_moves_are_all_there(long_log, viewer):
    whole = build_frames(long_log, viewer)
    views = [frame["view"] for frame in whole["frames"]]
    assert whole["page"] is None and len(views) == ACTIONS + 1
    for page in range(4):
        paged = build_frames(long_log, viewer, page=page)
        assert _without_views(paged["frames"]) == _without_views(whole["frames"])
        window = range(page * PAGE_SIZE, min((page + 1) * PAGE_SIZE, ACTIONS + 1))
        assert [f.get("view") for f in paged["frames"]] == [
            views[ply] if ply in window else None for ply in range(ACTIONS + 1)
        ]
        alone = build_views(long_log, viewer, page)
        assert alone["from"] == window[0] and alone["views"] == views[window[0] : window[-1] + 1]
        results = [frame["result_sentence"] for frame in whole["frames"]]
        assert alone["result_sentences"] == results[window[0] : window[-1] + 1]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_frame_that_ends_the_game_says_its_result_as_a_sentence(example_log, language):
    """The boards say who won as the engine's sentence in the reader's language, from the
    frame whose view holds the result (every seat learns it there), never a reason's id."""
    from engine import Table, get_game, render

    log = example_log("cryptid-escape.json")
    game = get_game(log["game"])
    table = Table(
        {e["seat"]: e["player"] for e in log["seats"]},
        game.normalize_options(log.get("options") or {}),
    )
    said = render(game.describe_result(log["result"], table), language)
    frames = build_frames(log, "all", locale=language)["frames"]
    assert [f["result_sentence"] for f in frames] == [None] * (len(frames) - 1) + [said]
    assert build_views(log, "scientist", 0, locale=language)["result_sentences"][-1] == said


@pytest.mark.django_db
def test_the_api_serves_the_page_of_the_ply_asked_for_and_any_other_page(
    client, club, store_match, long_log
):
    match = store_match(club, long_log)
    views = [frame["view"] for frame in build_frames(long_log, "p2")["frames"]]
    body = client.get(f"/api/matches/{match.pk}/frames?view=p2&ply=250").json()
    assert body["page"] == 2 and body["page_size"] == PAGE_SIZE
    assert [ply for ply, frame in enumerate(body["frames"]) if "view" in frame] == list(
        range(200, 300)
    )
    assert body["frames"][250]["view"] == views[250]
    for page in range(4):
        url = f"/api/matches/{match.pk}/frames/views?view=p2&page={page}"
        response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
        assert response.status_code == 200 and response["Content-Encoding"] == "gzip"
        got = json.loads(gzip.decompress(response.content))
        assert got["views"] == views[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]
        assert client.get(url, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304
    past = client.get(f"/api/matches/{match.pk}/frames/views?view=p2&page=4")
    assert past.status_code == 404 and past.json()["error"] == "unknown_page"
    # Empty is a value, not a parameter left out; "²" is a digit to str.isdigit but not to int.
    for bad in ("-1", "x", "1e3", "9" * 30, "", "%C2%B2", "1000000000"):
        assert client.get(f"/api/matches/{match.pk}/frames/views?page={bad}").status_code == 400
        assert client.get(f"/api/matches/{match.pk}/frames?ply={bad}").status_code == 400
    unknown = client.get(f"/api/matches/{match.pk}/frames/views?view=p9&page=0")
    assert unknown.status_code == 422 and unknown.json()["error"] == "unknown_view"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_page_fetches_the_views_it_needs_as_the_person_moves(
    page, live_server, club, store_match, long_log
):
    match = store_match(club, long_log)
    frames = build_frames(long_log, "all")["frames"]
    requested: list[str] = []
    page.on(
        "request",
        lambda request: requested.append(request.url) if "/frames" in request.url else None,
    )

    def contents() -> list[str]:
        return page.eval_on_selector_all(
            "#replay-board g.envelope", "els => els.map(e => e.getAttribute('data-contents'))"
        )

    def shows(ply: int) -> None:
        page.wait_for_selector(f'#replay-board[data-ply="{ply}"]')
        assert contents() == [",".join(e["contents"]) for e in frames[ply]["view"]["envelopes"]], (
            ply
        )

    open_replay(page, live_server, match, "?ply=99999999999999")  # past the end: the last move
    shows(ACTIONS)
    requested.clear()
    open_replay(page, live_server, match, "?ply=150")
    shows(150)
    # The first answer carried page 1; page 0 came too only if the board needed ply 99.
    assert [url for url in requested if "/views" in url] == []
    page.keyboard.press("End")
    shows(ACTIONS)
    assert any(url.endswith("page=3") for url in requested)
    page.keyboard.press("ArrowLeft")
    shows(ACTIONS - 1)
    # Back across a page boundary, by the move list and by the scrub bar.
    page.click('#replay-moves button[data-ply="300"]')
    shows(300)
    page.keyboard.press("ArrowLeft")
    shows(299)
    page.locator("#replay-scrub").fill("40")
    shows(40)
    assert f"ply={40}" in page.url
    assert board_ply(page) == 40
    # Each page was fetched once.
    pages = [url for url in requested if "/views" in url]
    assert len(pages) == len(set(pages)), pages
