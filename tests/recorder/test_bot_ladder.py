"""Games with a bot seat are rated only on the club's bot ladder, never on its normal one.

The matches go in through ``ingest_log`` (the recorder's finish path), so the bot flag is
the one set from the log's seat entries, and rating runs as after any upload (eager
Celery here)."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import Club, Player
from engine import get_game, play
from games.models import Match
from ladder import services as ladder_services
from ladder.models import Ladder, Rating, RatingChange

pytestmark = pytest.mark.django_db
GAME = "cryptid-urban-legends"


@pytest.fixture
def riverside(db) -> Club:
    club = Club.objects.create(name="Riverside", slug="riverside")
    for handle in ("alice", "bob", "bot-greedy"):
        Player.objects.create(club=club, handle=handle)
    return club


def _log(seed: int, players: list[str], bot_seat: int | None = None) -> dict[str, Any]:
    log = play(GAME, seed, ["greedy", "random"], players=players)
    assert log["result"] is not None
    if bot_seat is not None:
        log["seats"][bot_seat]["bot"] = "greedy"
    return log


def test_bot_games_make_their_own_ladder_and_stay_out_of_the_normal_one(riverside, ingest):
    people = [ingest(riverside, _log(seed, ["alice", "bob"])) for seed in (1, 2)]
    bots = [ingest(riverside, _log(seed, ["alice", "bot-greedy"], 1)) for seed in (3, 4, 5)]
    normal = Ladder.objects.get(club=riverside, game=GAME, kind=Ladder.Kind.STANDARD)
    bot_ladder = Ladder.objects.get(club=riverside, game=GAME, kind=Ladder.Kind.BOTS)

    def rated(ladder):
        return set(RatingChange.objects.filter(ladder=ladder).values_list("match_id", flat=True))

    assert rated(normal) == {m.pk for m in people}
    assert rated(bot_ladder) == {m.pk for m in bots}
    assert not Rating.objects.filter(ladder=normal, player__handle="bot-greedy").exists()
    assert Rating.objects.get(ladder=bot_ladder, player__handle="bot-greedy").games == 3
    assert Rating.objects.get(ladder=normal, player__handle="alice").games == 2

    # A full recompute (nightly) keeps them apart too.
    for ladder in (normal, bot_ladder):
        ladder_services.recompute_ladder(ladder.pk)
    assert rated(normal) == {m.pk for m in people}
    assert rated(bot_ladder) == {m.pk for m in bots}

    # A back-dated human match recomputes the normal ladder without pulling bot games in.
    early = _log(6, ["bob", "alice"])
    early["meta"] = {"played_at": "2020-01-01T10:00:00Z"}
    back = ingest(riverside, early)
    assert rated(Ladder.objects.get(pk=normal.pk)) == {m.pk for m in [*people, back]}
    assert rated(Ladder.objects.get(pk=bot_ladder.pk)) == {m.pk for m in bots}
    assert Match.objects.filter(with_bots=True).count() == 3


def test_the_nightly_job_creates_the_bot_ladder_for_bot_matches(riverside, ingest):
    ingest(riverside, _log(7, ["alice", "bot-greedy"], 1))
    Ladder.objects.all().delete()
    ladder_services.ensure_ladders()
    assert list(Ladder.objects.values_list("game", "kind")) == [(GAME, "bots")]


def test_the_bot_ladder_is_labelled_on_its_pages(riverside, client, ingest):
    ingest(riverside, _log(8, ["alice", "bob"]))
    ingest(riverside, _log(9, ["alice", "bot-greedy"], 1))
    listing = client.get("/clubs/riverside/ladders/").content.decode()
    name = get_game(GAME).name
    assert f"{name} ladder" in listing and f"{name} bot ladder (games against bots only)" in listing
    assert f'href="/clubs/riverside/ladders/{GAME}-bots/"' in listing
    page = client.get(f"/clubs/riverside/ladders/{GAME}-bots/").content.decode()
    assert "bot ladder" in page and "bot-greedy" in page
    normal = client.get(f"/clubs/riverside/ladders/{GAME}/").content.decode()
    assert "bot-greedy" not in normal and "bob" in normal
    player = client.get(f"/clubs/riverside/ladders/{GAME}-bots/players/alice/")
    assert player.status_code == 200 and "bot ladder" in player.content.decode()
