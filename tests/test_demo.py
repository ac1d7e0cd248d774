import pytest
from django.core.management import call_command

from games.demo import DEMO_CLUBS
from games.models import Club, Player

pytestmark = pytest.mark.django_db


def test_seed_demo_is_idempotent():
    call_command("seed_demo")
    clubs, players = Club.objects.count(), Player.objects.count()
    assert clubs == len(DEMO_CLUBS) == 3
    assert players == sum(len(demo.handles) for demo in DEMO_CLUBS) == 14
    call_command("seed_demo")
    assert (Club.objects.count(), Player.objects.count()) == (clubs, players)


def test_seed_demo_keeps_edits():
    call_command("seed_demo")
    Club.objects.filter(slug="riverside").update(name="Renamed by an organiser")
    call_command("seed_demo")
    assert Club.objects.get(slug="riverside").name == "Renamed by an organiser"


def test_demo_clubs_show_on_the_home_page(client):
    call_command("seed_demo")
    html = client.get("/").content.decode()
    assert "Riverside Deduction Society" in html
    assert "Harbour Lights Games Club" in html
    assert "Night Owls" not in html  # private
