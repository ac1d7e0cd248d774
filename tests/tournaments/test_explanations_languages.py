"""Why a pairing was made, in the reader's language: the pairing program keeps its
explanation as what to say (the engine's messages, whose ids are the site's msgids), the
round page and the API say it in
Japanese or Russian, roles as the game names them; a pairing stored before that keeps
its English text, marked as English."""

from __future__ import annotations

import random
import re

import pytest
from django.utils import translation

from tests.tournaments.test_pairing import ROLES, entrants, play_round
from tournaments import services
from tournaments.explanations import say
from tournaments.models import Pairing
from tournaments.pairing import History, english, pair_swiss, pair_swiss_tables, round_robin

CRYPTID = "cryptid-urban-legends"
MISTER_X = "mister-x"
SCRIPTS = {"ja": re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]"), "ru": re.compile(r"[\u0400-\u04ff]")}


def _msgids(said, found: set[str]) -> set[str]:
    """Every id in a message, its parameters and the lists among them."""
    if isinstance(said, list):
        for item in said:
            _msgids(item, found)
    elif isinstance(said, dict):
        found.add(said["id"])
        for value in (said.get("params") or {}).values():
            _msgids(value, found)
    return found


def _swiss_whys() -> list[tuple[str, dict]]:
    """Every table of many Swiss rounds (odd fields, strict parity, pairs kept apart, double
    rounds, random results), round-robin and tables of N: each kind of sentence the
    pairing program says."""
    rng = random.Random(7)
    whys = []
    for count, strict, double, forbidden in [
        (9, False, False, ()),
        (7, True, False, [frozenset((0, 1))]),
        (6, False, True, ()),
        (11, True, False, [frozenset((2, 5))]),
        (5, False, False, [frozenset((0, 4)), frozenset((1, 3))]),
    ]:
        history = History()
        for round_no in range(1, 6):
            tables = pair_swiss(
                entrants(count),
                history,
                roles=ROLES,
                double=double,
                forbidden=forbidden,
                strict_roles=strict,
            )
            whys += [(CRYPTID, t.why) for t in tables]
            play_round(history, tables, round_no, [rng.random() < 0.5 for _ in range(7)])
    whys += [(CRYPTID, t.why) for rnd in round_robin(entrants(5), ROLES) for t in rnd]
    whys += [(CRYPTID, t.why) for rnd in round_robin(entrants(4), ROLES, double=True) for t in rnd]
    history = History()
    seats = ["mrx", "det1", "det2", "det3"]
    for round_no in range(1, 4):
        tables = pair_swiss_tables(
            entrants(11),
            history,
            table_size=4,
            seat_names=lambda n: seats[:n],
            role_class=lambda s: "mrx" if s == "mrx" else "detectives",
            min_size=3,
        )
        whys += [(MISTER_X, t.why) for t in tables]
        play_round(history, tables, round_no, [True, False, True])
    return whys


WHYS = _swiss_whys()


def test_the_rounds_say_most_of_what_the_pairing_program_can_say():
    said = set().union(*(_msgids(why, set()) for _game, why in WHYS))
    assert {
        "{floater} floats down from the {points}-point group to meet {opponent} of the "
        "{lower}-point "
        "group ({why})",
        "bye: odd number of players; {player} is in {where}, {rank}, and {previous}",
        "though due {role} ({claim}): {reason}",
        "double: each plays both roles",
        "table of {size} cut from the standings: {players}; {meetings}; {seats}",
        "bye: {player} sits out round {round} of the circle (odd number of players)",
    } <= said
    assert len(said) >= 30, len(said)


@pytest.mark.parametrize("language", ["ja", "ru"])
def test_every_explanation_reads_in_the_readers_language_with_no_english_left(language):
    with translation.override(language):
        for game, why in WHYS:
            text = say(why, game)
            assert SCRIPTS[language].search(text), text
            # Only the players' names (p0, p1 …) are Latin; no English word, no role id,
            # no placeholder left unfilled.
            left = re.sub(r"(?<![A-Za-z])p\d+|ミスターX", "", text)
            assert not re.search(r"[A-Za-z{}]", left), (text, english(why))


