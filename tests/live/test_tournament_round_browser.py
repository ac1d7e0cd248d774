"""From the event's round page an organiser plays the round online; a player finds "your
table" on the club page and plays there, seated in the pairing's seat."""

from __future__ import annotations

import pytest

from clubs.models import Membership, Player
from tests.live.test_play_browser import signed_in
from tournaments import selectors, services

pytestmark = [pytest.mark.browser, pytest.mark.live, pytest.mark.django_db(transaction=True)]


def test_an_organiser_plays_a_round_online_and_a_player_finds_their_table(
    chromium, asgi_server, club, people, django_user_model, settings
):
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
    organiser = people["cat"]
    Membership.objects.filter(user=organiser, club=club).update(role=Membership.Role.ORGANISER)
    tournament = services.create_tournament(
        club=club,
        name="Winter Open",
        created_by=organiser,
        game="cryptid-urban-legends",
        format="swiss",
        rounds=1,
    )
    for who in ("ann", "ben"):
        player = Player.objects.create(club=club, handle=f"{who}-plays", user=people[who])
        services.add_entry(tournament, player, 1500)
    tournament = services.start_tournament(tournament)
    errors: list[str] = []
    olga = signed_in(chromium, asgi_server, organiser, errors)
    olga.goto(f"{asgi_server}/tournaments/{tournament.pk}/rounds/1/")
    olga.get_by_role("button", name="Play this round online").click()
    olga.wait_for_selector("text=being played online")

    pairing = selectors.pairings(tournament, 1).first()
    seat = pairing.seats.first()
    player = signed_in(chromium, asgi_server, seat.entry.player.user, errors)
    player.goto(f"{asgi_server}/clubs/riverside/")
    card = player.locator(".live-table-list li", has_text=tournament.name)
    card.get_by_role("link", name="Go to your table").click()
    player.wait_for_selector('#live[data-status="playing"] #live-link[data-state="live"]')
    config = player.evaluate("JSON.parse(document.getElementById('live-config').textContent)")
    assert config["seat"] == seat.seat
    for page in (olga, player):
        page.context.close()
    assert not errors, errors
