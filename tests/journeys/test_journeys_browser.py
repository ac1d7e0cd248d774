"""The journeys of issue #20 in headless Chromium, from the home page, by clicking (and
typing into forms, and choosing the game's log file to upload, as a person would).

- An organiser starts a club and invites someone who has no account: the invitee
  signs up from the invitation and ends up a member.
- An organiser runs a 4-player Swiss tournament of 2 rounds to its crosstable.
- An organiser voids a match and restores it, each with a reason and a confirmation.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import engine
from clubs.models import AuditEntry, Club, Membership, Player
from games.models import Match
from games.services import ingest_log
from ladder.models import Rating
from tests.games.logs import bot_log
from tournaments.models import Pairing, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-enough-passphrase"
GAME = "cryptid-urban-legends"


@pytest.fixture
def organiser(django_user_model):
    return django_user_model.objects.create_user("olga", "olga@example.org", PASSWORD)


def sign_in_from_home(page: Any, live_server: Any, username: str) -> None:
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Sign in").first.click()
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_selector("text=Your clubs")


def test_an_organiser_starts_a_club_and_invites_someone_without_an_account(
    page, chromium, live_server, organiser, screenshot
):
    sign_in_from_home(page, live_server, "olga")
    page.get_by_role("link", name="Start a club").first.click()
    page.fill("#id_name", "Lantern Street Irregulars")
    page.get_by_role("button", name="Create the club").click()
    page.wait_for_selector("text=Manage Lantern Street Irregulars")
    club = Club.objects.get(name="Lantern Street Irregulars")
    assert Membership.objects.get(club=club, user=organiser).role == "organiser"
    page.get_by_role("button", name="Create an invitation link").click()
    link = page.inner_text("#invite-link").strip()
    assert link.startswith(live_server.url + "/invite/")

    # The invitee has no account: the link, opened in their own browser.
    invitee = chromium.new_context(viewport={"width": 390, "height": 844})
    try:
        them = invitee.new_page()
        them.goto(link)
        them.wait_for_selector("text=Join Lantern Street Irregulars")
        them.get_by_role("link", name="Create an account and join").click()
        them.wait_for_selector("text=You are invited to join")
        them.fill("#id_username", "ned")
        them.fill("#id_email", "ned@example.org")
        them.fill("#id_password1", PASSWORD)
        them.fill("#id_password2", PASSWORD)
        them.get_by_role("button", name="Create account").click()
        them.wait_for_selector("text=You are a member of this club")
        assert them.url.rstrip("/").endswith(f"/clubs/{club.slug}")
        screenshot(them, "invitee-joined-390")
    finally:
        invitee.close()
    ned = Membership.objects.get(club=club, user__username="ned")
    assert ned.role == "member"

    # The organiser sees the newcomer on the members page, reached from the club page.
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Lantern Street Irregulars").first.click()
    page.get_by_role("link", name="Members").click()
    page.wait_for_selector("td:has-text('ned')")


def finished_log(pairing: Pairing, seed: int) -> dict[str, Any]:
    """A finished bot-played game with the pairing's players in its seats."""
    game = engine.get_game(GAME)
    seats = {s.seat: s.entry.player.handle for s in pairing.seats.select_related("entry__player")}
    order = game.seat_ids(game.normalize_options({}), len(seats))
    for attempt in range(50):
        log = engine.play(
            GAME,
            seed + 1000 * attempt,
            ["greedy"] * len(order),
            players=[seats[seat] for seat in order],
        )
        if log.get("result"):
            return log
    raise AssertionError("no finished game in 50 seeds")