def test_roles_and_scores_are_named_as_the_reader_says_them():
    why = WHYS[0][1]  # round 1, board 1 of nine players: p0 v p4, cryptid and scientist
    with translation.override("ja"):
        ja = say(why, CRYPTID)
    with translation.override("ru"):
        ru = say(why, CRYPTID)
    with translation.override("en"):
        en = say(why, CRYPTID)
    assert "クリプティッド" in ja and "科学者" in ja and "0点" in ja
    assert "Криптид" in ru and "Учёный" in ru and "0 очков" in ru
    # English readers get the game's names too; the stored English keeps the log's ids.
    assert "Cryptid" in en and "0 pts" in en
    assert "cryptid" in english(why)


@pytest.mark.django_db
def test_the_round_page_and_the_api_say_why_in_the_readers_language(client, make_event, organiser):
    event = make_event(5)
    services.start_tournament(event)
    pairings = list(Pairing.objects.filter(tournament=event, round=1).order_by("board"))
    assert all(p.why and p.explanation == english(p.why) for p in pairings)
    page = client.get(f"/tournaments/{event.pk}/rounds/1/?lang=ja").content.decode()
    with translation.override("ja"):
        for pairing in pairings:
            assert say(pairing.why, event.game).replace("'", "&#x27;") in page
    assert "first meeting" not in page and "odd number of players" not in page
    # (?lang=: the page above left a Japanese cookie, which outranks Accept-Language)
    rows = client.get(f"/api/pairings/?tournament={event.pk}&round=1&lang=ru").json()
    rows = rows["results"] if isinstance(rows, dict) else rows
    assert rows and all(SCRIPTS["ru"].search(row["explanation"]) for row in rows), [
        r["explanation"] for r in rows
    ]
    assert not any("first meeting" in row["explanation"] for row in rows)


@pytest.mark.django_db
def test_a_pairing_stored_before_reads_as_its_english_marked_as_english(client, make_event):
    event = make_event(4)
    services.start_tournament(event)
    old = Pairing.objects.filter(tournament=event).first()
    # What the data migration left on a pairing made before explanations were kept.
    Pairing.objects.filter(pk=old.pk).update(
        why={"plain": "p01 (#1, 0 pts) v p03 (#3, 0 pts): first meeting"}
    )
    page = client.get(f"/tournaments/{event.pk}/rounds/1/?lang=ru").content.decode()
    assert 'lang="en">p01 (#1, 0 pts) v p03 (#3, 0 pts): first meeting' in page


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "ja",
            {
                "A": "5 = 2（B、R1） + 2（D、R2） + 1（C、R3）",
                "E": "4 = 2（B、R2） + 2（D、R3）；不戦と不戦勝敗は0として数えます",
                "C": "不要（同点者なし）",
            },
        ),
        (
            "ru",
            {
                "A": "5 = 2 (B, Р1) + 2 (D, Р2) + 1 (C, Р3)",
                "E": "4 = 2 (B, Р2) + 2 (D, Р3); игры без соперника и неявки считаются как 0",
                "C": "не нужно (никто не делит место)",
            },
        ),
    ],
)
def test_the_tie_breaks_arithmetic_reads_in_the_readers_language(language, expected):
    from tests.tournaments.test_standings import FIELD, five_player_swiss
    from tournaments.standings import compute_standings

    rows = {r.entrant.id: r for r in compute_standings(FIELD, five_player_swiss())}
    with translation.override(language):
        said = {
            p: {key: say(value, CRYPTID) for key, value in row.said.items()}
            for p, row in rows.items()
        }
    assert said["A"]["buchholz"] == expected["A"]
    assert said["E"]["buchholz"] == expected["E"]
    assert said["C"]["head_to_head"] == expected["C"]
    # The English is what the standings kept for search and the tests of their arithmetic.
    assert all(
        english(row.said[key]) == row.explained[key] for row in rows.values() for key in row.said
    )


