"""A pairing's game recorded at the table (the recorder) settles the pairing once stored,
through the same ingest and the same settling an uploaded log takes; a pairing has one
draft at a time (the database says so), and "Record" again resumes it."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.test import Client

import engine
from clubs.models import Membership, Player
from games.models import Match, Upload
from recorder import services as recorder
from recorder.models import Draft
from tournaments import selectors, services
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db

GAME = "cryptid-urban-legends"


def bot_game(pairing: Pairing, seed: int = 1) -> dict[str, Any]:
    seats = list(pairing.seats.select_related("entry__player").order_by("order"))
    for attempt in range(50):
        log = engine.play(
            GAME,
            seed + 1000 * attempt,
            ["greedy"] * len(seats),
            players=[s.entry.player.handle for s in seats],
        )
        if log["result"]:
            return log
    raise AssertionError("no finished game")


def enter(draft: Draft, user: Any, actions: list[dict[str, Any]]) -> Draft:
    """Enter ``actions`` as the recorder's page does, one write per action."""
    for action in actions:
        draft.refresh_from_db()
        recorder.apply_action(
            draft.pk,
            recorder.WriteRequest(user, draft.version, f"a{draft.version}"),
            action,
            answer=lambda d, p: {},
        )
    draft.refresh_from_db()
    return draft


def store(draft: Draft, user: Any) -> Draft:
    draft.refresh_from_db()
    recorder.finish(
        draft.pk, recorder.WriteRequest(user, draft.version, "finish"), answer=lambda d, p: {}
    )
    draft.refresh_from_db()
    return draft


@pytest.fixture
def running(make_event):
    return services.start_tournament(make_event(4, rounds=2))


def test_a_recorded_game_settles_its_pairing_as_an_upload_would(
    running, organiser, django_capture_on_commit_callbacks
):
    pairing = selectors.pairings(running, 1).first()
    log = bot_game(pairing)
    draft, new = services.record_at_the_table(pairing, organiser, log["setup"])
    assert new and draft.status == "recording" and draft.chance == "table"
    # The event's game, the pairing's players in the pairing's seats.
    assert draft.game == GAME
    assert draft.seats == [
        {"seat": s.seat, "player": s.entry.player.handle} for s in pairing.seats.order_by("order")
    ]
    pairing.refresh_from_db()
    assert pairing.draft == draft and pairing.status == "pending"
    enter(draft, organiser, log["actions"])
    with django_capture_on_commit_callbacks(execute=True):
        draft = store(draft, organiser)
    pairing.refresh_from_db()
    assert pairing.status == "played" and pairing.match == draft.match
    match = Match.objects.get(pk=draft.match_id)
    assert match.status == "valid" and match.log.document["actions"] == log["actions"]
    assert Upload.objects.get(match=match).source == Upload.Source.RECORDER
    winner = log["result"]["winner"]
    assert {s.seat: s.points for s in pairing.seats.all()} == {
        s["seat"]: 1.0 if s["seat"] == winner else 0.0 for s in log["seats"]
    }
    standings = {row.entrant.name: row.points for row in selectors.standings(running)}
    assert sorted(standings.values()) == [0, 0, 0, 1]


def test_record_again_resumes_the_draft_and_the_database_allows_one(running, organiser):
    pairing = selectors.pairings(running, 1).first()
    setup = bot_game(pairing)["setup"]
    first, new = services.record_at_the_table(pairing, organiser, setup)
    again, new_again = services.record_at_the_table(pairing, organiser, setup)
    assert new and not new_again and again == first
    assert Draft.objects.count() == 1
    # One draft settles one pairing: a second pairing cannot point at it.
    other = selectors.pairings(running, 1).exclude(pk=pairing.pk).first()
    other.draft = first
    with pytest.raises(IntegrityError), transaction.atomic():
        other.save(update_fields=["draft"])


def test_an_abandoned_draft_is_replaced_and_a_game_stopped_early_settles_nothing(
    running, organiser, django_capture_on_commit_callbacks
):
    pairing = selectors.pairings(running, 1).first()
    log = bot_game(pairing)
    draft, _ = services.record_at_the_table(pairing, organiser, log["setup"])
    recorder.abandon(
        draft.pk, recorder.WriteRequest(organiser, draft.version, "x"), answer=lambda d, p: {}
    )
    second, new = services.record_at_the_table(pairing, organiser, log["setup"])
    assert new and second != draft
    enter(second, organiser, log["actions"][:3])
    with django_capture_on_commit_callbacks(execute=True):
        second = store(second, organiser)
    assert second.match.status == "unfinished"
    pairing.refresh_from_db()
    assert pairing.status == "pending" and pairing.match is None  # record it again, or upload


