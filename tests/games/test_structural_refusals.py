"""Issue 35, item 4: a log refused for its structure (a missing or mistyped part, a wrong
format line, seats written wrong, an action without a field) is told in the reader's
language, naming the part of the log in words: no JSON field name in the sentence. The
JSON path is kept as a detail for whoever opens the log, as the match page keeps its
sha256."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from typing import Any

import pytest

import engine
from games.models import Upload
from tests.games.logs import bot_log

pytestmark = pytest.mark.django_db


def mister_x() -> dict[str, Any]:
    return bot_log("mister-x", 1, ["alice", "bob"])


def without(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda log: log.pop(key)


def setting(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda log: log.__setitem__(key, value)


def first_action(change: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    return lambda log: change(log["actions"][0])


#: name -> (how the log is broken, its JSON path, words each language must use for it)
BROKEN: dict[str, tuple[Callable[[dict[str, Any]], None], str, dict[str, str]]] = {
    "actions missing": (
        without("actions"),
        "actions",
        {"ja": "アクションの一覧", "ru": "списка действий"},
    ),
    "actions not a list": (
        setting("actions", {"0": "move"}),
        "actions",
        {"ja": "アクションの一覧", "ru": "списка действий"},
    ),
    "wrong format line": (
        setting("format", "lantern-log/0"),
        "format",
        {"ja": "形式", "ru": "формат"},
    ),
    "no seats": (setting("seats", []), "seats", {"ja": "席の一覧", "ru": "списка мест"}),
    "a seat not an object": (
        lambda log: log["seats"].__setitem__(1, "bob"),
        "seats[1]",
        {"ja": "2 番目", "ru": "2-я запись"},
    ),
    "a seat without its player": (
        lambda log: log["seats"][1].pop("player"),
        "seats[1].player",
        {"ja": "プレイヤーの名前", "ru": "не указан игрок"},
    ),
    "seats not the game's": (
        lambda log: log["seats"][1].__setitem__("seat", "detective"),
        "seats",
        {"ja": "探偵プレイヤー", "ru": "игроков-детективов"},
    ),
    "options not an object": (
        setting("options", ["europe/1"]),
        "options",
        {"ja": "オプション", "ru": "параметры игры"},
    ),
    "setup not an object": (setting("setup", "dealt"), "setup", {"ja": "準備", "ru": "подготовка"}),
    "meta not an object": (
        setting("meta", "last night"),
        "meta",
        {"ja": "いつどこで", "ru": "когда и где"},
    ),
    "a date that is no date": (
        lambda log: log["meta"].__setitem__("played_at", "last Tuesday"),
        "meta.played_at",
        {"ja": "ログの対局日時", "ru": "дата партии"},
    ),
    "seed out of range": (
        setting("seed", -1),
        "seed",
        {"ja": "シャッフル番号", "ru": "номер перемешивания"},
    ),
    "an action not an object": (
        lambda log: log["actions"].__setitem__(0, "mrx move 170"),
        "actions[0]",
        {"ja": "誰が何をするか", "ru": "кто ходит и что делает"},
    ),
    "an action without its seat": (
        first_action(lambda action: action.pop("seat")),
        "actions[0]",
        {"ja": "誰が行うか", "ru": "кто ходит"},
    ),
    "a move without its destination": (
        first_action(lambda action: action.pop("to")),
        "actions[0]",
        {"ja": "行き先が書かれていません", "ru": "не указано, куда"},
    ),
    "a destination that is no city": (
        first_action(lambda action: action.__setitem__("to", "Paris")),
        "actions[0]",
        {"ja": "行き先はボードの都市", "ru": "пункт назначения должен быть городом"},
    ),
    "a detective's move without its pawn": (
        lambda log: next(a for a in log["actions"] if a["seat"] != "mrx").pop("pawn"),
        "actions[3].pawn",
        {"ja": "「コマ」が書かれていません", "ru": "не указано значение «фишка»"},
    ),
}

#: the log's own field names, which no sentence may quote
FIELD_NAMES = re.compile(
    r"\b(actions|seats|seat|player|format|options|setup|meta|seed|result|type|to|ticket)\b"
)


def refusal(client: Any, upload: Upload, language: str) -> tuple[str, str]:
    """The refusal's sentence as the upload page says it, and the page."""
    page = html.unescape(client.get(f"/uploads/{upload.pk}/?lang={language}").content.decode())
    sentence = re.search(r'<p class="plain">(.*?)</p>', page, re.S).group(1)
    return re.sub(r"<[^>]+>", "", sentence), page


@pytest.mark.parametrize("language", ["ja", "ru"])
@pytest.mark.parametrize("case", BROKEN)
def test_a_log_refused_for_its_structure_is_told_in_words_with_its_path_as_a_detail(
    client, people, case, language
):
    break_it, path, words = BROKEN[case]
    log = mister_x()
    break_it(log)
    client.force_login(people["organiser"])
    client.post("/clubs/riverside/upload/", {"log": json.dumps(log)})
    upload = Upload.objects.get()
    assert upload.status == Upload.Status.REJECTED
    sentence, page = refusal(client, upload, language)
    # The sentence names the part in the reader's words, and no JSON field name.
    assert words[language].lower() in sentence.lower(), sentence
    quoted = [name for name in FIELD_NAMES.findall(sentence) if name not in log.get("game", "")]
    assert not quoted, sentence
    # The path, for whoever opens the log, in the details.
    details = re.search(r'<details class="log-path">(.*?)</details>', page, re.S)
    assert details and f"<code>{path}</code>" in details.group(1), page


@pytest.mark.parametrize("language", ["ja", "ru"])
def test_the_api_keeps_the_path_and_says_the_refusal_in_words(api, language):
    log = mister_x()
    log["actions"][3].pop("pawn")
    response = api("organiser").post(
        f"/api/clubs/riverside/matches/?lang={language}",
        data=json.dumps(log),
        content_type="application/json",
    )
    body = response.json()
    assert body["path"] == "actions[3].pawn"
    assert {"ja": "「コマ」", "ru": "«фишка»"}[language] in body["message"]
    assert "'pawn'" not in body["message"]


def test_the_engine_says_where_a_field_refusal_points():
    log = mister_x()
    log["actions"][3]["pawn"] = 7
    with pytest.raises(engine.IllegalAction) as refused:
        engine.replay(log)
    assert refused.value.path == "actions[3].pawn"
    assert refused.value.index == 3
    assert "'pawn'" not in refused.value.text("ja") and "「コマ」" in refused.value.text("ja")
    # the action stopped at is said by its seat's role, not the log's seat id
    assert "det1" not in refused.value.where("ja") and "探偵" in refused.value.where("ja")
    assert "det1" not in refused.value.where("ru") and "Детектив" in refused.value.where("ru")
