"""The recorder's bots are players of the club that pages name as people do: by their
level in the reader's language ("medium bot", ふつうのボット), never by the handle the
logs and links keep (``bot-greedy``). They are nobody's handle: not offered to claim,
link, rename, merge, invite with or enter in an event, nor as a person in a seat."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.apps import apps
from django.db import IntegrityError, transaction
from django.utils import translation
from rest_framework.test import APIClient

from clubs import selectors as club_selectors
from clubs import services as club_services
from clubs.bots import names_at_table, player_name
from clubs.models import Player
from clubs.services import ClubError
from engine import play
from recorder.errors import DraftInvalid
from recorder.services import create_draft
from tournaments import services as events
from tournaments.services import TournamentError

pytestmark = pytest.mark.django_db
GAME = "cryptid-urban-legends"


def bot_log(
    seed: int, human: str = "alice", bot: str = "greedy", handle: str | None = None
) -> dict[str, Any]:
    """A finished game of ``human`` against the recorder's ``bot``, its seat entry as the
    recorder writes it."""
    log = play(GAME, seed, ["greedy", bot], players=[human, handle or f"bot-{bot}"])
    log["seats"][1]["bot"] = bot
    assert log["result"] is not None
    return log


def shown_text(page: str) -> str:
    """What a reader sees of a page: its text, without tags and attributes (the links
    keep the handle, as they should)."""
    body = page.split("<main", 1)[-1]
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


@pytest.mark.parametrize(
    ("language", "handle", "bot", "name"),
    [
        ("en", "alice", "", "alice"),
        ("en", "bot-search", "search", "strong bot"),
        ("en", "bot-search-2", "search", "strong bot 2"),
        ("en", "deep-x", "search", "strong bot (deep-x)"),
        ("en", "bot-search-x", "search", "strong bot (bot-search-x)"),
        ("en", "bot-oracle", "oracle", "oracle bot"),
        ("ja", "bot-greedy", "greedy", "ふつうのボット"),
        ("ja", "bot-greedy-3", "greedy", "ふつうのボット 3"),
        ("ru", "bot-random", "random", "лёгкий бот"),
    ],
)
def test_a_player_is_named_by_handle_or_by_bot_level(language, handle, bot, name):
    with translation.override(language):
        assert player_name(handle, bot) == name
        assert Player(handle=handle, bot=bot).name == name


def test_a_log_names_its_bot_seats_by_level_and_two_of_one_level_apart():
    seats = [
        {"seat": "p1", "player": "alice"},
        {"seat": "p2", "player": "bot-search", "bot": "search"},
        {"seat": "p3", "player": "bot-search-2", "bot": "search"},
        {"seat": "p4", "player": "odd", "bot": {"not": "a level"}},
    ]
    assert names_at_table(seats, "en") == {
        "p1": "alice",
        "p2": "strong bot",
        "p3": "strong bot 2",
        "p4": "odd",
    }
    assert names_at_table(seats, "ja")["p2"] == "つよいボット"


def test_the_recorder_and_an_upload_mark_the_bots_they_create(client, club, people, ingest):
    draft, _ = create_draft(
        club,
        people["member"],
        game_id="cloak-and-dagger",
        chance="server",
        seats=[
            {"seat": "p1", "player": "alice"},
            {"seat": "p2", "bot": "search"},
            {"seat": "p3", "bot": "search"},
        ],
        options={},
    )
    assert dict(Player.objects.filter(handle__startswith="bot-").values_list("handle", "bot")) == {
        "bot-search": "search",
        "bot-search-2": "search",
    }
    # Two strong bots at one table are told apart, in the API and the club's list of drafts.
    client.force_login(people["member"])
    seats = client.get(f"/api/drafts/{draft.pk}/").json()["seats"]
    assert [s["bot_name"] for s in seats] == [None, "strong bot", "strong bot 2"]
    listed = shown_text(client.get(f"/clubs/{club.slug}/").content.decode())
    assert ": strong bot," in listed and ": strong bot 2" in listed and "bot-search" not in listed
    assert Player.objects.get(handle="alice").bot == ""
    ingest(club, bot_log(1, human="newcomer", bot="random"))
    assert Player.objects.get(club=club, handle="bot-random").bot == "random"
    assert Player.objects.get(club=club, handle="newcomer").bot == ""
    # A person's handle seated as a bot by some uploaded log stays a person's.
    ingest(club, bot_log(2, human="bob", handle="alice"))
    assert Player.objects.get(club=club, handle="alice").bot == ""


def test_pages_name_a_bot_by_its_level_in_the_readers_language(client, club, ingest):
    match = ingest(club, bot_log(3))
    winner = match.seats.get(outcome="win").player.handle
    for language, name in (("en", "medium bot"), ("ja", "ふつうのボット"), ("ru", "средний бот")):
        client.cookies["django_language"] = language
        pages = {
            "match": client.get(f"/matches/{match.pk}/"),
            "replay": client.get(f"/matches/{match.pk}/replay"),
            "ladder": client.get(f"/clubs/{club.slug}/ladders/{GAME}-bots/"),
            "player": client.get(f"/clubs/{club.slug}/ladders/{GAME}-bots/players/bot-greedy/"),
            "h2h": client.get(f"/clubs/{club.slug}/ladders/{GAME}-bots/h2h/alice/bot-greedy/"),
            "matches": client.get(f"/clubs/{club.slug}/matches/"),
        }
        for where, response in pages.items():
            assert response.status_code == 200, where
            text = shown_text(response.content.decode())
            assert name in text, (language, where)
            assert "bot-greedy" not in text, (language, where)
        ladder = pages["ladder"].content.decode()
        assert (
            f'href="/clubs/{club.slug}/ladders/{GAME}-bots/players/bot-greedy/">{name}</a>'
            in ladder
        )
        result = shown_text(pages["match"].content.decode())
        assert (name if winner == "bot-greedy" else "alice") in result
    # The head-to-head picker names the bot and sends its handle.
    player_page = client.get(
        f"/clubs/{club.slug}/ladders/{GAME}-bots/players/alice/"
    ).content.decode()
    assert '<option value="bot-greedy">средний бот</option>' in player_page
    h2h = client.get(
        f"/clubs/{club.slug}/ladders/{GAME}-bots/h2h/alice/", {"vs": "bot-greedy"}, follow=True
    )
    assert h2h.redirect_chain[-1][0].endswith(
        "/h2h/alice/bot-greedy/"
    ) and "средний бот" in shown_text(h2h.content.decode())
    # The API keeps the handles: they are the logs' identities.
    seats = client.get(f"/api/matches/{match.pk}/").json()["seats"]
    assert [s["player"] for s in seats] == ["alice", "bot-greedy"]


def test_the_replay_says_a_bots_moves_by_its_level(client, club, ingest):
    match = ingest(club, bot_log(4))
    for language, name in (("en", "medium bot"), ("ja", "ふつうのボット")):
        body = client.get(
            f"/api/matches/{match.pk}/frames?view=all", HTTP_ACCEPT_LANGUAGE=language
        ).json()
        said = " ".join(f["sentence"] or "" for f in body["frames"])
        assert name in said and "bot-greedy" not in said, language


def test_a_bot_is_nobodys_handle(club, people, ingest):
    ingest(club, bot_log(5))
    ingest(club, bot_log(6, human="bob", bot="search"))
    bot = Player.objects.get(club=club, handle="bot-greedy")
    alice = Player.objects.get(club=club, handle="alice")
    organiser = people["organiser"]
    assert "bot-greedy" not in {p.handle for p in club_selectors.free_handles(club)}
    picked = {value for _, rows in club_selectors.seat_picks(club) for value, _ in rows}
    assert "alice" in picked and not picked & {"bot-greedy", "bot-search"}
    refusals = [
        lambda: club_services.claim_handle(people["member"], bot),
        lambda: club_services.link_player(organiser, bot, people["member"]),
        lambda: club_services.rename_player(organiser, bot, "robbie"),
        lambda: club_services.merge_players(organiser, bot, alice),
        lambda: club_services.merge_players(organiser, alice, bot),
        lambda: club_services.create_invite(organiser, club, player=bot),
    ]
    for refused in refusals:
        with pytest.raises(ClubError) as caught:
            refused()
        assert caught.value.code == "bot_handle"
        assert "medium bot" in str(caught.value)
    with pytest.raises(DraftInvalid, match="choose it as a bot"):
        create_draft(
            club,
            organiser,
            game_id=GAME,
            chance="server",
            seats=[
                {"seat": "cryptid", "player": "bot-greedy"},
                {"seat": "scientist", "bot": "search"},
            ],
        )
    api = APIClient()
    api.force_authenticate(organiser)
    refused = api.post(
        "/api/drafts/",
        {
            "club": club.slug,
            "game": GAME,
            "chance": "server",
            "seats": [
                {"seat": "cryptid", "player": "bot-greedy"},
                {"seat": "scientist", "bot": "search"},
            ],
        },
        format="json",
    )
    assert refused.status_code == 400 and "choose it as a bot" in refused.json()["message"], (
        refused.json()
    )
    event = events.create_tournament(club=club, name="Autumn", game=GAME, format="swiss", rounds=2)
    with pytest.raises(TournamentError, match="medium bot"):
        events.enter_handle(event, "bot-greedy")
    bot.refresh_from_db()
    assert (bot.handle, bot.user, bot.bot) == ("bot-greedy", None, "greedy")
    # Unlinking nobody from a bot is no change, and allowed.
    assert club_services.link_player(organiser, bot, None) == bot


def test_the_organisers_player_list_says_which_handles_are_bots(client, club, people, ingest):
    ingest(club, bot_log(7))
    client.force_login(people["organiser"])
    page = client.get(f"/clubs/{club.slug}/manage/").content.decode()
    row = page.split("bot-greedy", 1)[1].split("</tr>", 1)[0]
    assert "(medium bot)" in row and "A bot: nobody's handle" in row and "<form" not in row
    alice = page.split('<td data-label="Handle">alice</td>', 1)[1].split("</tr>", 1)[0]
    assert alice.count("<form") == 3


def test_a_bot_linked_to_an_account_is_refused_by_the_database(club, people):
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(club=club, handle="bot-greedy", bot="greedy", user=people["member"])


def test_the_migration_marks_the_bots_already_seated(club, people, ingest):
    ingest(club, bot_log(8))
    ingest(club, bot_log(9, human="bob", handle="alice"))  # a person's handle seated as a bot
    create_draft(
        club,
        people["member"],
        game_id="cloak-and-dagger",
        chance="server",
        seats=[{"seat": "p1", "player": "alice"}, {"seat": "p2", "bot": "random"}],
        options={},
    )
    Player.objects.update(bot="")  # as they were before the field
    mark_bots = __import__("clubs.migrations.0006_player_bot", fromlist=["mark_bots"]).mark_bots
    mark_bots(apps, None)
    assert dict(Player.objects.exclude(bot="").values_list("handle", "bot")) == {
        "bot-greedy": "greedy",
        "bot-random": "random",
    }
