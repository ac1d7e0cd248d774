import pytest
from django.core.management import call_command

import engine
from clubs.models import Club, Player
from games.demo import DEMO_CLUBS
from games.models import Match, Upload

pytestmark = pytest.mark.django_db


def test_seed_demo_is_idempotent():
    call_command("seed_demo", matches_per_game=0)
    clubs, players = Club.objects.count(), Player.objects.count()
    assert clubs == len(DEMO_CLUBS) == 3
    assert players == sum(len(demo.handles) for demo in DEMO_CLUBS) == 14
    call_command("seed_demo", matches_per_game=0)
    assert (Club.objects.count(), Player.objects.count()) == (clubs, players)


def test_seed_demo_keeps_edits():
    call_command("seed_demo", matches_per_game=0)
    Club.objects.filter(slug="riverside").update(name="Renamed by an organiser")
    call_command("seed_demo", matches_per_game=0)
    assert Club.objects.get(slug="riverside").name == "Renamed by an organiser"


def test_demo_clubs_show_on_the_home_page(client):
    call_command("seed_demo", matches_per_game=0)
    html = client.get("/").content.decode()
    assert "Riverside Deduction Society" in html
    assert "Harbour Lights Games Club" in html
    assert "Night Owls" not in html  # private


def test_seed_demo_ingests_bot_played_matches_of_every_game_once(capsys):
    call_command("seed_demo", matches_per_game=4)
    games = sorted(engine.all_games())
    counts = {g: Match.objects.filter(game=g).count() for g in games}
    assert counts == {g: 4 for g in games}
    # Through ingest_log: one accepted upload each, by the site, every log replayed.
    assert Upload.objects.filter(status="accepted", source="site").count() == 4 * len(games)
    assert not Match.objects.exclude(rules_version__gt="").exists()
    assert not Player.objects.exclude(handle__in=[h for d in DEMO_CLUBS for h in d.handles]).exists()

    call_command("seed_demo", matches_per_game=4)
    assert Match.objects.count() == 4 * len(games)
    assert f"{games[0]}: 0 new demo matches" in capsys.readouterr().out
