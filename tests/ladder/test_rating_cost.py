"""Rating the newest match of a ladder (``ladder.rate_match``, queued by every upload)
costs a fixed, small number of queries, however long the ladder: the Celery worker's
CPU per upload is mostly per query (bench/ladder_rate_match.py measures it)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ladder.models import Ladder, Rating, RatingChange
from ladder.services import Outcome, apply_match, recompute_ladder
from tests.ladder.factories import BASE, make_match

pytestmark = pytest.mark.django_db

# The match's ladder; then, ladder locked (a savepoint here, BEGIN in the worker): the
# match under the lock with whether it is rated already, its seats, (Mister X: the
# log's pawns,) the players' ratings, the history rows, the ratings, the ladder; COMMIT.
GAMES = [
    ("cryptid-urban-legends", [("cryptid", "ann"), ("scientist", "ben")], "cryptid", None, 10),
    (
        "mister-x",
        [("mrx", "ann"), ("det1", "ben"), ("det2", "cy")],
        "detectives",
        {"det1": ["red", "blue", "green"], "det2": ["yellow", "black"]},
        11,
    ),
    (
        "cloak-and-dagger",
        [("p1", "ann"), ("p2", "ben"), ("p3", "cy"), ("p4", "dee")],
        "p3",
        None,
        10,
    ),
]


def rate_counting_queries(club, game, seats, winner, pawns, hours: int) -> int:
    match = make_match(
        club, game, seats, winner, played_at=BASE + timedelta(hours=hours), pawns=pawns
    )
    with CaptureQueriesContext(connection) as queries:
        assert apply_match(match.pk) == Outcome.RATED
    return len(queries)


@pytest.mark.parametrize(
    ("game", "seats", "winner", "pawns", "expected"), GAMES, ids=[g[0] for g in GAMES]
)
def test_rating_the_newest_match_costs_the_same_queries_after_two_matches_or_thirty(
    club, game, seats, winner, pawns, expected
):
    apply_match(make_match(club, game, seats, winner, played_at=BASE, pawns=pawns).pk)
    few = rate_counting_queries(club, game, seats, winner, pawns, hours=1)
    for hours in range(2, 30):
        apply_match(
            make_match(
                club, game, seats, winner, played_at=BASE + timedelta(hours=hours), pawns=pawns
            ).pk
        )
    many = rate_counting_queries(club, game, seats, winner, pawns, hours=30)
    assert many == few == expected
    # ...and rated as a recompute rates them (the same numbers, to the last bit).
    incremental = sorted(
        RatingChange.objects.values_list(
            "sequence", "player_id", "before", "after", "expected", "k", "weight", "won"
        )
    )
    ratings = sorted(Rating.objects.values_list("player_id", "rating", "games", "wins", "roles"))
    recompute_ladder(Ladder.objects.get(club=club, game=game).pk)
    assert (
        sorted(
            RatingChange.objects.values_list(
                "sequence", "player_id", "before", "after", "expected", "k", "weight", "won"
            )
        )
        == incremental
    )
    assert sorted(Rating.objects.values_list("player_id", "rating", "games", "wins", "roles")) == (
        ratings
    )
    assert len(incremental) == 31 * len(seats)
