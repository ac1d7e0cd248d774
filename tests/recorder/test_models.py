"""The Draft table's constraints, and the bot flag an ingested log gets."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from clubs.models import Club, Player
from engine.ai.play import play
from games.models import Match
from games.services import ingest_log
from recorder.models import Draft


@pytest.fixture
def riverside(db) -> Club:
    club = Club.objects.create(name="Riverside", slug="riverside")
    for handle in ("alice", "bob", "bot-greedy"):
        Player.objects.create(club=club, handle=handle)
    return club


def _draft(club: Club, user, **fields) -> Draft:
    values = {
        "club": club,
        "created_by": user,
        "game": "cloak-and-dagger",
        "seats": [{"seat": "p1", "player": "alice"}, {"seat": "p2", "player": "bob"}],
        "played_at": timezone.now(),
    }
    values.update(fields)
    return Draft.objects.create(**values)


@pytest.mark.django_db
def test_a_table_draft_has_no_seed_and_a_server_draft_needs_one(riverside, user):
    assert _draft(riverside, user).seed is None
    assert _draft(riverside, user, chance="server", seed=7).seed == 7
    for bad in (
        {"chance": "table", "seed": 7},
        {"chance": "server", "seed": None},
        {"status": "paused"},
        {"chance": "dice"},
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            _draft(riverside, user, **bad)


@pytest.mark.django_db
def test_only_a_finished_draft_points_at_a_match(riverside, user):
    log = play("cloak-and-dagger", 3, ["greedy", "greedy"], players=["alice", "bob"])
    match = ingest_log(riverside, log, None)
    with pytest.raises(IntegrityError), transaction.atomic():
        _draft(riverside, user, match=match)
    assert _draft(riverside, user, match=match, status="finished").match == match


@pytest.mark.django_db
def test_a_log_with_a_bot_seat_entry_is_stored_as_a_bot_match(riverside):
    human = play("cloak-and-dagger", 4, ["greedy", "greedy"], players=["alice", "bob"])
    with_bot = play("cloak-and-dagger", 5, ["greedy", "greedy"], players=["alice", "bot-greedy"])
    with_bot["seats"][1]["bot"] = "greedy"
    # engine.play's meta.bots says how a log was generated, not who sat at the table:
    # demo logs carry it for human handles, so it must not make a bot match.
    assert human["meta"]["bots"]
    assert ingest_log(riverside, human, None).with_bots is False
    assert ingest_log(riverside, with_bot, None).with_bots is True
    assert Match.objects.filter(with_bots=True).count() == 1