def test_a_draft_of_no_pairing_settles_nothing(club, organiser, django_capture_on_commit_callbacks):
    Player.objects.get_or_create(club=club, handle="p01")
    Player.objects.get_or_create(club=club, handle="p02")
    log = engine.play(GAME, 1, ["greedy", "greedy"], players=["p01", "p02"])
    draft, _ = recorder.create_draft(
        club, organiser, game_id=GAME, seats=log["seats"], chance="table", setup=log["setup"]
    )
    enter(draft, organiser, log["actions"])
    with django_capture_on_commit_callbacks(execute=True):
        store(draft, organiser)
    assert services.settle_recorded(draft.pk, draft.match_id) is None


def test_a_settled_pairing_is_not_recorded(running, organiser):
    pairing = selectors.pairings(running, 1).first()
    absent = [pairing.seats.first().entry]
    services.record_forfeit(pairing, absent, "did not come")
    with pytest.raises(services.TournamentError):
        services.record_at_the_table(pairing, organiser, {})


# --- the pages -------------------------------------------------------------------------


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_round_page_offers_recording_and_shows_being_recorded(
    running, organiser, club, django_user_model
):
    pairing = selectors.pairings(running, 1).first()
    page = signed_in(organiser).get(f"/tournaments/{running.pk}/rounds/1/").content.decode()
    record = f"/tournaments/{running.pk}/pairings/{pairing.pk}/record"
    assert record in page and "Record this game" in page
    # The setup: the pairing's players in their seats, shown; only the deal is asked.
    setup = signed_in(organiser).get(record)
    assert setup.status_code == 200
    html = setup.content.decode()
    for seat in pairing.seats.all():
        assert seat.entry.player.handle in html
    assert 'name="seat.' not in html and 'name="option.' not in html
    assert 'name="setup.' in html
    draft, _ = services.record_at_the_table(pairing, organiser, bot_game(pairing)["setup"])
    page = signed_in(organiser).get(f"/tournaments/{running.pk}/rounds/1/").content.decode()
    assert "being recorded" in page and "Open the recording" in page
    # Opening "Record" again resumes the draft.
    again = signed_in(organiser).get(record)
    assert again.status_code == 302
    assert (
        again["Location"] == f"/clubs/{club.slug}/record/{draft.pk}/"
        f"?back=%2Ftournaments%2F{running.pk}%2Frounds%2F1%2F"
    )
    # A member who does not play in the pairing may neither see the offer nor record it.
    member = django_user_model.objects.create_user("mo", password="pw-for-tests-only")
    Membership.objects.create(user=member, club=club)
    page = signed_in(member).get(f"/tournaments/{running.pk}/rounds/1/").content.decode()
    assert record not in page
    other = selectors.pairings(running, 1).exclude(pk=pairing.pk).first()
    assert (
        signed_in(member).get(f"/tournaments/{running.pk}/pairings/{other.pk}/record").status_code
        == 403
    )


def test_a_paired_member_records_their_own_game_from_the_form(running, club, django_user_model):
    pairing = selectors.pairings(running, 1).first()
    player = pairing.seats.first().entry.player
    member = django_user_model.objects.create_user("pat", password="pw-for-tests-only")
    Membership.objects.create(user=member, club=club)
    player.user = member
    player.save()
    record = f"/tournaments/{running.pk}/pairings/{pairing.pk}/record"
    client = signed_in(member)
    assert "Record this game" in client.get(f"/tournaments/{running.pk}/rounds/1/").content.decode()
    refused = client.post(record, {})  # nothing dealt entered: the form asks again
    assert refused.status_code == 422 and not Draft.objects.exists()
    assert signed_in(member).get(f"/tournaments/{running.pk}/pairings/0/record").status_code == 404


def test_the_api_starts_or_resumes_a_pairings_recording(
    running, organiser, club, django_user_model
):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(organiser)
    pairing = selectors.pairings(running, 1).first()
    setup = bot_game(pairing)["setup"]
    first = api.post(f"/api/pairings/{pairing.pk}/record/", {"setup": setup}, format="json")
    assert first.status_code == 201, first.json()
    draft = first.json()["draft"]
    again = api.post(f"/api/pairings/{pairing.pk}/record/", {}, format="json")
    assert again.status_code == 200 and again.json() == {"draft": draft, "created": False}
    assert api.get(f"/api/pairings/{pairing.pk}/").json()["recording"] == draft
    bad = api.post(
        f"/api/pairings/{selectors.pairings(running, 1).last().pk}/record/",
        {"setup": {"hands": "nonsense"}},
        format="json",
    )
    assert 400 <= bad.status_code < 500 and bad.json()["error"]
    outsider = django_user_model.objects.create_user("otto", password="pw-for-tests-only")
    api.force_authenticate(outsider)
    assert api.post(f"/api/pairings/{pairing.pk}/record/", {}, format="json").status_code in (
        403,
        404,
    )