def upload_round(page: Any, tournament: Tournament, number: int, tmp_path: Path) -> None:
    page.get_by_role("link", name=f"Round {number}", exact=True).first.click()
    page.wait_for_selector(f"h1:has-text('round {number}')")
    pairings = list(
        Pairing.objects.filter(tournament=tournament, round=number, status=Pairing.Status.PENDING)
    )
    assert len(pairings) == 2  # four players: two boards, no bye
    for pairing in pairings:
        path = tmp_path / f"r{number}b{pairing.board}.json"
        path.write_text(json.dumps(finished_log(pairing, 10 * number + pairing.board)))
        row = page.locator(f"#pairing-{pairing.pk}")
        row.locator("input[type=file]").set_input_files(str(path))
        row.get_by_role("button", name="Upload result").click()
        page.wait_for_selector(f"text=Result of board {pairing.board} recorded")
    page.get_by_role("link", name=tournament.name).first.click()


def test_an_organiser_runs_a_four_player_swiss_of_two_rounds_to_its_crosstable(
    page, live_server, organiser, tmp_path, screenshot
):
    club = Club.objects.create(name="Harbour Lights", slug="harbour")
    Membership.objects.create(club=club, user=organiser, role="organiser")
    Player.objects.create(club=club, handle="gus")  # one known player, three new ones
    sign_in_from_home(page, live_server, "olga")
    page.get_by_role("link", name="Harbour Lights").first.click()
    page.get_by_role("link", name="Create a tournament").click()
    page.fill("#id_name", "Winter Swiss")
    page.select_option("#id_game", GAME)
    page.check("input[name=format][value=swiss]")
    page.fill("#id_rounds", "2")
    page.check("#id_strict_role_parity")
    page.get_by_role("button", name="Create the tournament").click()
    page.wait_for_selector("text=open for entries")
    page.select_option("select[name=player]", label="gus")
    page.get_by_role("button", name="Enter").click()
    for handle in ("hana", "ivan", "jo"):
        page.fill("input[name=handle]", handle)
        page.get_by_role("button", name="Enter").click()
        page.wait_for_selector(f"text={handle} is entered")
    tournament = Tournament.objects.get(name="Winter Swiss")
    assert tournament.strict_role_parity and tournament.format == "swiss"
    assert tournament.entries.count() == 4
    page.get_by_role("button", name="Start and pair round 1").click()
    page.wait_for_selector("text=Entries close")  # starting is asked first
    page.get_by_role("button", name="Start and pair round 1").click()
    page.wait_for_selector("text=Round 1 is being paired")
    upload_round(page, tournament, 1, tmp_path)
    tournament.refresh_from_db()
    assert tournament.current_round == 2  # paired by itself once round 1 was complete
    upload_round(page, tournament, 2, tmp_path)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    page.wait_for_selector("h2:has-text('Crosstable')")
    rows = page.locator("table.crosstable tbody tr")
    assert rows.count() == 4
    # Every player played both rounds: two results per row, each W/L/D and a place.
    for i in range(4):
        cells = rows.nth(i).locator("td").all_inner_texts()
        assert len(cells) == 5
        assert all(cell[0] in "WLD" and cell[1:].isdigit() for cell in cells[2:4]), cells
    points = sorted(float(rows.nth(i).locator("td").last.inner_text()) for i in range(4))
    assert sum(points) == 4  # four games, a point each
    page.get_by_role("link", name="Print round 2's pairings").click()
    page.wait_for_selector("text=Winter Swiss — round 2")
    screenshot(page, "swiss-print")


