"""Spectators (issue #36, item 5) after the table: the club's delay
(``Club.watchers_see_all_after``) holds on the match a finished table stored, through every
path that shows what was hidden in it (the replay page, the frames, views and beliefs API,
the analysis, the match's log and its API resource, the club's export, an event's games),
for members who did not sit at it; its players see everything at once, and everyone once
the delay has passed (``games.policy``, a fixed clock put in ``games.policy.now``)."""

from __future__ import annotations

import io
import json
import re
import zipfile
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubs.models import Membership
from engine import PUBLIC
from games import policy as match_policy
from games.models import Match
from live import services
from tests.live.conftest import CRYPTID, seats
from tests.live.test_watchers import _play_to_the_end
from tests.live.twins import seat_ids

DELAY = 30


@pytest.fixture
def played(club, people) -> Match:
    """A Cryptid game ann and ben played online to its end, in a club whose watchers
    see everything 30 minutes after a game ends."""
    club.watchers_see_all_after = DELAY
    club.save()
    first, second = seat_ids(CRYPTID)
    table = services.open_table(
        club, people["ann"], game_id=CRYPTID, seats=seats(CRYPTID, "me", "free")
    )
    table = services.take_seat(table.pk, people["ben"])
    table = _play_to_the_end(table, {first: people["ann"], second: people["ben"]})
    assert table.match is not None
    return table.match


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def at(monkeypatch, minutes: float) -> None:
    """The policy's clock ``minutes`` after now."""
    later = timezone.now() + timedelta(minutes=minutes)
    monkeypatch.setattr(match_policy, "now", lambda: later)


def hidden_paths(match: Match) -> list[str]:
    """Every path that shows what was hidden in ``match`` (one perspective each)."""
    m = match.pk
    return [
        f"/api/matches/{m}/frames?view=all",
        f"/api/matches/{m}/frames?view={seat_ids(CRYPTID)[0]}",
        f"/api/matches/{m}/frames/views?view=all&page=0",
        f"/api/matches/{m}/beliefs?view=all",
        f"/api/matches/{m}/beliefs?view={seat_ids(CRYPTID)[1]}",
        f"/api/matches/{m}/analysis?view=all",
        f"/api/matches/{m}/log",
    ]


def perspectives(page: str) -> list[str]:
    return re.findall(
        r'<option value="([^"]+)"', page.split('id="replay-view"')[1].split("</select>")[0]
    )


@pytest.mark.django_db
def test_a_member_who_did_not_play_sees_nothing_hidden_before_the_delay(played, people):
    cat = client_of(people["cat"])
    for path in hidden_paths(played):
        answer = cat.get(path)
        assert answer.status_code == 403, path
        assert answer.json()["error"] == "hidden"
        opens = played.ended_at_table + timedelta(minutes=DELAY)
        assert answer.json()["visible_from"] == opens.isoformat()
    # What a spectator saw stays open: the public perspective.
    for path in (
        f"/api/matches/{played.pk}/frames?view={PUBLIC}",
        f"/api/matches/{played.pk}/frames/views?view={PUBLIC}&page=0",
        f"/api/matches/{played.pk}/beliefs?view={PUBLIC}",
        f"/api/matches/{played.pk}/analysis?view={PUBLIC}",
    ):
        assert cat.get(path).status_code == 200, path
    frames = cat.get(f"/api/matches/{played.pk}/frames?view={PUBLIC}").json()
    assert frames["viewer"] == PUBLIC
    # The match's resource: its summary, without the log.
    resource = cat.get(f"/api/matches/{played.pk}/").json()
    assert resource["log"] is None and resource["log_visible_from"]
    assert resource["result"] == played.result
    # The club's export leaves it out.
    export = cat.get(f"/api/clubs/{played.club.slug}/matches/export.jsonl")
    assert b"".join(export.streaming_content) == b""
    # The replay page offers the spectator's perspective only, and says until when.
    page = cat.get(f"/matches/{played.pk}/replay").content.decode()
    assert perspectives(page) == [PUBLIC]
    assert 'id="replay-hidden"' in page and "<time datetime=" in page
    assert 'id="replay-analysis"' not in page
    assert perspectives(cat.get(f"/matches/{played.pk}/replay?view=all").content.decode()) == [
        PUBLIC
    ]
    match_page = cat.get(f"/matches/{played.pk}/").content.decode()
    assert f"/api/matches/{played.pk}/log" not in match_page
    assert "match-hidden" in match_page


