import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

import engine
from clubs.models import Club, Membership, Player
from games.models import Match, Upload
from ladder.models import Ladder, Rating
from pages.demo import (
    DEMO_CLUBS,
    DEMO_PASSWORD,
    DEMO_PEOPLE,
    DemoRefused,
    demo_bot_game,
    seed_demo_clubs,
    seed_demo_people,
)
from tournaments.models import Tournament

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


def test_seed_demo_ingests_bot_played_matches_of_every_game_once(
    capsys, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):  # the ratings, queued on commit
        call_command("seed_demo", matches_per_game=4)
    games = sorted(engine.all_games())
    # The demo events' games are matches too (tests below); these are the others.
    loose = Match.objects.filter(tournament_pairing__isnull=True, with_bots=False)
    counts = {g: loose.filter(game=g).count() for g in games}
    assert counts == {g: 4 for g in games}
    # Through ingest_log: one accepted upload each, by the site, every log replayed.
    assert Upload.objects.filter(
        status="accepted",
        source="site",
        match__with_bots=False,
        match__tournament_pairing__isnull=True,
    ).count() == 4 * len(games)
    assert not Match.objects.exclude(rules_version__gt="").exists()
    # And the demo member's games against the medium bot, on Riverside's bot ladder only.
    against_bots = Match.objects.filter(with_bots=True)
    game = demo_bot_game()
    assert game is not None
    assert [(m.club.slug, m.game, m.status) for m in against_bots] == [
        ("riverside", game, "valid")
    ] * 3
    assert {(s.player.handle, s.player.bot) for m in against_bots for s in m.seats.all()} == {
        ("alice", ""),
        ("bot-greedy", "greedy"),
    }
    ladder = Ladder.objects.get(club__slug="riverside", game=game, kind="bots")
    assert Rating.objects.get(ladder=ladder, player__handle="alice").games == 3
    assert (
        not Player.objects.exclude(handle__in=[h for d in DEMO_CLUBS for h in d.handles])
        .exclude(handle="bot-greedy")
        .exists()
    )

    stored = Match.objects.count()
    call_command("seed_demo", matches_per_game=4)
    assert Match.objects.count() == stored
    assert f"{games[0]}: 0 new demo matches" in capsys.readouterr().out


def test_the_demo_holds_a_finished_round_robin_and_a_swiss_event_in_progress():
    call_command("seed_demo", matches_per_game=0)
    events = {t.format: t for t in Tournament.objects.all()}
    assert events["round_robin"].status == "finished"
    assert not events["round_robin"].pairings.filter(status="pending").exists()
    swiss = events["swiss"]
    assert swiss.status == "running" and 1 < swiss.current_round < swiss.rounds + 1
    assert swiss.pairings.filter(round=1, status="played").exists()
    assert swiss.pairings.filter(round=swiss.current_round, status="pending").exists()


def test_demo_accounts_are_made_only_with_debug_on(settings, capsys):
    settings.DEBUG = False
    call_command("seed_demo", matches_per_game=0)
    assert "no demo accounts" in capsys.readouterr().out
    assert not get_user_model().objects.filter(username__in=[p[0] for p in DEMO_PEOPLE]).exists()
    with pytest.raises(DemoRefused):
        seed_demo_people()
    settings.DEBUG = True
    call_command("seed_demo", matches_per_game=0)
    out = capsys.readouterr().out
    for username, role, handle in DEMO_PEOPLE:
        assert f"{username} / {DEMO_PASSWORD}" in out
        user = get_user_model().objects.get(username=username)
        assert Membership.objects.filter(user=user, role=role).count() == 2  # the public clubs
        assert Player.objects.get(club__slug="riverside", handle=handle).user == user
        assert user.check_password(DEMO_PASSWORD)


def test_demo_accounts_do_not_sign_in_when_the_database_is_served_with_debug_off(
    settings, client, django_user_model
):
    """``make run`` made them (DEBUG on); the same database served as production (DEBUG
    off) must not let their public password in, while everyone else still signs in."""
    settings.DEBUG = True
    seed_demo_clubs()
    seed_demo_people()
    django_user_model.objects.create_user(username="dora", password="her-own-secret-9")
    username = DEMO_PEOPLE[0][0]
    settings.DEBUG = False
    response = client.post("/accounts/login/", {"username": username, "password": DEMO_PASSWORD})
    assert response.status_code == 200  # the form again, with its error
    assert "_auth_user_id" not in client.session
    response = client.post("/accounts/login/", {"username": "dora", "password": "her-own-secret-9"})
    assert response.status_code == 302 and "_auth_user_id" in client.session
    client.logout()
    settings.DEBUG = True
    response = client.post("/accounts/login/", {"username": username, "password": DEMO_PASSWORD})
    assert response.status_code == 302 and "_auth_user_id" in client.session
