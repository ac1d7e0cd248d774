"""``python -m engine`` as docs/rules/log-format.md's "Command line" says."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine import replay
from engine.cli import main
from tests.examples import EXAMPLES_DIR

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def files(tmp_path):
    examples = EXAMPLES_DIR
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    return {
        "escape": str(examples / "cryptid-escape.json"),
        "timeout": str(examples / "cryptid-timeout.json"),
        "illegal": str(examples / "cryptid-illegal-draw.json"),
        "broken": str(broken),
        "missing": str(tmp_path / "nowhere.json"),
    }


def test_validate_prints_one_line_per_file_and_exits_0_when_all_pass(files, capsys):
    assert main(["validate", files["escape"], files["timeout"]]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        f"{files['escape']}: ok: finished, Cryptid (alice) wins: the cryptid escaped (evidence: "
        f"cryptid 2, "
        "scientist 0), 46 actions",
        f"{files['timeout']}: ok: finished, Cryptid (alice) wins on time, with more evidence "
        f"(cryptid 3, "
        "scientist 2), 67 actions",
    ]


def test_the_cli_says_its_own_words_in_the_language_asked(files, capsys):
    """Not only the engine's refusals and sentences: "ok", "rejected", "(showing the valid
    part)" and the result line are said in --lang too."""
    assert main(["--lang", "ru", "validate", files["escape"], files["illegal"]]) == 1
    ok, rejected = capsys.readouterr().out.splitlines()
    assert ok == (
        f"{files['escape']}: ок: завершена, Криптид (alice) побеждает: Криптид сбежал "
        "(доказательства: Криптид 2, Учёный 0), 46 действий"
    )
    assert rejected.startswith(
        f"{files['illegal']}: отклонено: действие 14 (Криптид: взять карты): CUL-3.7: "
    )
    assert rejected.endswith("(правило: /rules/cryptid-urban-legends/?lang=ru#CUL-3.7)")
    assert main(["--lang", "ja", "show", files["illegal"]]) == 0
    said = capsys.readouterr().err
    assert said.startswith("却下: アクション 14") and "（有効な部分を表示）" in said
    assert not re.search(r"\b(rejected|showing|rule|ok)\b", said)


