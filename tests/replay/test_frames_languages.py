"""The replay's words in the reader's language: the frames API says each move, phase,
legend entry and seat in the language of the request (``?lang=``, the cookie,
Accept-Language), and caches and tags each language apart."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.core.cache import cache

from engine import get_game, play
from engine.core.game import Table
from engine.core.messages import render
from replay.frames import build_frames
from replay.selectors import frames_cache_key

pytestmark = pytest.mark.django_db

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
CYRILLIC = re.compile(r"[\u0400-\u04ff]")


@pytest.fixture(autouse=True)
def _own_empty_cache(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    cache.clear()


@pytest.fixture
def misterx_match(club, store_match, example_log):
    return store_match(club, example_log("misterx-destination.json"))


def _sentences(body: dict) -> list[str]:
    return [f["sentence"] for f in body["frames"] if f["sentence"]]


def test_a_japanese_and_an_english_reader_each_get_their_own_sentences(client, misterx_match):
    url = f"/api/matches/{misterx_match.pk}/frames?view=all"
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").json()
    japanese = client.get(url, HTTP_ACCEPT_LANGUAGE="ja").json()
    # The engine's own sentences in each language, not the site's words.
    log = misterx_match.log.document
    expected = build_frames(log, "all", locale="ja")
    assert _sentences(japanese) == _sentences(expected)
    assert _sentences(english) == _sentences(build_frames(log, "all", locale="en"))
    assert all(JAPANESE.search(s) for s in _sentences(japanese))
    assert not any(JAPANESE.search(s) for s in _sentences(english))
    assert set(japanese["phases"].values()).isdisjoint(english["phases"].values())
    # The seats as a Japanese player calls them (the boards' panels name them so).
    game = get_game(log["game"])
    table = Table(
        {e["seat"]: e["player"] for e in log["seats"]}, game.normalize_options(log["options"])
    )
    assert japanese["seat_labels"]["mrx"] == render(game.seat_label("mrx", table), "ja")


def test_the_language_is_part_of_the_etag_and_the_cache_key(client, misterx_match):
    url = f"/api/matches/{misterx_match.pk}/frames?view=all"
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    # The English tag does not let a Russian reader keep the English body.
    russian = client.get(url, HTTP_ACCEPT_LANGUAGE="ru", HTTP_IF_NONE_MATCH=english["ETag"])
    assert russian.status_code == 200
    assert russian["ETag"] != english["ETag"]
    assert all(CYRILLIC.search(s) for s in _sentences(russian.json()))
    assert "Accept-Language" in russian["Vary"]
    # Each language's tag still revalidates its own body.
    assert (
        client.get(url, HTTP_ACCEPT_LANGUAGE="ru", HTTP_IF_NONE_MATCH=russian["ETag"]).status_code
        == 304
    )
    assert frames_cache_key(misterx_match, "all", locale="ru") != frames_cache_key(
        misterx_match, "all", locale="en"
    )
    # ?lang= names the language in a link, whatever the browser says.
    linked = client.get(url + "&lang=ja", HTTP_ACCEPT_LANGUAGE="ru").json()
    assert all(JAPANESE.search(s) for s in _sentences(linked))


def test_a_cached_english_body_is_never_served_to_a_japanese_reader(client, misterx_match):
    url = f"/api/matches/{misterx_match.pk}/frames?view=mrx"
    client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    japanese = client.get(url, HTTP_ACCEPT_LANGUAGE="ja").json()
    assert all(JAPANESE.search(s) for s in _sentences(japanese))


def test_the_replay_page_speaks_the_readers_language(client, misterx_match):
    page = client.get(f"/matches/{misterx_match.pk}/replay?lang=ru").content.decode()
    assert "Ходы" in page and "Перспектива" in page
    assert "Всевидящий взгляд" in page
    # The JS modules get their words from the catalog of the same language.
    assert 'src="/jsi18n/?lang=ru"' in page
    catalog = client.get("/jsi18n/?lang=ru").content.decode()
    assert json.dumps("Ссылка скопирована") in catalog  # the script writes it JSON-escaped


@pytest.mark.parametrize(("lang", "script"), [("ja", JAPANESE), ("ru", CYRILLIC)])
def test_the_perspectives_are_named_in_the_readers_language_by_the_api_and_the_page(
    client, misterx_match, lang, script
):
    body = client.get(
        f"/api/matches/{misterx_match.pk}/frames?view=all", HTTP_ACCEPT_LANGUAGE=lang
    ).json()
    labels = {v["id"]: v["label"] for v in body["viewers"]}
    # All-seeing, each seat by its role and player, the team by its name: no log id.
    assert set(labels) == {"all", *body["seat_labels"]}
    assert all(script.search(label) for label in labels.values()), labels
    assert not any(
        re.search(r"\b(all|mrx|det\d|detectives|team)\b", label) for label in labels.values()
    ), labels
    player = next(e["player"] for e in body["seats"] if e["seat"] == "mrx")
    assert labels["mrx"] == render(
        {"id": "core.named", "params": {"role": body["seat_labels"]["mrx"], "player": player}}, lang
    )
    # The page's perspective switcher says the same words.
    page = client.get(f"/matches/{misterx_match.pk}/replay?lang={lang}").content.decode()
    assert all(html.escape(label) in page for label in labels.values())


def test_the_shipped_boards_name_is_in_every_language_and_still_says_it_is_lanterns_own(
    client, club, store_match, misterx_match
):
    europe = store_match(club, play("mister-x", 1, ["greedy"] * 3))
    body = client.get(f"/api/matches/{europe.pk}/frames?view=all", HTTP_ACCEPT_LANGUAGE="ja").json()
    board = body["static"]["board"]
    assert board["key"] == "europe/1"
    assert set(board["names"]) == {"en", "ja", "ru"}
    assert JAPANESE.search(board["names"]["ja"]) and "Lantern" in board["names"]["ja"]
    assert (
        "ヨーロッパ" in board["names"]["ja"] and "市販" in board["names"]["ja"]
    )  # not the printed one
    assert "Европа" in board["names"]["ru"] and "изданной" in board["names"]["ru"]
    assert "not the printed one" in board["names"]["en"]
    # A board a log brings (the example's practice grid) keeps the name it was given.
    inline = client.get(
        f"/api/matches/{misterx_match.pk}/frames?view=all", HTTP_ACCEPT_LANGUAGE="ja"
    ).json()
    assert inline["static"]["board"]["names"] == {}
    assert (
        inline["static"]["board"]["name"] == misterx_match.log.document["options"]["board"]["name"]
    )