def test_an_organiser_voids_a_match_and_restores_it(
    page, live_server, organiser, django_capture_on_commit_callbacks
):
    club = Club.objects.create(name="Night Owls", slug="owls")
    Membership.objects.create(club=club, user=organiser, role="organiser")
    first = ingest_log(
        club, bot_log(GAME, 3, ["ann", "bob"], bot="greedy", played_at="2026-02-01T19:00:00Z"), None
    )
    ingest_log(
        club, bot_log(GAME, 4, ["ann", "bob"], bot="greedy", played_at="2026-02-02T19:00:00Z"), None
    )
    assert Rating.objects.get(player__handle="ann").games == 2
    sign_in_from_home(page, live_server, "olga")
    page.get_by_role("link", name="Night Owls").first.click()
    page.locator(f"a[href='/matches/{first.pk}/']").first.click()
    page.get_by_role("link", name="Void this match").click()
    assert page.locator("#id_reason").get_attribute("required") is not None  # a reason first
    page.fill("#id_reason", "played with the wrong deck")
    page.get_by_role("button", name="Void the match").click()
    page.wait_for_selector("text=Void since")
    first.refresh_from_db()
    assert first.is_void and first.void_reason == "played with the wrong deck"
    assert Rating.objects.get(player__handle="ann").games == 1
    page.get_by_role("link", name="Restore this match").click()
    page.fill("#id_reason", "the deck was right after all")
    page.get_by_role("button", name="Restore the match").click()
    page.wait_for_selector("text=The match is restored")
    first.refresh_from_db()
    assert not first.is_void
    assert Rating.objects.get(player__handle="ann").games == 2
    assert AuditEntry.objects.filter(
        club=club, action="match.restore", summary__contains="after all"
    ).exists()
    assert Match.objects.filter(club=club).count() == 2


def test_a_member_claims_a_handle_and_sees_their_games(
    page, chromium, live_server, organiser, django_user_model, screenshot
):
    club = Club.objects.create(name="Riverside", slug="riverside")
    Membership.objects.create(club=club, user=organiser, role="organiser")
    member = django_user_model.objects.create_user("pavel", "pavel@example.org", PASSWORD)
    Membership.objects.create(club=club, user=member)
    played = ingest_log(
        club, bot_log(GAME, 6, ["pav", "zoe"], bot="greedy", played_at="2026-03-03T19:00:00Z"), None
    )
    sign_in_from_home(page, live_server, "pavel")
    assert page.locator("text=No games of yours yet").count() == 1
    page.get_by_role("link", name="Riverside").first.click()
    page.get_by_role("link", name="Which handle is me?").click()
    page.check("label:has-text('pav ') input[type=radio]")
    page.get_by_role("button", name="This one is me").click()
    page.wait_for_selector("text=waiting for an organiser")

    # The organiser confirms, from their home page's Manage link.
    other = chromium.new_context()
    try:
        theirs = other.new_page()
        sign_in_from_home(theirs, live_server, "olga")
        theirs.get_by_role("link", name="Manage").first.click()
        theirs.wait_for_selector("text=says pav is them")
        theirs.get_by_role("button", name="Confirm").click()
        theirs.wait_for_selector("text='pav' is pavel's")
    finally:
        other.close()
    assert Player.objects.get(club=club, handle="pav").user == member

    page.locator("header a.brand").click()  # the site's name: home
    games = page.locator("section[aria-labelledby=my-games-heading]")
    games.locator(f"a[href='/matches/{played.pk}/']").wait_for()
    assert page.locator("section[aria-labelledby=my-clubs-heading] table").count() == 1  # ratings
    screenshot(page, "member-home")
    page.get_by_role("link", name="pavel", exact=True).click()  # the header: their profile
    page.get_by_role("link", name="Your games and ratings").click()
    page.locator(f"a[href='/matches/{played.pk}/']").wait_for()
    assert "pav" in page.inner_text("main")