def test_validate_exits_1_when_any_file_is_rejected(files, capsys):
    assert main(["validate", files["escape"], files["illegal"]]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert lines[1].startswith(
        f"{files['illegal']}: rejected: action 14 (Cryptid: draw cards): CUL-3.7: "
    )
    # and where the rule's text is on Lantern's site
    assert lines[1].endswith(" (rule: /rules/cryptid-urban-legends/#CUL-3.7)")


def test_validate_json_prints_one_object_per_line(files, capsys):
    code = main(
        ["validate", "--json", files["escape"], files["illegal"], files["broken"], files["missing"]]
    )
    assert code == 1
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows[0] == {
        "file": files["escape"],
        "ok": True,
        "status": "finished",
        "result": {
            "winner": "cryptid",
            "reason": "escape",
            "evidence": {"cryptid": 2, "scientist": 0},
        },
    }
    assert rows[1]["ok"] is False and (rows[1]["index"], rows[1]["rule"]) == (14, "CUL-3.7")
    assert set(rows[1]) == {
        "file",
        "ok",
        "index",
        "rule",
        "rule_url",
        "message",
        "message_id",
        "params",
    }
    assert rows[1]["message_id"] == "cul.refuse.exactly_cards" and rows[1]["params"]["count"] == 2
    assert rows[1]["rule_url"] == "/rules/cryptid-urban-legends/#CUL-3.7"
    assert rows[2]["ok"] is False and rows[2]["index"] is None and rows[2]["rule"] == "LOG-JSON"
    assert rows[2]["rule_url"] == "/rules/log-format/#LOG-JSON"
    assert rows[3]["ok"] is False and rows[3]["index"] is None and rows[3]["rule"] == "LOG-JSON"


def test_validate_json_of_an_unfinished_log(tmp_path, files, capsys):
    log = json.loads(Path(files["escape"]).read_text())
    log["actions"] = log["actions"][:5]
    log["result"] = None
    path = tmp_path / "half.json"
    path.write_text(json.dumps(log))
    assert main(["validate", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "file": str(path),
        "ok": True,
        "status": "unfinished",
        "result": None,
    }


def test_play_writes_a_complete_legal_log(tmp_path):
    out = tmp_path / "game.json"
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "engine",
            "play",
            "--game",
            "cryptid-urban-legends",
            "--seed",
            "5",
            "--bots",
            "random,random",
            "--out",
            str(out),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert completed.returncode == 0, completed.stderr
    log = json.loads(out.read_text())
    assert log["seed"] == 5 and log["result"] is not None
    assert replay(log).result == log["result"]
    checked = subprocess.run(
        [sys.executable, "-m", "engine", "validate", "--json", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert checked.returncode == 0
    assert json.loads(checked.stdout)["result"] == log["result"]


def test_play_to_stdout_and_bad_arguments(capsys):
    assert (
        main(["play", "--game", "cryptid-urban-legends", "--seed", "1", "--bots", "greedy,random"])
        == 0
    )
    log = json.loads(capsys.readouterr().out)
    assert log["meta"]["bots"] == {"cryptid": "greedy", "scientist": "random"}
    assert main(["play", "--game", "chess", "--seed", "1", "--bots", "random,random"]) == 2
    assert main(["play", "--game", "cryptid-urban-legends", "--seed", "1", "--bots", "random"]) == 2


def test_schema_and_show(files, capsys):
    assert main(["schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["properties"]["format"] == {"const": "lantern-log/1"}
    assert main(["show", files["escape"], "--ply", "0"]) == 0
    assert capsys.readouterr().out.startswith("Round 1, Sensor phase, cryptid to act")
    assert main(["show", files["illegal"]]) == 0  # shows the valid prefix
    captured = capsys.readouterr()
    assert "rejected: action 14" in captured.err and captured.out.startswith("Round 2")
    # --lang: the board text in that language, from the same catalogs as the refusal.
    assert main(["show", "--lang", "ja", files["escape"], "--ply", "0"]) == 0
    assert capsys.readouterr().out.startswith("ラウンド 1、感知フェイズ、手番: クリプティッド")
    assert main(["--lang", "ru", "show", files["illegal"]]) == 0
    captured = capsys.readouterr()
    assert "CUL-3.7" in captured.err
    assert captured.out.startswith("Раунд 2")


# --- --lang: English by default, the engine's other catalogs on request ----------------
def test_validate_says_a_rejection_in_the_language_asked_with_the_same_rule(files, capsys):
    assert main(["validate", files["illegal"]]) == 1
    english = capsys.readouterr().out
    assert main(["validate", "--lang", "ja", files["illegal"]]) == 1
    japanese = capsys.readouterr().out.strip()
    assert japanese == (
        f"{files['illegal']}: 却下: アクション 14（クリプティッド：カードを引く）: CUL-3.7: "
        "クリプティッドのドロー: "
        "引いたカードはちょうど2枚のカードでなければなりません（1枚ではなく）"
        "（ルール: /rules/cryptid-urban-legends/?lang=ja#CUL-3.7）"
    )
    assert (
        main(["--lang", "ru", "validate", "--json", files["illegal"]]) == 1
    )  # before the command too
    row = json.loads(capsys.readouterr().out)
    assert row["rule"] == "CUL-3.7" and row["message"] in english
    assert row["text"] == "добор карт (Криптид): взятые карты: должно быть ровно 2 карты, а не 1"


def test_moves_prints_each_move_as_a_sentence_in_the_language(files, capsys):
    assert main(["moves", files["escape"]]) == 0
    english = capsys.readouterr().out.splitlines()
    assert main(["moves", "--lang", "ru", files["escape"]]) == 0
    russian = capsys.readouterr().out.splitlines()
    assert len(english) == len(russian) == 46 + 1  # every action, then the result
    assert (
        english[0]
        == "1. Cryptid (alice) plays Split from space 1: red and white to the left, red, white and "
        "black to the right"
    )
    assert russian[0] == (
        "1. Криптид (alice) разыгрывает Разделение из места 1: 1 красный и 1 белый влево, "
        "1 красный, 1 белый и 1 чёрный вправо"
    )
    assert english[-1].startswith("Cryptid (alice) wins: the cryptid escaped")
    assert russian[-1].startswith("Криптид (alice) побеждает: Криптид сбежал")


def test_an_unknown_language_is_a_usage_error(files, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["validate", "--lang", "xx", files["escape"]])
    assert stop.value.code == 2
    assert "invalid choice: 'xx'" in capsys.readouterr().err
