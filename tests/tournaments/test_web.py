"""Tournaments from the web (issue #20): created, entered and withdrawn from by clicking,
each rule the event service keeps shown as a sentence on the page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubs import services as club_services
from clubs.models import Membership, Player
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db

GAME = "cryptid-urban-legends"


@pytest.fixture
def people(django_user_model):
    make = django_user_model.objects.create_user
    return {"org": make("org"), "member": make("member"), "outsider": make("outsider")}


@pytest.fixture
def club(people):
    club = club_services.create_club(people["org"], name="Owls", slug="owls", is_public=True)
    Membership.objects.create(user=people["member"], club=club)
    return club


def test_only_organisers_create_events_and_refusals_are_sentences(client, people, club):
    url = reverse("tournament-create", args=[club.slug])
    client.force_login(people["member"])
    assert client.get(url).status_code == 403
    client.force_login(people["org"])
    refused = client.post(url, {"name": "Cup", "game": GAME, "format": "swiss", "bye_points": 1})
    assert refused.status_code == 200
    assert "A Swiss event needs its number of rounds." in refused.content.decode()
    created = client.post(
        url,
        {
            "name": "Cup",
            "game": GAME,
            "format": "swiss",
            "rounds": 3,
            "strict_role_parity": "on",
            "bye_points": 1,
        },
    )
    event = Tournament.objects.get(name="Cup")
    assert created["Location"] == reverse("tournaments:detail", args=[event.pk])
    assert event.strict_role_parity and event.rounds == 3 and event.created_by == people["org"]


def test_organisers_enter_anyone_members_only_themselves(client, people, club):
    event = Tournament.objects.create(club=club, name="Cup", game=GAME, format="swiss", rounds=2)
    mine = Player.objects.create(club=club, handle="mimi", user=people["member"])
    other = Player.objects.create(club=club, handle="zed")
    url = reverse("tournaments:entry-add", args=[event.pk])
    client.force_login(people["member"])
    page = client.get(reverse("tournaments:detail", args=[event.pk])).content.decode()
    assert "Enter as mimi" in page
    assert client.post(url, {"player": other.pk}).status_code == 403
    client.post(url, {"player": mine.pk})
    assert Entry.objects.filter(tournament=event, player=mine).exists()
    client.force_login(people["org"])
    client.post(url, {"handle": "newcomer"})
    assert Entry.objects.filter(tournament=event, player__handle="newcomer").exists()
    picker = client.get(reverse("tournaments:detail", args=[event.pk])).content.decode()
    assert ">zed</option>" in picker and "mimi (member)" not in picker  # entered: not offered


def test_withdrawing_asks_first_and_entering_again_undoes_it(client, people, club):
    event = Tournament.objects.create(club=club, name="Cup", game=GAME, format="swiss", rounds=2)
    mine = Player.objects.create(club=club, handle="mimi", user=people["member"])
    client.force_login(people["member"])
    client.post(reverse("tournaments:entry-add", args=[event.pk]), {"player": mine.pk})
    entry = Entry.objects.get(tournament=event, player=mine)
    url = reverse("tournaments:entry-withdraw", args=[event.pk, entry.pk])
    asked = client.post(url)
    assert asked.status_code == 200 and "Withdraw mimi from Cup?" in asked.content.decode()
    client.post(url, {"confirmed": "yes"})
    entry.refresh_from_db()
    assert entry.withdrawn
    client.post(reverse("tournaments:entry-add", args=[event.pk]), {"player": mine.pk})
    entry.refresh_from_db()
    assert not entry.withdrawn