def test_an_organiser_records_a_pairings_game_at_the_table_and_sees_it_in_the_standings(
    page, live_server, organiser, screenshot
):
    from tests.recorder.recording import fill_setup, record, scripted_game, start_recording
    from tournaments import services as events

    club = Club.objects.create(name="Harbour Lights", slug="harbour")
    Membership.objects.create(club=club, user=organiser, role="organiser")
    tournament = events.create_tournament(
        club=club, name="Winter Swiss", game=GAME, format="swiss", rounds=2, created_by=organiser
    )
    for handle in ("gus", "hana", "ivan", "jo"):
        events.add_entry(tournament, Player.objects.create(club=club, handle=handle))
    events.start_tournament(tournament)
    pairing = Pairing.objects.filter(tournament=tournament, round=1).first()
    log = scripted_game(GAME, None, lambda log: len(log["actions"]) <= 30)

    sign_in_from_home(page, live_server, "olga")
    page.get_by_role("link", name="Harbour Lights").first.click()
    page.locator("main").get_by_role("link", name="Winter Swiss").first.click()
    page.get_by_role("link", name="Round 1", exact=True).first.click()
    page.locator(f"#pairing-{pairing.pk}").get_by_role("link", name="Record this game").click()
    page.wait_for_selector("text=Seats, as the pairing says")
    seated = page.inner_text(".rec-seated")
    for seat in pairing.seats.select_related("entry__player"):
        assert seat.entry.player.handle in seated  # filled from the pairing, roles as paired
    fill_setup(page, log["setup"])
    screenshot(page, "pairing-record-setup")
    start_recording(page)
    draft = Pairing.objects.get(pk=pairing.pk).draft
    assert draft is not None and draft.status == "recording"

    # Meanwhile the round page says the board is being recorded.
    other = page.context.new_page()
    other.goto(f"{live_server.url}/tournaments/{tournament.pk}/rounds/1/")
    assert "being recorded" in other.inner_text(f"#pairing-{pairing.pk}")
    other.close()

    for action in log["actions"]:
        record(page, action)
    page.get_by_role("button", name="Store the match").click()
    page.wait_for_selector('[data-link="match"]')
    pairing.refresh_from_db()
    assert pairing.status == "played" and pairing.match is not None

    page.locator('[data-link="back"]').click()  # back to the round, its result in
    page.locator(f"#pairing-{pairing.pk}").get_by_role("link", name="replay").wait_for()
    page.locator("main h1").get_by_role("link", name="Winter Swiss").click()
    standings = page.locator("section[aria-labelledby=standings-heading] table.standings")
    standings.wait_for()
    points = {
        s.entry.player.handle: s.points for s in pairing.seats.select_related("entry__player")
    }
    assert sorted(points.values()) == [0.0, 1.0]
    for handle, scored in points.items():
        cells = standings.locator("tbody tr", has_text=handle).locator("td").all_inner_texts()
        assert cells[1:4] == [handle, f"{scored:g}", "1"], cells  # player, points, played
    screenshot(page, "pairing-recorded-standings")


def test_a_member_who_joined_is_offered_by_name_in_the_seat_picker(
    page, live_server, organiser, django_user_model, screenshot
):
    club = Club.objects.create(name="Riverside", slug="riverside")
    Membership.objects.create(club=club, user=organiser, role="organiser")
    pavel = django_user_model.objects.create_user(
        "pavel", "p@example.org", PASSWORD, first_name="Pavel", last_name="Novak"
    )
    Membership.objects.create(club=club, user=pavel)  # joined; no one typed a handle
    Player.objects.create(club=club, handle="zoe")
    sign_in_from_home(page, live_server, "olga")
    page.get_by_role("link", name="Riverside").first.click()
    page.get_by_role("link", name="Record a game").click()
    page.get_by_label("Game").select_option(label="Cryptid: Urban Legends")
    page.get_by_label("dealt by Lantern").check()
    page.get_by_role("button", name="Continue").click()
    page.wait_for_selector("#rec-setup")
    page.get_by_label("Cryptid", exact=True).select_option(label="Pavel Novak (new handle pavel)")
    page.get_by_label("Scientist", exact=True).select_option(label="zoe")
    screenshot(page, "seat-picker-members")
    page.get_by_role("button", name="Start recording").click()
    page.wait_for_selector('#recorder[data-ready="true"]')
    from recorder.models import Draft

    assert [s["player"] for s in Draft.objects.get().seats] == ["pavel", "zoe"]
    assert Player.objects.get(club=club, handle="pavel").user == pavel
