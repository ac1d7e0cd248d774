"""The engine's Japanese and Russian catalogs (``engine/**/locale/{ja,ru}.json``).

Every English id has a translation in every language, with the same placeholders and the
plural forms the language needs; and every sentence and refusal real games produce says
itself in ja and ru from that language's own words, with nothing left unfilled.
Refusals are gathered by breaking the actions of bot games field by field, so the test
meets the refusals a club's uploads meet, not a list that could fall behind the rules.
"""

from __future__ import annotations

import json
import re
import string
from pathlib import Path
from typing import Any

import pytest

from engine import play, replay
from engine.core.envelope import check_action_shape
from engine.core.errors import IllegalAction
from engine.core.game import Table
from engine.core.messages import (
    ENGINE_DIR,
    Message,
    catalog,
    locales,
    localized_name,
    message_ids,
    render,
)
from tests.examples import EXAMPLES_DIR

LANGUAGES = ("ja", "ru")
#: The CLDR plural categories a translation's number-dependent template must give.
PLURAL_FORMS = {"ja": {"other"}, "ru": {"one", "few", "many"}}
LEFTOVER = re.compile(r"\{[a-z_][a-z_0-9]*\}")


def _placeholders(template: Any) -> set[str]:
    forms = template.values() if isinstance(template, dict) else [template]
    return {name for form in forms for _, name, _, _ in string.Formatter().parse(form) if name}


def _english_files() -> list[Path]:
    return sorted(ENGINE_DIR.glob("**/locale/en.json"))