@pytest.mark.django_db
def test_its_players_see_everything_at_once(played, people):
    for who in ("ann", "ben"):
        client = client_of(people[who])
        for path in hidden_paths(played):
            assert client.get(path).status_code == 200, (who, path)
        assert client.get(f"/api/matches/{played.pk}/").json()["log"] is not None
        export = client.get(f"/api/clubs/{played.club.slug}/matches/export.jsonl")
        assert len(b"".join(export.streaming_content).splitlines()) == 1
        page = client.get(f"/matches/{played.pk}/replay").content.decode()
        assert perspectives(page)[0] == "all" and 'id="replay-hidden"' not in page


@pytest.mark.django_db
def test_everything_opens_to_every_member_once_the_delay_has_passed(played, people, monkeypatch):
    cat = client_of(people["cat"])
    at(monkeypatch, DELAY - 1)
    assert cat.get(f"/api/matches/{played.pk}/log").status_code == 403
    at(monkeypatch, DELAY + 1)
    for path in hidden_paths(played):
        assert cat.get(path).status_code == 200, path
    log = cat.get(f"/api/matches/{played.pk}/log").json()
    assert log["seed"] is not None and log["setup"]
    assert cat.get(f"/api/matches/{played.pk}/").json()["log"] == log
    export = cat.get(f"/api/clubs/{played.club.slug}/matches/export.jsonl")
    assert len(b"".join(export.streaming_content).splitlines()) == 1
    page = cat.get(f"/matches/{played.pk}/replay").content.decode()
    assert perspectives(page)[0] == "all" and 'id="replay-hidden"' not in page
    assert 'id="replay-analysis"' in page
    assert f"/api/matches/{played.pk}/log" in cat.get(f"/matches/{played.pk}/").content.decode()


@pytest.mark.django_db
def test_a_visitor_of_a_public_club_waits_as_a_member_does(played, monkeypatch):
    played.club.is_public = True
    played.club.save()
    visitor = Client()
    for path in hidden_paths(played):
        assert visitor.get(path).status_code == 403, path
    at(monkeypatch, DELAY + 1)
    assert visitor.get(f"/api/matches/{played.pk}/frames?view=all").status_code == 200


@pytest.mark.django_db
def test_an_uploaded_match_and_a_club_without_delay_keep_nothing_back(played, people):
    played.club.watchers_see_all_after = 0
    played.club.save()
    cat = client_of(people["cat"])
    for path in hidden_paths(played):
        assert cat.get(path).status_code == 200, path
    played.club.watchers_see_all_after = DELAY
    played.club.save()
    Match.objects.filter(pk=played.pk).update(ended_at_table=None)  # as an upload
    for path in hidden_paths(played):
        assert cat.get(path).status_code == 200, path


@pytest.mark.django_db
def test_an_events_games_leave_out_a_game_kept_back(played, people, monkeypatch):
    from tournaments.models import Pairing, PairingSeat, Tournament

    Membership.objects.filter(user=people["cat"], club=played.club).update(role="organiser")
    event = Tournament.objects.create(
        club=played.club, name="Winter", game=CRYPTID, format="swiss", rounds=1
    )
    pairing = Pairing.objects.create(
        tournament=event, round=1, board=1, status=Pairing.Status.PLAYED, match=played
    )
    for order, seat in enumerate(played.seats.select_related("player")):
        entry = event.entries.create(player=seat.player)
        PairingSeat.objects.create(pairing=pairing, entry=entry, seat=seat.seat, order=order)

    def names(client: Client) -> list[str]:
        answer = client.get(reverse("tournaments:games-zip", args=[event.pk]))
        assert answer.status_code == 200
        return zipfile.ZipFile(io.BytesIO(answer.content)).namelist()

    assert names(client_of(people["cat"])) == []
    assert len(names(client_of(people["ann"]))) == 1
    at(monkeypatch, DELAY + 1)
    files = names(client_of(people["cat"]))
    assert len(files) == 1
    assert (
        json.loads(
            zipfile.ZipFile(
                io.BytesIO(
                    client_of(people["cat"])
                    .get(reverse("tournaments:games-zip", args=[event.pk]))
                    .content
                )
            ).read(files[0])
        )["seed"]
        == played.log.document["seed"]
    )
