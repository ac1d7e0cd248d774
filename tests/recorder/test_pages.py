"""The recorder's server-rendered pages: who may open them, the setup form (built from the
engine's schemas, judged by the engine), and the club page's list of games to resume."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from engine import play
from recorder.models import Draft
from recorder.services import create_draft

pytestmark = pytest.mark.django_db


def client_for(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def cloak_draft(club, user) -> Draft:
    draft, _ = create_draft(
        club,
        user,
        game_id="cloak-and-dagger",
        seats=[{"seat": "p1", "player": "alice"}, {"seat": "p2", "player": "bob"}],
    )
    return draft


SETUP = "/clubs/riverside/record/"


def test_who_may_open_the_setup_page(club, private_club, people):
    assert client_for(people["member"]).get(SETUP).status_code == 200
    # Anonymous: sign in first. A public club's outsider: refused. A private club's: no such club.
    response = client_for().get(SETUP)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert client_for(people["outsider"]).get(SETUP).status_code == 403
    assert client_for(people["outsider"]).get("/clubs/secret/record/").status_code == 404
    assert client_for(people["member"]).get("/clubs/secret/record/").status_code == 200


def test_the_setup_form_is_built_from_the_engine(club, people):
    member = client_for(people["member"])
    page = member.get(SETUP, {"game": "cryptid-urban-legends", "chance": "table"}).content.decode()
    # Options from the schema with the engine's defaults; the dealt hands and blocks as
    # drop-downs; one seat field per seat, offering the club's players (no bot at a table).
    assert 'name="option.decks.cryptid.split"' in page and 'value="4"' in page
    for name in (
        "setup.sensors_2r2w1b",
        "setup.hands.cryptid.3",
        "setup.hands.scientist.1",
        "setup.first_blocks.3",
    ):
        assert f'name="{name}"' in page
    assert 'name="seat.cryptid"' in page and 'name="seat.scientist"' in page
    assert ">alice<" in page and "bot:greedy" not in page
    # Dealt by Lantern: bots may sit, and only the players' choices are asked.
    page = member.get(SETUP, {"game": "cryptid-urban-legends", "chance": "server"}).content.decode()
    assert "bot:greedy" in page and 'name="setup.sensors_2r2w1b"' in page
    assert 'name="setup.hands.cryptid.1"' not in page
    # The player count decides the seats.
    page = member.get(
        SETUP, {"game": "cloak-and-dagger", "players": "3", "chance": "table"}
    ).content.decode()
    assert 'name="seat.p3"' in page and 'name="seat.p4"' not in page
    response = member.get(SETUP, {"game": "cloak-and-dagger", "players": "9", "chance": "table"})
    assert "played by 2 to 6 players" in response.content.decode()
    assert 'name="seat.p1"' not in response.content.decode()


def test_starting_a_draft_from_the_form(club, people):
    member = client_for(people["member"])
    url = f"{SETUP}?game=cloak-and-dagger&players=2&chance=table"
    response = member.post(
        url, {"option.document_copies": "1", "seat.p1": "alice", "seat.p2": "bob"}
    )
    draft = Draft.objects.get()
    assert (
        response.status_code == 302
        and response["Location"] == f"/clubs/riverside/record/{draft.pk}/"
    )
    assert draft.chance == Draft.Chance.TABLE and draft.seed is None
    assert [(s["seat"], s["player"]) for s in draft.seats] == [("p1", "alice"), ("p2", "bob")]
    assert draft.created_by == people["member"]
    page = member.get(response["Location"]).content.decode()
    assert 'id="recorder"' in page and f"/api/drafts/{draft.pk}/apply/" in page


def test_a_bot_seat_is_dealt_by_lantern(club, people):
    member = client_for(people["member"])
    url = f"{SETUP}?game=cloak-and-dagger&players=2&chance=server"
    member.post(url, {"option.document_copies": "1", "seat.p1": "alice", "seat.p2": "bot:greedy"})
    draft = Draft.objects.get()
    assert draft.chance == Draft.Chance.SERVER and draft.seed is not None
    assert draft.seats[1] == {"seat": "p2", "player": "bot-greedy", "bot": "greedy"}


def test_the_engine_judges_the_setup_and_nothing_is_lost(club, people):
    member = client_for(people["member"])
    url = f"{SETUP}?game=cryptid-urban-legends&chance=table"
    form = {
        f"option.decks.{seat}.{card}": n
        for seat in ("cryptid", "scientist")
        for card, n in (("split", 4), ("shuffle", 3), ("align", 3))
    }
    # A scientist's deck of 3 align cards cannot deal 4 of them.
    hands = {"cryptid": ["split", "split", "shuffle"], "scientist": ["align", "align", "align"]}
    form.update(
        {
            f"setup.hands.{seat}.{i}": f'"{card}"'
            for seat, cards in hands.items()
            for i, card in enumerate(cards, start=1)
        }
    )
    form.update(
        {
            "setup.sensors_2r2w1b": '"left"',
            "setup.first_blocks.1": '"N1"',
            "setup.first_blocks.2": '"N2"',
            "setup.first_blocks.3": '"N3"',
            "seat.cryptid": "alice",
            "seat.scientist": "bob",
        }
    )
    assert member.post(url, form).status_code == 302  # three aligns: legal
    form["option.decks.scientist.align"] = 2
    form["option.decks.scientist.split"] = 5
    response = member.post(url, form)
    assert response.status_code == 422
    assert "CUL-2.4" in response.content.decode()
    assert Draft.objects.count() == 1
    # The form comes back as it was filled in.
    assert 'value="5"' in response.content.decode()
    # Options the engine refuses: its sentence, with the rule.
    form["option.decks.scientist.split"] = 9
    response = member.post(url, form)
    assert response.status_code == 422 and "CUL-1.2" in response.content.decode()


def test_the_same_player_cannot_take_two_seats(club, people):
    member = client_for(people["member"])
    url = f"{SETUP}?game=cloak-and-dagger&players=2&chance=table"
    response = member.post(
        url, {"option.document_copies": "1", "seat.p1": "alice", "seat.p2": "alice"}
    )
    assert response.status_code == 422 and "only one seat" in response.content.decode()
    assert not Draft.objects.exists()


def test_the_recording_screen_is_for_members_of_its_club(club, private_club, people):
    draft = cloak_draft(club, people["member"])
    url = f"/clubs/riverside/record/{draft.pk}/"
    assert client_for(people["other"]).get(url).status_code == 200
    assert client_for(people["outsider"]).get(url).status_code == 403
    # Under another club's address it does not exist.
    assert client_for(people["member"]).get(f"/clubs/secret/record/{draft.pk}/").status_code == 404
    private = cloak_draft(private_club, people["member"])
    assert (
        client_for(people["outsider"]).get(f"/clubs/secret/record/{private.pk}/").status_code == 404
    )


def test_the_club_page_lists_games_to_resume(club, people):
    draft = cloak_draft(club, people["member"])
    page = client_for(people["member"]).get("/clubs/riverside/").content.decode()
    assert 'href="/clubs/riverside/record/"' in page  # record a game
    assert f'href="/clubs/riverside/record/{draft.pk}/"' in page and ">Resume<" in page
    assert "Cloak &amp; Dagger" in page
    # Another member may follow it; only its creator and the organisers record in it.
    page = client_for(people["other"]).get("/clubs/riverside/").content.decode()
    assert f'href="/clubs/riverside/record/{draft.pk}/"' in page
    assert ">Follow<" in page and ">Resume<" not in page
    assert ">Resume<" in client_for(people["organiser"]).get("/clubs/riverside/").content.decode()
    # Not a member: neither the link nor the drafts.
    page = client_for(people["outsider"]).get("/clubs/riverside/").content.decode()
    assert "/record/" not in page
    # A finished or abandoned draft leaves the list.
    Draft.objects.filter(pk=draft.pk).update(status=Draft.Status.ABANDONED)
    page = client_for(people["member"]).get("/clubs/riverside/").content.decode()
    assert f"/record/{draft.pk}/" not in page


def test_mister_x_dealt_at_the_table(club, people):
    """Nothing is JSON for a person: the board from the boards the engine ships, by name;
    the pawns shared out by checkboxes; cities by name; the racks ticket by ticket."""
    setup = play("mister-x", 4, ["greedy"] * 3)["setup"]
    member = client_for(people["member"])
    url = f"{SETUP}?game=mister-x&players=3&chance=table"
    page = member.get(url).content.decode()
    assert "JSON" not in page
    assert '<option value="&quot;europe/1&quot;" selected>Europe' in page
    assert 'type="checkbox" name="option.pawns.det1" value="&quot;red&quot;"' in page
    assert (
        "Madrid" in page
        and 'name="setup.racks.mrx.8"' in page
        and 'name="setup.racks.mrx.9"' not in page
    )
    assert ">Mister X</label>" in page and ">Detectives red, blue and green</label>" in page
    form = {
        "option.board": '"europe/1"',
        "setup.mission": json.dumps(setup["mission"]),
        "setup.start": json.dumps(setup["start"]),
        **{f"setup.pawns.{pawn}": json.dumps(city) for pawn, city in setup["pawns"].items()},
        **{
            f"setup.racks.{seat}.{i}": json.dumps(ticket)
            for seat, rack in setup["racks"].items()
            for i, ticket in enumerate(rack, start=1)
        },
        "seat.mrx": "alice",
        "seat.det1": "bob",
        "seat.det2": "carol",
    }
    # A drawn ticket the bag does not hold that many of: the engine's rule, said.
    bad = {**form, **{f"setup.racks.mrx.{i}": '"plane/secret"' for i in range(1, 9)}}
    response = member.post(url, bad)
    assert response.status_code == 422 and "MX-2.1" in response.content.decode()
    assert member.post(url, form).status_code == 302
    draft = Draft.objects.get()
    assert draft.setup == setup and draft.seed is None
    # One player may hold both detective seats (the engine's may_hold_together), never
    # Mister X and a detective.
    assert member.post(url, {**form, "seat.det2": "bob"}).status_code == 302
    assert Draft.objects.latest("pk").seats[1:] == [
        {"seat": "det1", "player": "bob"},
        {"seat": "det2", "player": "bob"},
    ]
    response = member.post(url, {**form, "seat.det1": "alice"})
    assert response.status_code == 422 and "only one seat" in response.content.decode()


def test_an_organiser_may_seat_a_new_player(club, people):
    url = f"{SETUP}?game=cloak-and-dagger&players=2&chance=table"
    # A member chooses among the club's players only.
    assert 'name="new.p1"' not in client_for(people["member"]).get(url).content.decode()
    organiser = client_for(people["organiser"])
    assert 'name="new.p1"' in organiser.get(url).content.decode()
    form = {"option.document_copies": "1", "seat.p1": "alice", "new.p2": " zoe "}
    response = organiser.post(url, form)
    assert response.status_code == 302
    assert Draft.objects.get().seats[1] == {"seat": "p2", "player": "zoe"}
    # Both, or neither, for one seat: said so, nothing created.
    response = organiser.post(url, {**form, "seat.p2": "bob"})
    assert response.status_code == 422 and "not both" in response.content.decode()
    response = organiser.post(url, {"option.document_copies": "1", "seat.p1": "alice"})
    assert response.status_code == 422 and "Choose who plays this seat" in response.content.decode()
    assert Draft.objects.count() == 1


def test_the_pawns_are_shared_out_by_checkboxes(club, people):
    member = client_for(people["member"])
    url = f"{SETUP}?game=mister-x&players=3&chance=server"
    form = {
        "option.board": '"europe/1"',
        "option.pawns.det1": ['"red"', '"blue"'],
        "option.pawns.det2": ['"green"', '"yellow"', '"black"'],
        "seat.mrx": "alice",
        "seat.det1": "bob",
        "seat.det2": "carol",
    }
    assert member.post(url, form).status_code == 302
    assert Draft.objects.get().options["pawns"] == {
        "det1": ["red", "blue"],
        "det2": ["green", "yellow", "black"],
    }
    # Shared out unevenly: the engine's rule, said.
    response = member.post(
        url,
        {
            **form,
            "option.pawns.det1": ['"red"'],
            "option.pawns.det2": ['"blue"', '"green"', '"yellow"', '"black"'],
        },
    )
    assert response.status_code == 422 and "MX-6.10" in response.content.decode()


def test_the_seat_names_follow_the_options_given(client, club, people):
    """Mister X's detective seats are named by the pawns they move: the setup page asks
    for the names as the pawns are shared out, before anything is submitted."""
    client.force_login(people["member"])
    url = f"/clubs/{club.slug}/record/seats?game=mister-x&players=3&chance=table"
    default = client.get(url).json()["labels"]
    assert default["mrx"] == "Mister X"
    shares = {
        "option.pawns.det1": ['"red"'],
        "option.pawns.det2": ['"blue"', '"green"', '"yellow"', '"black"'],
    }
    query = "&".join(f"{name}={value}" for name, values in shares.items() for value in values)
    labels = client.get(f"{url}&{query}").json()["labels"]
    assert "red" in labels["det1"] and "blue" not in labels["det1"]
    assert all(colour in labels["det2"] for colour in ("blue", "green", "yellow", "black"))
    assert labels != default
    assert client.get(f"/clubs/{club.slug}/record/seats").status_code == 400
    client.logout()
    assert client.get(url).status_code == 302  # signed out: to the sign-in page


@pytest.mark.parametrize(
    ("back", "shown"),
    [
        ("/tournaments/1/rounds/1/", True),
        ("https://elsewhere.example/", False),
        ("//elsewhere.example/x", False),
        ("javascript:alert(1)", False),
    ],
)
def test_the_recording_links_back_only_within_the_site(client, club, people, back, shown):
    from recorder.services import create_draft

    draft, _ = create_draft(
        club,
        people["member"],
        game_id="cloak-and-dagger",
        chance="server",
        seats=[{"seat": "p1", "player": "alice"}, {"seat": "p2", "bot": "greedy"}],
    )
    client.force_login(people["member"])
    html = client.get(f"/clubs/{club.slug}/record/{draft.pk}/", {"back": back}).content.decode()
    assert ('data-link="back"' in html) == shown
    assert (f'href="{back}"' in html) == shown  # no link leads off the site


def test_a_shared_language_link_opens_the_setup_form_unfilled(club, people):
    """?lang= chooses the language, not a game: the form is not bound to it, so it does not
    say "This field is required" before the reader chose anything."""
    page = client_for(people["member"]).get(SETUP + "?lang=ru")
    assert page.status_code == 200
    assert b"errorlist" not in page.content
    assert "Обязательное поле" not in page.content.decode()


def test_the_bots_are_offered_weakest_first_in_plain_words_in_the_readers_language(club, people):
    """A person choosing an opponent reads what each bot is, not the engine's names
    (random, greedy, search): easy, medium, strong, and how each plays; in Japanese and
    Russian too. The engine's names stay the values the form sends."""
    import re

    member = client_for(people["member"])
    offered = {}
    for language in ("en", "ja", "ru"):
        page = member.get(
            SETUP, {"game": "mister-x", "players": "3", "chance": "server", "lang": language}
        ).content.decode()
        mrx = page[page.index('name="seat.mrx"') :]
        mrx = mrx[: mrx.index("</select>")]
        offered[language] = re.findall(r'<option value="bot:(\w+)"[^>]*>([^<]+)</option>', mrx)
    assert [bot for bot, _label in offered["en"]] == ["random", "greedy", "search"]
    assert [label for _bot, label in offered["en"]] == [
        "easy bot: plays random legal moves",
        "medium bot: plays what looks best right now",
        "strong bot: plays the game out many times in its head before each move",
    ]
    assert [label for _bot, label in offered["ja"]][
        2
    ] == "つよいボット（一手ごとに、頭の中で何度もゲームを最後まで試してから選ぶ）"
    assert [label for _bot, label in offered["ru"]][
        0
    ] == "лёгкий бот: ходит случайно, но по правилам"