# --- the catalogs themselves ----------------------------------------------------------
def test_every_package_ships_ja_and_ru_beside_english():
    assert set(LANGUAGES) <= set(locales())
    for english in _english_files():
        for language in LANGUAGES:
            assert (english.parent / f"{language}.json").is_file(), (english.parent, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_english_id_is_translated_with_the_same_placeholders(language):
    for english_path in _english_files():
        english = json.loads(english_path.read_text(encoding="utf-8"))
        translated = json.loads(
            (english_path.parent / f"{language}.json").read_text(encoding="utf-8")
        )
        assert set(translated) == set(english), (
            english_path.parent,
            set(english) ^ set(translated),
        )
        for key, source in english.items():
            target = translated[key]
            forms = list(target.values()) if isinstance(target, dict) else [target]
            assert forms and all(isinstance(form, str) and form.strip() for form in forms), (
                language,
                key,
            )
            if (
                key == "core.name"
            ):  # a name says the form of its own language (messages.localized_name)
                assert target == "{" + language + "}" and source == "{en}"
                continue
            assert _placeholders(target) == _placeholders(source), (language, key, target)
            for form in forms:  # a form may drop the count ("a card"), never invent a name
                assert _placeholders(form) <= _placeholders(source), (language, key, form)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_number_dependent_template_gives_every_plural_form_of_its_language(language):
    english, translated = catalog("en"), catalog(language)
    for key, target in translated.items():
        if isinstance(english[key], dict) or isinstance(target, dict):
            assert isinstance(target, dict), (
                language,
                key,
                "English varies with the number; so must this",
            )
            assert set(target) == PLURAL_FORMS[language], (language, key, sorted(target))
            if not isinstance(english[key], dict):  # chosen by ``count``: English must carry it
                assert "count" in _placeholders(english[key]), (language, key)


def test_a_city_of_the_shipped_board_is_named_in_the_readers_language():
    from engine.games.misterx.board import resolve_board
    from engine.games.misterx.sentences import _city

    board = resolve_board("europe/1")
    moscow = next(c for c in board.cities.values() if c.name == "Moscow")
    said = _city(board, moscow.id)
    assert [render(said, language) for language in ("en", "ja", "ru")] == [
        "Moscow",
        "モスクワ",
        "Москва",
    ]
    # every city of the shipped board has both names (test_misterx_city_names.py); a city
    # a board gives no name in a language (a club's own board) keeps its board name
    assert all("ja" in c.names and "ru" in c.names for c in board.cities.values())
    assert render(localized_name("Atlantis", {"ru": "Атлантида"}), "ja") == "Atlantis"


def test_russian_counts_choose_one_few_and_many():
    said = {
        n: render({"id": "cul.draw.count", "params": {"who": "Анна", "count": n}}, "ru")
        for n in (1, 2, 5, 11, 21, 22, 25)
    }
    assert said[1] == "Анна берёт 1 карту" and said[21] == "Анна берёт 21 карту"
    assert said[2] == "Анна берёт 2 карты" and said[22] == "Анна берёт 22 карты"
    assert said[5] == said[11].replace("11", "5") == "Анна берёт 5 карт"
    assert (
        render({"id": "cul.draw.count", "params": {"who": "アンナ", "count": 1}}, "ja")
        == "アンナがカードを1枚引く"
    )


# --- what real games say ---------------------------------------------------------------
GAMES = [
    ("cryptid-urban-legends", 2, ["greedy", "random"], {}),
    ("mister-x", 7, ["greedy", "random", "random"], {}),
    (
        "cloak-and-dagger",
        3,
        ["greedy"] * 4,
        {"double_agents": True, "hazards": True, "document_copies": 3},
    ),
]


@pytest.fixture(scope="module")
def played() -> list[dict[str, Any]]:
    return [
        play(game, seed, bots, options=options, max_actions=400)
        for game, seed, bots, options in GAMES
    ]


def _said_in(message: Message, language: str) -> str:
    """``message`` in ``language``, checked: every id its own, nothing left unfilled."""
    own = catalog(language)
    assert message_ids(message) <= set(own), (language, message_ids(message) - set(own))
    text = render(message, language)
    assert text and not LEFTOVER.search(text), (language, text)
    return text


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_sentence_legend_phase_and_result_of_real_games_reads_in_the_language(
    played, language
):
    for log in played:
        rep = replay(log)
        table = Table(rep.players, rep.options)
        for viewer in [None, *rep.game.viewers(rep.options, rep.seats)]:
            for frame in rep.frames(viewer):
                if frame["message"] is not None:
                    _said_in(frame["message"], language)
        for entry in rep.game.legend(rep.options):
            _said_in(entry["text"], language)
        if rep.result:
            _said_in(rep.game.describe_result(rep.result, table), language)


#: Values a broken upload puts in a field: each meets a different check of the rules.
JUNK: list[Any] = [
    None,
    -1,
    0,
    1,
    2,
    3,
    5,
    999,
    "",
    "zz",
    "red",
    "left",
    "car/double",
    [],
    ["zz"],
    {},
    {"zz": 1},
    {"red": 9},
]


def _mutations(action: dict[str, Any], types: set[str], seats: list[str]) -> list[Any]:
    out: list[Any] = [[], {"seat": action["seat"]}]
    out += [{**action, "type": kind} for kind in sorted(types)]
    out += [{**action, "seat": seat} for seat in seats + ["nobody"]]
    for key in action:
        if key not in ("seat", "type"):
            out += [{**action, key: value} for value in JUNK]
            out.append({k: v for k, v in action.items() if k != key})
    return out


def _refusals(logs: list[dict[str, Any]]) -> list[IllegalAction]:
    found: list[IllegalAction] = []
    for log in logs:
        rep = replay(log)
        game, seats = rep.game, list(rep.seats)
        types = {a["type"] for a in log["actions"]}
        actions = log["actions"]
        for ply, _done, state in rep.states():  # one state, advanced in place: copy it to break
            if ply >= len(actions):
                continue
            for broken in _mutations(actions[ply], types, seats):
                try:
                    check_action_shape(broken)
                    game.apply(game.clone(state), broken)
                except IllegalAction as exc:
                    found.append(exc)
        # the setup, the envelope and what follows the end
        for changed in (
            {"seats": []},
            {"seats": [{"seat": seats[0], "player": "a"}] * 2},
            {"format": "x"},
            {"game": "chess"},
            {"seed": -1},
            {"setup": {}},
            {"options": {"zz": 1}},
            {"actions": [*log["actions"], log["actions"][-1]]},
            {"result": {"winner": "nobody"}},
        ):
            try:
                replay({**log, "seed": None, **changed})
            except IllegalAction as exc:
                found.append(exc)
    # a club's own Mister X board that is not a board (MX-1.2)
    from engine.games.misterx.board import resolve_board

    shipped = json.loads(
        (ENGINE_DIR / "games/misterx/boards/europe-1.json").read_text(encoding="utf-8")
    )
    for broken_board in (
        "nope/9",
        7,
        {"id": "x"},
        {**shipped, "tickets": shipped["tickets"][1:]},
        {**shipped, "connections": [*shipped["connections"], [1, 1, "car"]]},
        {**shipped, "start_cards": shipped["start_cards"][1:]},
    ):
        try:
            resolve_board(broken_board)
        except IllegalAction as exc:
            found.append(exc)
    for example in sorted(EXAMPLES_DIR.glob("*.json")):
        try:
            replay(json.loads(example.read_text(encoding="utf-8")))
        except IllegalAction as exc:
            found.append(exc)
    return found


@pytest.fixture(scope="module")
def refusals(played) -> list[IllegalAction]:
    return _refusals(played)


def test_broken_actions_meet_many_different_refusals(refusals):
    ids = {exc.message_id for exc in refusals}
    assert all(i.split(".")[0] in ("core", "cul", "mx", "cd") and ".refuse." in i for i in ids), ids
    said = {
        i for exc in refusals for i in message_ids(exc.sentence)
    }  # a bad board's problem is nested
    for prefix in ("core.refuse.", "cul.refuse.", "mx.refuse.", "cd.refuse.", "mx.refuse.board."):
        assert sum(i.startswith(prefix) for i in said) >= 4, (prefix, sorted(said))
    assert len(ids) >= 70, len(ids)


def test_a_refusal_carries_only_what_its_english_sentence_says(refusals):
    # Secrets: a refusal in any language is built from the params of the English one,
    # and every param is a word of that English sentence, so no language can say more.
    english = catalog("en")

    def check(message: Message) -> None:
        names = _placeholders(english[message["id"]])
        assert set(message["params"]) <= names, (message["id"], set(message["params"]) - names)
        for value in message["params"].values():
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, dict):
                    check(item)

    for exc in refusals:
        check(exc.sentence)
        assert exc.message == render(exc.sentence, "en")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_reads_in_the_language_and_keeps_its_rule(refusals, language):
    for exc in refusals:
        text = _said_in(exc.sentence, language)
        assert text != exc.message or exc.message_id == "core.text", (exc.message_id, text)
        line = exc.describe(language)
        assert f": {exc.rule}: " in line and line.endswith(text)
        assert exc.rule == exc.as_dict()["rule"] and exc.as_dict()["message"] == exc.message


def test_every_message_id_the_engine_code_names_has_words_in_every_language():
    # The refusals above are the ones bot games meet; this covers every other one the
    # code can raise: each msg("id", ...) written in the engine has a template in en, ja
    # and ru (an id built as f"cul.colour.{colour}" needs at least one id of that family).
    import ast

    named: set[str] = set()
    families: set[str] = set()
    for path in sorted(ENGINE_DIR.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "msg" and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    named.add(first.value)
                elif isinstance(first, ast.JoinedStr) and isinstance(first.values[0], ast.Constant):
                    families.add(first.values[0].value)
    assert (
        len(named) > 250 and {"mx.refuse.board.bad", "core.what.setup", "cul.group.none"} <= named
    )
    for language in ("en", *LANGUAGES):
        words = catalog(language)
        assert named <= set(words), (language, sorted(named - set(words)))
        for family in families:
            assert any(key.startswith(family) for key in words), (language, family)