@pytest.mark.django_db
def test_the_event_page_and_the_api_say_the_tie_breaks_in_the_readers_language(client, make_event):
    event = services.start_tournament(make_event(3))
    page = client.get(f"/tournaments/{event.pk}/?lang=ru").content.decode()
    assert "партий нет" in page and "(no games)" not in page
    rows = client.get(f"/api/tournaments/{event.pk}/standings/?lang=ja").json()
    assert rows and all("対局なし" in row["explained"]["buchholz"] for row in rows), rows


@pytest.mark.django_db
def test_the_data_migration_keeps_a_pairings_english_readable(make_event):
    import importlib

    from django.apps import apps

    services.start_tournament(make_event(4))
    Pairing.objects.update(why={})  # as every pairing stood before the migration
    migration = importlib.import_module("tournaments.migrations.0005_pairing_why")
    migration.keep_old_explanations_readable(apps, None)
    pairings = list(Pairing.objects.all())
    assert pairings and all(p.why == {"plain": p.explanation} for p in pairings)
    with translation.override("ja"):
        assert all(
            p.explanation_text == p.explanation and p.explanation_is_english for p in pairings
        )


def test_every_explanation_is_the_engines_message_shape():
    """One sentence type: every node an id and its parameters, a parameter a plain value,
    a message or a list of them, as ``engine.render`` reads a message."""

    def check(said) -> None:
        if isinstance(said, list):
            for item in said:
                check(item)
        elif isinstance(said, dict):
            assert set(said) == {"id", "params"}, said
            assert isinstance(said["id"], str) and isinstance(said["params"], dict), said
            for value in said["params"].values():
                check(value)
        else:
            assert isinstance(said, str | int | float), said

    for _game, why in WHYS:
        check(why)


@pytest.mark.django_db
def test_the_data_migration_makes_an_explanation_kept_before_a_message(make_event):
    """A pairing stored with the earlier shape of what to say (roles, points and lists as
    nodes of their own, a plural's two forms) reads the same after the migration."""
    import importlib

    from django.apps import apps

    services.start_tournament(make_event(4))
    pairing = Pairing.objects.order_by("pk").first()
    earlier = {
        "id": "{hi} v {lo}: {grouping}; {meeting}; {roles}",
        "params": {
            "hi": {
                "id": "{player} (#{rank}, {points})",
                "params": {"player": "p01", "rank": 1, "points": {"points": 1.0}},
            },
            "lo": {
                "id": "{player} (#{rank}, {points})",
                "params": {"player": "p03", "rank": 3, "points": {"points": 2.5}},
            },
            "grouping": {
                "id": "{players} at {points} or more, an odd number, so one floats down",
                "params": {
                    "players": {
                        "id": "{count} player to pair stands",
                        "plural": "{count} players to pair stand",
                        "params": {"count": 3},
                    },
                    "points": {"points": 1.0},
                },
            },
            "meeting": {"id": "first meeting", "params": {}},
            "roles": {
                "list": [
                    {
                        "id": "the other way round breaks a role limit for {players}",
                        "params": {"players": {"list": ["p01", "p03"], "join": "and"}},
                    },
                    {
                        "id": "{player} sits {seat} (held {role} {count} time before)",
                        "plural": "{player} sits {seat} (held {role} {count} times before)",
                        "params": {
                            "count": 0,
                            "player": "p01",
                            "seat": {"role": "cryptid", "seats": ["cryptid", "scientist"]},
                            "role": {"role": "cryptid"},
                        },
                    },
                    {"list": ["p01", "p03"], "join": "comma"},
                ],
                "join": "semicolon",
            },
        },
    }
    Pairing.objects.filter(pk=pairing.pk).update(why=earlier)
    importlib.import_module("tournaments.migrations.0006_pairing_why_as_messages").forwards(
        apps, None
    )
    pairing.refresh_from_db()
    assert english(pairing.why) == (
        "p01 (#1, 1 pt) v p03 (#3, 2.5 pts): 3 players to pair stand at 1 pt or more, an odd "
        "number, "
        "so one floats down; first meeting; the other way round breaks a role limit for p01 and "
        "p03; "
        "p01 sits cryptid (held cryptid 0 times before); p01, p03"
    )
    with translation.override("ru"):
        text = say(pairing.why, CRYPTID)
    assert "Криптид" in text and "3 игрока" in text, text
