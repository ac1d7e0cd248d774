"""Plain-language moves (``Game.describe``): the catalog mechanism, every game's
sentences for each action type and each viewer, and counterfactual leak tests — the
same public history with different hidden facts gives a viewer the same sentences."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from engine import get_game, play, replay
from engine.core import messages
from engine.core.game import Table
from engine.core.messages import catalog, join_list, locales, message_ids, msg, render

CRYPTID = get_game("cryptid-urban-legends")
MISTERX = get_game("mister-x")
CLOAK = get_game("cloak-and-dagger")


def say(
    game,
    action: dict[str, Any],
    players: dict[str, str] | None = None,
    options: dict[str, Any] | None = None,
) -> str:
    table = Table(players or {}, game.normalize_options(options or {}))
    return render(game.describe(action, table))


# --- the catalog mechanism -------------------------------------------------------------
def test_english_is_a_shipped_locale_and_lists_join_as_english_does():
    assert "en" in locales()
    assert join_list(["red"]) == "red"
    assert join_list(["red", "white"]) == "red and white"
    assert join_list(["red", "white", "black"]) == "red, white and black"


def test_plural_forms_follow_the_count_and_the_languages_rule(monkeypatch):
    assert render(msg("cul.draw.count", who="Anna", count=1)) == "Anna draws a card"
    assert render(msg("cul.draw.count", who="Anna", count=2)) == "Anna draws 2 cards"
    # A Russian catalog picks one/few/many; until there is one, English is the fallback.
    ru = {
        "cul.draw.count": {
            "one": "{who}: {count} карту",
            "few": "{who}: {count} карты",
            "many": "{who}: {count} карт",
        }
    }
    monkeypatch.setattr(messages, "catalog", lambda loc: ru if loc == "ru" else catalog(loc))
    assert render(msg("cul.draw.count", who="A", count=21), "ru") == "A: 21 карту"
    assert render(msg("cul.draw.count", who="A", count=3), "ru") == "A: 3 карты"
    assert render(msg("cul.draw.count", who="A", count=11), "ru") == "A: 11 карт"
    assert render(msg("cul.draw.count", who="A", count=2), "de") == "A draws 2 cards"


def test_an_unknown_id_shows_itself_and_catalog_ids_are_unique_across_files():
    assert render(msg("no.such.id", x=1)) == "no.such.id"
    assert catalog("en")["mx.seat.mrx"] == "Mister X"


# --- each game's sentences, by action type ---------------------------------------------
PLAYERS = {"cryptid": "Anna", "scientist": "Boris"}


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (
            {
                "seat": "cryptid",
                "type": "play",
                "card": "split",
                "space": 0,
                "left": {"red": 1, "white": 1},
                "right": {"red": 1, "white": 1},
            },
            "Cryptid (Anna) plays Split from space 1: red and white to the left, red and white to "
            "the right",
        ),
        (
            {
                "seat": "scientist",
                "type": "play",
                "card": "split",
                "space": 2,
                "left": {"red": 2, "black": 1},
                "right": {},
            },
            "Scientist (Boris) plays Split from space 3: 2 red and black to the left, nothing to "
            "the right",
        ),
        (
            {
                "seat": "cryptid",
                "type": "play",
                "card": "shuffle",
                "space": 1,
                "color": "red",
                "dir": "right",
            },
            "Cryptid (Anna) plays Shuffle: a red sensor from space 2 to the right",
        ),
        (
            {"seat": "scientist", "type": "wild", "as": "align", "color": "black", "dir": "left"},
            "Scientist (Boris) uses the wild card as Align: every black sensor to the left",
        ),
        (
            {"seat": "cryptid", "type": "draw", "cards": ["split", "align"]},
            "Cryptid (Anna) draws Split and Align",
        ),
        ({"seat": "cryptid", "type": "draw", "count": 2}, "Cryptid (Anna) draws 2 cards"),
        (
            {"seat": "cryptid", "type": "declare", "count": 5},
            "Cryptid (Anna) declares a trace of 5 sensors",
        ),
        (
            {"seat": "cryptid", "type": "declare", "colors": ["red", "white"]},
            "Cryptid (Anna) declares a trace of the colours red and white",
        ),
        (
            {"seat": "scientist", "type": "blockade", "side": "left"},
            "Scientist (Boris) blockades the left end: the leftmost block of each row leaves the "
            "game",
        ),
        (
            {"seat": "cryptid", "type": "relocate", "to": {"3": {"black": 1}, "0": {"red": 2}}},
            "Cryptid (Anna) relocates the displaced sensors: 2 red to space 1 and black to space 4",
        ),
        (
            {"seat": "scientist", "type": "expand", "left": "M2", "right": "N7"},
            "Scientist (Boris) expands the table: block M2 on the left, block N7 on the right",
        ),
    ],
)
def test_cryptid_sentences(action, text):
    assert say(CRYPTID, action, PLAYERS) == text


def test_cryptid_seat_without_a_player_name_is_its_role():
    assert say(CRYPTID, {"seat": "scientist", "type": "blockade", "side": "right"}).startswith(
        "Scientist blockades"
    )


def test_cryptid_result_sentences():
    table = Table(PLAYERS, {})
    escape = {"winner": "cryptid", "reason": "escape", "evidence": {"cryptid": 3, "scientist": 2}}
    assert render(CRYPTID.describe_result(escape, table)) == (
        "Cryptid (Anna) wins: the cryptid escaped (evidence: cryptid 3, scientist 2)"
    )


MX_PLAYERS = {"mrx": "Xenia", "det1": "Dmitri", "det2": "Olga"}
# europe/1: 9 Paris, 58 Lisbon; det1 moves red, blue and green by default, det2 yellow and black.


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (
            {"seat": "mrx", "type": "move", "ticket": "train/double", "to": 9},
            "Mister X (Xenia) takes the train to Paris",
        ),
        (
            {"seat": "mrx", "type": "move", "ticket": "train/double", "slot": 3},
            "Mister X (Xenia) takes the train (move 3), destination hidden",
        ),
        (
            {"seat": "mrx", "type": "move", "ticket": "car/siren", "slot": 26, "to": 58},
            "Mister X (Xenia) takes the car to Lisbon (move 26)",
        ),
        (
            {
                "seat": "mrx",
                "type": "double",
                "pay": ["car/double"] * 3,
                "moves": [
                    {"ticket": "car/secret", "slot": 4},
                    {"ticket": "plane/double", "slot": 5},
                ],
            },
            "Mister X (Xenia) makes a double move, discarding 3 double tickets: the car (move 4), "
            "destination hidden and the plane (move 5), destination hidden",
        ),
        (
            {"seat": "mrx", "type": "secret", "pay": ["car/secret"] * 3, "slot": 7},
            "Mister X (Xenia) makes a secret move, discarding 3 secret tickets: lays a ticket face "
            "down "
            "(move 7) and goes somewhere hidden",
        ),
        (
            {
                "seat": "mrx",
                "type": "secret",
                "pay": ["car/secret"] * 3,
                "ticket": "train/siren",
                "to": 9,
            },
            "Mister X (Xenia) makes a secret move, discarding 3 secret tickets: lays train (siren) "
            "face down "
            "and goes to Paris",
        ),
        (
            {"seat": "mrx", "type": "pass"},
            "Mister X (Xenia) has no usable ticket and passes: his rack goes back into the bag",
        ),
        (
            {"seat": "det1", "type": "move", "pawn": "red", "ticket": "car/investigate", "to": 58},
            "Detective red (Dmitri) takes the car to Lisbon",
        ),
        (
            {"seat": "det2", "type": "stay", "pawn": "black"},
            "Detective black (Olga) cannot move and stays",
        ),
        (
            {
                "seat": "detectives",
                "type": "investigate",
                "pay": {"det1": ["car/investigate"] * 2, "det2": ["train/investigate"]},
                "reveal": {"slot": 2, "city": 9},
            },
            "The detectives investigate with 3 tickets: at move 2 Mister X was in Paris",
        ),
        (
            {
                "seat": "detectives",
                "type": "siren",
                "pay": {"det1": ["car/siren"] * 2, "det2": ["car/siren"] * 2},
                "pawn": "yellow",
                "to": 58,
            },
            "The detectives sound the siren with 4 tickets: Detective yellow (Olga) goes on by the "
            "train to Lisbon",
        ),
        (
            {
                "seat": "det1",
                "type": "discard",
                "tickets": ["car/double", "car/double", "plane/secret"],
            },
            "Dmitri returns 2 × car (double) and plane (secret) to the bag",
        ),
        (
            {"seat": "mrx", "type": "discard", "tickets": []},
            "Mister X (Xenia) returns nothing to the bag",
        ),
        (
            {"seat": "mrx", "type": "refill", "tickets": ["car/double"]},
            "Mister X (Xenia) draws car (double)",
        ),
        ({"seat": "mrx", "type": "refill", "count": 3}, "Mister X (Xenia) draws 3 tickets"),
    ],
)
def test_misterx_sentences_name_cities_and_detectives(action, text):
    assert say(MISTERX, action, MX_PLAYERS) == text


def test_misterx_detective_seat_without_a_name_and_the_result():
    assert (
        say(MISTERX, {"seat": "det2", "type": "refill", "count": 1})
        == "Detective player 2 draws a ticket"
    )
    table = Table(MX_PLAYERS, MISTERX.normalize_options({}))
    assert render(
        MISTERX.describe_result({"winner": "detectives", "reason": "caught", "moves": 14}, table)
    ) == ("The detectives caught Mister X (Xenia) after 14 moves: the detectives win")


CD_PLAYERS = {"p1": "Anna", "p2": "Bob", "p3": "Chen"}


@pytest.mark.parametrize(
    ("action", "text"),
    [
        ({"seat": "p1", "type": "examine", "envelope": 7}, "Anna examines envelope 7"),
        (
            {"seat": "p1", "type": "examine", "envelope": 7, "saw": ["X", "e"], "turn": 9},
            "Anna examines envelope 7 and finds document X and Bob's spy e",
        ),
        (
            {"seat": "p1", "type": "examine", "saw": [], "envelope": 3},
            "Anna examines envelope 3 and finds nothing",
        ),
        ({"seat": "p2", "type": "examine", "turn": 4}, "Bob examines an envelope"),
        (
            {"seat": "p2", "type": "place", "envelope": 10, "turn": 4},
            "Bob places the top card of the pile in envelope 10",
        ),
        (
            {"seat": "p2", "type": "place", "envelope": 10, "card": "Y"},
            "Bob places document Y from the pile in envelope 10",
        ),
        (
            {"seat": "p1", "type": "take", "envelope": 10, "spy": "d", "second": "X"},
            "Anna shows their own spy d and takes it from envelope 10, with document X",
        ),
        (
            {"seat": "p1", "type": "take", "envelope": 10, "spy": "d", "second": None},
            "Anna shows their own spy d and takes it from envelope 10",
        ),
        (
            {"seat": "p1", "type": "take", "spy": "d", "cards": 2, "turn": 8},
            "Anna shows their own spy d and takes it from an envelope, with a second card nobody "
            "else saw",
        ),
        (
            {"seat": "p3", "type": "drop", "cards": 2, "turn": 8},
            "Chen puts 2 cards into an envelope",
        ),
        (
            {"seat": "p3", "type": "drop", "envelope": 5},
            "Chen puts the cards in hand into envelope 5",
        ),
        (
            {"seat": "p3", "type": "hazard", "card": "K", "turn": 8},
            "Chen reveals hazard K in an envelope",
        ),
        (
            {"seat": "p2", "type": "examine", "envelope": 12, "win": ["E", "X", "Y", "Z"]},
            "Bob examines envelope 12, and wins: the envelope holds their own spy E, document X, "
            "document Y "
            "and document Z",
        ),
        ({"seat": "p4", "type": "examine"}, "Player 4 examines an envelope"),
    ],
)
def test_cloak_sentences(action, text):
    assert say(CLOAK, action, CD_PLAYERS) == text


# --- every action of real games, every viewer -------------------------------------------
GAMES = [
    ("cryptid-urban-legends", 5, ["greedy", "random"], {}),
    ("cryptid-urban-legends", 8, ["random", "random"], {}),
    ("mister-x", 7, ["greedy", "random", "random"], {}),
    ("mister-x", 1, ["random", "random"], {}),
    (
        "cloak-and-dagger",
        3,
        ["greedy"] * 4,
        {"double_agents": True, "hazards": True, "document_copies": 3},
    ),
    ("cloak-and-dagger", 7, ["greedy", "random", "greedy"], {}),
]
#: Action types each game's bot games must cover, so every one is rendered for every viewer.
ACTION_TYPES = {
    "cryptid-urban-legends": {"play", "wild", "draw", "declare", "blockade", "expand"},
    "mister-x": {
        "move",
        "double",
        "secret",
        "pass",
        "stay",
        "investigate",
        "siren",
        "discard",
        "refill",
    },
    "cloak-and-dagger": {"examine", "place", "take", "drop", "hazard"},
}


@pytest.fixture(scope="module")
def played():
    return [
        play(game, seed, bots, options=options, max_actions=600)
        for game, seed, bots, options in GAMES
    ]


def test_every_action_of_every_viewer_reads_as_a_complete_sentence(played):
    english = catalog("en")
    covered: dict[str, set[str]] = {game: set() for game in ACTION_TYPES}
    for log in played:
        rep = replay(log)
        viewers = [None, *rep.game.viewers(rep.options, rep.seats)]
        for viewer in viewers:
            for frame in rep.frames(viewer):
                if frame["action"] is None:
                    continue
                message = frame["message"]
                assert message_ids(message) <= set(english), (message, viewer)
                text = render(message)
                assert text and "{" not in text and "}" not in text and "None" not in text, text
                assert (
                    text[0].isupper()
                    or text[0].isdigit()
                    or rep.players.get(frame["action"]["seat"])
                ), text
                covered[log["game"]].add(frame["action"]["type"])
    for game, types in ACTION_TYPES.items():
        assert types <= covered[game], (game, types - covered[game])


def test_every_legend_entry_and_result_has_an_english_text(played):
    english = catalog("en")
    for log in played:
        rep = replay(log)
        for entry in rep.game.legend(rep.options):
            assert message_ids(entry["text"]) <= set(english)
        if rep.result:
            text = render(rep.game.describe_result(rep.result, Table(rep.players, rep.options)))
            assert "{" not in text and "win" in text, text


# --- counterfactuals: same public history, other hidden facts ---------------------------
def _unseeded(log: dict[str, Any]) -> dict[str, Any]:
    # play() writes every chance outcome into the log, so it replays without its seed, and
    # an action can then be swapped for another the rules allow.
    out = copy.deepcopy(log)
    out["seed"] = None
    out["result"] = None
    return out


def _sentences(log: dict[str, Any], viewer: str | None) -> list[str]:
    rep = replay(log)
    return [render(f["message"]) for f in rep.frames(viewer) if f["message"] is not None]


def _swap(log: dict[str, Any], ply: int, other: dict[str, Any]) -> dict[str, Any]:
    out = _unseeded(log)
    out["actions"] = [*out["actions"][: ply - 1], other]
    return out


def _counterfactuals(log, pick):
    """(ply, the log cut after that action, the same with ``pick``'s alternative)."""
    rep = replay(_unseeded(log))
    found = []
    before = None
    for ply, action, state in rep.states():
        if action is not None:
            other = pick(rep.game, before, action)
            if other is not None:
                found.append((ply, _swap(log, ply, action), _swap(log, ply, other)))
            if len(found) >= 6:
                break
        before = rep.game.clone(state)
    return found


def _mrx_hidden_destination(game, before, action):
    """Mister X's hidden move by the same ticket to another city (MX-3.11)."""
    if action["seat"] != "mrx" or action["type"] != "move" or before.last_slot + 1 > 24:
        return None
    for other in game.legal_actions(before, "mrx"):
        if (
            other["type"] == "move"
            and other["ticket"] == action["ticket"]
            and other["to"] != action["to"]
        ):
            return other
    return None


def _cryptid_other_draw(game, before, action):
    """The same draw with other cards coming out (CUL-5: the opponent sees the count)."""
    if action["type"] != "draw":
        return None
    for other in game.chance_options(before, {"seat": action["seat"], "type": "draw"}):
        if sorted(other["cards"]) != sorted(action["cards"]):
            return other
    return None


def _cloak_other_envelope(game, before, action):
    """The same kind of turn in another envelope (CD-3: the number stays secret)."""
    if action["type"] not in ("examine", "drop") or "win" in action:
        return None
    for other in game.legal_actions(before, action["seat"]):
        if other["type"] == action["type"] and other["envelope"] != action["envelope"]:
            return other
    return None


@pytest.mark.parametrize(
    ("game", "seed", "bots", "pick", "blind", "knowing"),
    [
        (
            "mister-x",
            7,
            ["greedy", "random", "random"],
            _mrx_hidden_destination,
            ["det1", "det2", "detectives"],
            ["mrx", None],
        ),
        ("cryptid-urban-legends", 5, ["greedy", "random"], _cryptid_other_draw, None, None),
        ("cloak-and-dagger", 7, ["greedy", "random", "greedy"], _cloak_other_envelope, None, None),
    ],
)
def test_a_hidden_fact_changed_leaves_a_blind_viewers_sentences_unchanged(
    game, seed, bots, pick, blind, knowing
):
    log = play(game, seed, bots, max_actions=300)
    cases = _counterfactuals(log, pick)
    assert cases, "the game has such a moment"
    for ply, real, other in cases:
        actor = real["actions"][-1]["seat"]
        seats = [entry["seat"] for entry in log["seats"]]
        blind_viewers = blind or [s for s in seats if s != actor]
        knowing_viewers = knowing or [actor, None]
        for viewer in blind_viewers:
            assert _sentences(real, viewer) == _sentences(other, viewer), (game, ply, viewer)
        # The test can fail: whoever knows the fact reads a different sentence.
        for viewer in knowing_viewers:
            assert _sentences(real, viewer)[-1] != _sentences(other, viewer)[-1], (
                game,
                ply,
                viewer,
            )


def test_the_sentences_in_a_log_file_are_json_ready(played):
    rep = replay(played[2])
    frames = list(rep.frames("det1"))
    assert json.loads(json.dumps(frames[5]["message"])) == frames[5]["message"]


def test_seat_labels_name_the_role_at_the_table():
    mx = Table(MX_PLAYERS, MISTERX.normalize_options({}))
    assert [render(MISTERX.seat_label(s, mx)) for s in ("mrx", "det1", "det2")] == [
        "Mister X",
        "Detectives red, blue and green",
        "Detectives yellow and black",
    ]
    solo = Table(
        {"mrx": "x", "det1": "d"}, MISTERX.normalize_options({"pawns": {"det1": ["blue"]}})
    )
    assert render(MISTERX.seat_label("det1", solo)) == "Detective blue"
    assert render(CRYPTID.seat_label("scientist", Table(PLAYERS, {}))) == "Scientist"
    assert render(CLOAK.seat_label("p2", Table(CD_PLAYERS, {}))) == "Player 2 (spies E/e)"


def test_the_misterx_legend_says_the_shipped_board_is_lanterns_own():
    shipped = [render(e["text"]) for e in MISTERX.legend(MISTERX.normalize_options({}))]
    assert any("Lantern's own" in line for line in shipped)
    transcribed = MISTERX.legend({"board": {"id": "printed"}})
    assert not any(e["mark"] == "board" for e in transcribed)


def test_every_phase_of_real_games_has_a_name(played):
    english = catalog("en")
    for log in played:
        rep = replay(log)
        for frame in rep.frames(None):
            message = rep.game.phase_label(frame["view"]["phase"])
            assert message_ids(message) <= set(english), (log["game"], frame["view"]["phase"])
    assert render(MISTERX.phase_label("mrx-move")) == "Mister X moves"
