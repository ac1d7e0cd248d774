"""CUL-5: what each seat sees, text rendering and notation."""

from __future__ import annotations

import json
import re

import pytest

from engine import play, replay
from engine.games.cryptid.notation import notation
from tests.engine.cryptid_helpers import GAME, start


def test_cul_5_a_seat_sees_its_own_hand_and_only_the_size_of_the_other():
    state = start()
    mine = GAME.view(state, "cryptid")
    assert mine["hands"]["cryptid"] == {"size": 3, "cards": ["align", "shuffle", "split"]}
    assert mine["hands"]["scientist"] == {"size": 3}
    assert mine["decks"]["scientist"] == {"size": 7}
    assert "blocks" not in mine["block_deck"]
    everything = GAME.view(state, None)
    assert everything["hands"]["scientist"]["cards"] == ["align", "shuffle", "split"]
    assert everything["block_deck"] == {
        "size": 14,
        "normal_on_top": 4,
        "blocks": everything["block_deck"]["blocks"],
    }
    assert len(everything["block_deck"]["blocks"]) == 14


def test_cul_5_the_table_is_public():
    state = start()
    for viewer in ("cryptid", "scientist", None):
        v = GAME.view(state, viewer)
        assert v["round"] == 1 and v["phase"] == "sensor" and v["to_act"] == ["cryptid"]
        assert v["rows"]["cryptid"]["blocks"] == [
            {"id": "N6", "kind": "normal", "presence": True, "evidence": False}
        ]
        assert v["rows"]["cryptid"]["spaces"] == [
            {"red": 2, "white": 2, "black": 1},
            {"red": 2, "white": 1, "black": 2},
        ]
        assert v["wild"] == {"cryptid": "down", "scientist": "down"}
        assert v["presence_supply"] == 3


def test_cul_5_no_seat_view_holds_the_other_hand_at_any_ply():
    log = play("cryptid-urban-legends", 21, ["greedy", "random"])
    r = replay(log)
    for viewer, other in (("cryptid", "scientist"), ("scientist", "cryptid")):
        for frame in r.frames(viewer):
            view = frame["view"]
            assert "cards" not in view["hands"][other] and "cards" not in view["decks"][other]
            assert "blocks" not in view["block_deck"]
            action = frame["action"]
            if action and action["type"] == "draw" and action["seat"] == other:
                assert "cards" not in action
            text = json.dumps(frame)
            assert text  # JSON-ready


def test_cul_5_drawn_blocks_are_shown_to_the_expander_only_until_placed():
    log = play("cryptid-urban-legends", 4, ["greedy", "greedy"], max_actions=200)
    r = replay(log)
    for _ply, _action, state in r.states():
        if state.phase == "expansion":
            expander = state.active
            assert GAME.view(state, expander)["drawn_blocks"] == state.pending_blocks
            assert (
                GAME.view(state, "cryptid" if expander == "scientist" else "scientist")[
                    "drawn_blocks"
                ]
                is None
            )
            break
    else:
        raise AssertionError("no expansion reached")


def test_render_text_shows_rows_markers_and_hands():
    lines = GAME.render_text(start()).splitlines()
    assert lines[:5] == [
        "Round 1, Sensor phase, cryptid to act",
        "  scientist row (inactive)",
        "     ()        [N4]        ()       [N12]        ()",
        "  cryptid row (active)",
        # half a block to the right: active space 0 lies between inactive spaces 0 and 1
        "            (r2 w2 b1)   [N6*]    (r2 w1 b2)",
    ]
    assert "  cryptid hand align, shuffle and split; deck 7; discard none; wild down" in lines
    # written as a person writes it, never as Python prints a list or a dict
    assert not any(mark in line for line in lines for mark in ("[]", "['", "{'"))


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        (
            "ja",
            [
                "ラウンド 1、感知フェイズ、手番: クリプティッド",
                "科学者の列（非アクティブ）",
                "  クリプティッド: 手札 整列、撹乱、分散；山札 7；"
                "捨て札 なし；ワイルドカード 裏向き",
            ],
        ),
        (
            "ru",
            [
                "Раунд 1, Фаза сенсора, ходит: Криптид",
                "  ряд «Учёный» (неактивный)",
                "  Криптид: рука Объединение, Смещение и Разделение; колода 7; сброс нет; "
                "универсальная карта лицом вниз",
            ],
        ),
    ],
)
def test_render_text_speaks_the_readers_language(locale, words):
    text = GAME.render_text(start(), locale)
    lines = text.splitlines()
    assert [w for w in words if w not in lines and w not in text] == []
    # The rows are notation (block ids, sensors r/w/b), the same in every language.
    assert lines[2] == GAME.render_text(start()).splitlines()[2]
    # No English word left: only block ids and the notation's letters are Latin.
    prose = [line for i, line in enumerate(lines) if i not in (2, 4, 5)]
    assert not any(re.search(r"[A-Za-z]{3,}", line) for line in prose), prose


def test_notation_of_every_action_type():
    assert (
        notation(
            {
                "seat": "cryptid",
                "type": "play",
                "card": "split",
                "space": 2,
                "left": {"white": 1},
                "right": {"red": 2, "black": 1},
            }
        )
        == "C split@2 L(w1) R(r2 b1)"
    )
    assert (
        notation(
            {
                "seat": "scientist",
                "type": "play",
                "card": "shuffle",
                "space": 1,
                "color": "red",
                "dir": "right",
            }
        )
        == "S shuffle r@1 >"
    )
    assert (
        notation(
            {"seat": "cryptid", "type": "wild", "as": "align", "color": "white", "dir": "left"}
        )
        == "C wild:align w <"
    )
    assert (
        notation({"seat": "cryptid", "type": "draw", "cards": ["split", "align"]})
        == "C draw split,align"
    )
    assert notation({"seat": "cryptid", "type": "draw", "count": 2}) == "C draw 2"
    assert notation({"seat": "cryptid", "type": "declare", "count": 5}) == "C declare 5"
    assert (
        notation({"seat": "cryptid", "type": "declare", "colors": ["red", "white"]})
        == "C declare red+white"
    )
    assert notation({"seat": "scientist", "type": "blockade", "side": "left"}) == "S blockade left"
    assert notation(
        {"seat": "cryptid", "type": "relocate", "to": {"3": {"black": 1}, "0": {"red": 1}}}
    ) == ("C relocate 0(r1) 3(b1)")
    assert (
        notation({"seat": "scientist", "type": "expand", "left": "M2", "right": "N7"})
        == "S expand M2|N7"
    )
