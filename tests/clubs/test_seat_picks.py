"""Seat pickers offer people, not only handles: the club's members by name (with the
handle each plays as; a claimed handle as that handle), a member with no handle yet
by name (they get one when picked: no one types it), the other handles, and — for an
organiser — a new handle typed in. The recorder's setup form and an event's entry form
both pick this way."""

from __future__ import annotations

import pytest
from django.test import Client

import engine
from clubs import selectors, services
from clubs.models import AuditEntry, Club, Membership, Player
from recorder.models import Draft
from tournaments import services as events

pytestmark = pytest.mark.django_db

GAME = "cryptid-urban-legends"


@pytest.fixture
def riverside(django_user_model):
    club = Club.objects.create(name="Riverside", slug="riverside")
    make = django_user_model.objects.create_user
    people = {
        "olga": make("olga", first_name="Olga", last_name="Ames"),
        "pavel": make("pavel"),  # joined, no handle yet
        "zoe": make("zoe", first_name="Zoë", last_name="Brandt"),  # claimed "zb"
        "quinn": make("quinn"),  # not a member
    }
    Membership.objects.create(club=club, user=people["olga"], role="organiser")
    Membership.objects.create(club=club, user=people["pavel"])
    Membership.objects.create(club=club, user=people["zoe"])
    Player.objects.create(club=club, handle="pavel")  # someone else's handle, unlinked
    zb = Player.objects.create(club=club, handle="zb")
    services.decide_claim(people["olga"], services.claim_handle(people["zoe"], zb), approve=True)
    Player.objects.create(club=club, handle="walk-in")
    return club, people


def test_members_are_offered_by_name_and_other_handles_after(riverside):
    club, people = riverside
    groups = dict(selectors.seat_picks(club))
    assert list(groups) == ["Members", "Other handles"]
    assert groups["Members"] == [
        (f"member:{people['olga'].pk}", "Olga Ames (new handle olga)"),
        (f"member:{people['pavel'].pk}", "pavel (new handle pavel-2)"),  # "pavel" is taken
        ("zb", "Zoë Brandt (zb)"),  # the claimed handle, as that handle
    ]
    assert groups["Other handles"] == [("pavel", "pavel"), ("walk-in", "walk-in")]


def test_a_member_picked_by_name_gets_a_handle_of_their_own_once(riverside):
    club, people = riverside
    handle = services.handle_for_member(people["olga"], club, people["pavel"].pk)
    assert (handle.handle, handle.user) == ("pavel-2", people["pavel"])
    assert Player.objects.get(club=club, handle="pavel").user is None  # never taken over
    assert services.handle_for_member(people["olga"], club, people["pavel"].pk) == handle
    assert services.handle_for_member(None, club, people["zoe"].pk).handle == "zb"
    assert AuditEntry.objects.filter(club=club, action="player.create").count() == 1
    with pytest.raises(services.ClubError):
        services.handle_for_member(people["olga"], club, people["quinn"].pk)
    # Now they have one, they are offered as it.
    assert ("pavel-2", "pavel (pavel-2)") in dict(selectors.seat_picks(club))["Members"]


def flat(value: dict, prefix: str) -> dict[str, str]:
    """Form fields of a nested value: ``option.decks.cryptid.align`` = 3."""
    out: dict[str, str] = {}
    for key, item in value.items():
        if isinstance(item, dict):
            out |= flat(item, f"{prefix}{key}.")
        else:
            out[f"{prefix}{key}"] = str(item)
    return out


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_recorder_setup_offers_members_by_name_and_seats_them(riverside):
    club, people = riverside
    page = signed_in(people["zoe"]).get(f"/clubs/{club.slug}/record/?game={GAME}&chance=table")
    html = page.content.decode()
    assert f'value="member:{people["pavel"].pk}"' in html and "pavel (new handle pavel-2)" in html
    assert "Zoë Brandt (zb)" in html and 'label="Members"' in html
    assert 'name="new.' not in html  # a member types no new handle; an organiser may
    assert (
        'name="new.'
        in signed_in(people["olga"])
        .get(f"/clubs/{club.slug}/record/?game={GAME}&chance=table")
        .content.decode()
    )
    log = engine.play(GAME, 1, ["greedy", "greedy"], players=["zb", "pavel-2"])
    data = flat(engine.get_game(GAME).normalize_options({}), "option.")
    data |= {
        "seat.cryptid": "zb",
        "seat.scientist": f"member:{people['pavel'].pk}",
        "setup.sensors_2r2w1b": '"' + log["setup"]["sensors_2r2w1b"] + '"',
    }
    for seat, cards in log["setup"]["hands"].items():
        data.update({f"setup.hands.{seat}.{i}": f'"{card}"' for i, card in enumerate(cards, 1)})
    data.update(
        {
            f"setup.first_blocks.{i}": f'"{block}"'
            for i, block in enumerate(log["setup"]["first_blocks"], 1)
        }
    )
    response = signed_in(people["zoe"]).post(
        f"/clubs/{club.slug}/record/?game={GAME}&chance=table", data
    )
    assert response.status_code == 302
    draft = Draft.objects.get()
    assert [s["player"] for s in draft.seats] == ["zb", "pavel-2"]
    assert Player.objects.get(club=club, handle="pavel-2").user == people["pavel"]


def test_an_organiser_enters_a_member_by_name_and_a_member_enters_themselves(riverside):
    club, people = riverside
    tournament = events.create_tournament(
        club=club, name="Spring", game=GAME, format="swiss", rounds=2
    )
    page = signed_in(people["olga"]).get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "pavel (new handle pavel-2)" in page and "Zoë Brandt (zb)" in page
    signed_in(people["olga"]).post(
        f"/tournaments/{tournament.pk}/entries/", {"player": f"member:{people['pavel'].pk}"}
    )
    assert [e.player.handle for e in tournament.entries.all()] == ["pavel-2"]
    # A member with no handle enters themselves; they may not enter someone else.
    newcomer = people["quinn"]
    Membership.objects.create(club=club, user=newcomer)
    page = signed_in(newcomer).get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Enter myself" in page
    assert (
        signed_in(newcomer)
        .post(f"/tournaments/{tournament.pk}/entries/", {"player": f"member:{people['olga'].pk}"})
        .status_code
        == 403
    )
    signed_in(newcomer).post(
        f"/tournaments/{tournament.pk}/entries/", {"player": f"member:{newcomer.pk}"}
    )
    assert sorted(e.player.handle for e in tournament.entries.all()) == ["pavel-2", "quinn"]
    assert Player.objects.get(club=club, handle="quinn").user == newcomer
