"""Every choice a person makes while recording, in words (issue 35, item 2): each field of
every legal action (and every way its chance could come out) of every game is named by
the engine (``Game.field_label``), and each value said (``Game.choice_label``) in
Japanese and Russian, never as the log's code (``red``, ``train/secret``, ``refill``,
``examine``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from engine import Session, Table, get_game, play, render
from engine.games.misterx.board import shipped_board
from tests.examples import load_example

SCRIPTS = {"ja": re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]"), "ru": re.compile(r"[\u0400-\u04ff]")}
#: the games, each with logs to walk: bot games and the documented examples
LOGS = {
    "mister-x": lambda: [
        play("mister-x", 1, ["greedy"] * 3),
        load_example("misterx-destination.json"),
    ],
    "cloak-and-dagger": lambda: [
        play("cloak-and-dagger", 1, ["greedy"] * 2),
        load_example("cloak-documents.json"),
    ],
    "cryptid-urban-legends": lambda: [
        play("cryptid-urban-legends", 1, ["greedy"] * 2),
        load_example("cryptid-escape.json"),
    ],
}


def flatten(action: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """``(path, value)`` of every leaf, as the recorder's page narrows: nested objects
    become paths (``left/red``), lists stay whole."""
    for key, value in action.items():
        path = f"{prefix}/{key}" if prefix else key
        if isinstance(value, dict) and value:
            yield from flatten(value, path)
        else:
            yield path, value


def choices_of(game_id: str) -> dict[tuple[str, str], tuple[Any, str]]:
    """Every (path, value) a recorder is offered along the logs, with the seat choosing."""
    game = get_game(game_id)
    found: dict[tuple[str, str], tuple[Any, str]] = {}
    for log in LOGS[game_id]():
        session = Session.start({**log, "actions": []})
        for recorded in log["actions"][:80]:
            for seat in session.to_act:
                actions = session.legal_actions(seat)
                outcomes = []
                for action in actions[:30]:
                    if game.chance_draw(session.state, action) is None:
                        outcomes += game.chance_options(session.state, action)[:30]
                for action in actions[:400] + outcomes:
                    for path, value in flatten(action):
                        if path != "seat":
                            found.setdefault((path, repr(value)), (value, seat))
            session.step(recorded)
            if session.is_over:
                break
    return found


def is_code(text: str, value: Any) -> bool:
    """Text that is the value as the log writes it (a number counts as a word)."""
    if isinstance(value, bool) or value is None:
        return text in ("True", "False", "None", "null")
    if isinstance(value, int):
        return False
    return text == str(value) or text.strip("[]'\"") in str(value)


@pytest.mark.parametrize("game_id", sorted(LOGS))
@pytest.mark.parametrize("language", ["ja", "ru"])
def test_every_choice_is_said_in_the_readers_language(game_id, language):
    game = get_game(game_id)
    log = LOGS[game_id]()[0]
    table = Table(
        {s["seat"]: s["player"] for s in log["seats"]},
        game.normalize_options(log.get("options") or {}),
    )
    script = SCRIPTS[language]
    found = choices_of(game_id)
    assert len({path for path, _ in found}) >= 3
    fields = {path for path, _ in found}
    unnamed = sorted(
        p for p in fields | {"type"} if not script.search(render(game.field_label(p), language))
    )
    assert unnamed == []
    codes = []
    for (path, _), (value, seat) in found.items():
        said = render(game.choice_label(path, value, seat, table), language)
        if is_code(said, value) or (
            isinstance(value, str | list | dict)
            and not script.search(said)
            and not re.fullmatch(r"[\d\s.,()]+", said)
        ):
            codes.append((path, value, said))
    assert codes == []


def test_mx_choices_name_cities_pawns_tickets_and_what_to_do():
    game = get_game("mister-x")
    table = Table({"mrx": "alice", "det1": "bob"}, game.normalize_options({}))
    say = {
        lang: (lambda p, v, lang=lang: render(game.choice_label(p, v, "det1", table), lang))
        for lang in ("ja", "ru")
    }
    assert say["ja"]("pawn", "red") == "赤" and say["ru"]("pawn", "red") == "красный"
    assert say["ja"]("ticket", "train/secret") == "電車（秘密移動）"
    assert say["ru"]("type", "refill") == "взять билеты" and say["ja"]("type", "stay") == "とどまる"
    lewis = next(
        c.id for c in shipped_board("europe/1").cities.values() if c.name == "Isle of Lewis"
    )
    assert say["ja"]("to", lewis) == "ルイス島" and say["ru"]("moves/0/to", lewis) == "Льюис"
    # Two cities of one name are told apart by their numbers.
    brests = sorted(c.id for c in shipped_board("europe/1").cities.values() if c.name == "Brest")
    assert [say["ru"]("to", b) for b in brests] == [f"Брест ({b})" for b in brests]
    assert render(game.field_label("tickets/2"), "ja") == "チケット 3"


def test_cd_a_spy_is_named_as_its_owner_sees_it():
    game = get_game("cloak-and-dagger")
    table = Table({"p1": "anna", "p2": "boris"}, game.normalize_options({}))
    assert render(game.choice_label("spy", "D", "p1", table), "ja") == "自分のスパイ D"
    assert render(game.choice_label("type", "examine", "p1", table), "ru") == "заглянуть"
    assert render(game.choice_label("envelope", 7, "p1", table), "ja") == "封筒 7"
