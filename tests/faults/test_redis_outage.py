"""Redis stopped while a club uploads.

A web server (gunicorn) and a Celery worker run as processes against this test's
database and a Redis server of the test's own. Redis is killed between uploads: the
uploads still answer 201 (the rating task is not sent, and the rate limit's cache is
unreachable, and neither fails the request) and the matches are stored unrated. Redis
comes back: new uploads are rated again at once, and the periodic
``ladder.requeue_unrated_matches`` task queues the ones the outage left behind. In the
end every match is rated exactly once, and the ladder equals a recompute from scratch.
"""

from __future__ import annotations

import json
import time
from datetime import timedelta
from pathlib import Path

import pytest
from rest_framework.authtoken.models import Token

from clubs.models import Club, Membership
from games.models import Match
from ladder import services
from ladder.models import Ladder, Rating, RatingChange
from tests.faults.conftest import send
from tests.faults.processes import (
    RedisServer,
    celery_worker,
    child_env,
    current_database_url,
    http,
    wait_until,
    web_server,
)
from tests.games.logs import bot_log
from tests.ladder.factories import BASE

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

CRYPTID = "cryptid-urban-legends"
#: an upload must answer within this, Redis or not (a refused connection fails fast)
UPLOAD_SECONDS = 15


def rated(match_ids: list[int]) -> set[int]:
    return set(
        RatingChange.objects.filter(match_id__in=match_ids).values_list("match_id", flat=True)
    )


def test_uploads_while_redis_is_down_are_stored_and_rated_once_it_is_back(
    require_postgres, own_redis: RedisServer, django_user_model, tmp_path: Path
):
    organiser = django_user_model.objects.create_user(username="olga")
    club = Club.objects.create(name="Riverside Deduction Society", slug="riverside")
    Membership.objects.create(user=organiser, club=club, role="organiser")
    token = Token.objects.create(user=organiser).key
    logs = [
        bot_log(CRYPTID, seed, ["ann", "ben"], played_at=(BASE + timedelta(hours=seed)).isoformat())
        for seed in range(6)
    ]

    env = child_env(
        DATABASE_URL=current_database_url(),
        REDIS_URL=own_redis.url,
        DEBUG="1",
        LANTERN_UPLOAD_RATE="1000/min",
    )
    web_log = tmp_path / "web.log"
    with celery_worker(None, env, tmp_path / "worker.log"), web_server(env, web_log) as base:

        def upload(log: dict) -> int:
            started = time.monotonic()
            status, body = http(
                "POST",
                f"{base}/api/clubs/riverside/matches/",
                body=json.dumps(log).encode(),
                headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
                timeout=UPLOAD_SECONDS + 15,
            )
            took = time.monotonic() - started
            assert status == 201, body[:2000]
            assert took < UPLOAD_SECONDS, f"the upload took {took:.1f} s"
            return json.loads(body)["id"]

        # Redis up: rated by the worker, through Redis.
        first = upload(logs[0])
        wait_until(lambda: rated([first]), 60, "the first upload to be rated")

        own_redis.stop()
        during = [upload(log) for log in logs[1:4]]
        assert Match.objects.filter(pk__in=during).count() == 3
        assert rated(during) == set()
        assert "ladder.rate_match" in web_log.read_text() and "was not queued" in (
            web_log.read_text()
        )

        own_redis.start()  # the same port, empty: every queued message is gone
        # A new upload is queued and rated again (web process and worker reconnect); it is
        # the newest match, so it is rated without the three the outage left behind.
        after = upload(logs[4])
        wait_until(lambda: rated([after]), 90, "an upload after the outage to be rated")
        assert rated(during) == set()

        # Celery beat's periodic task (sent here at once, for matches of any age).
        from ladder.tasks import requeue_unrated_matches

        send(own_redis.url, requeue_unrated_matches, 0)
        wait_until(lambda: rated(during) == set(during), 60, "the requeued matches to be rated")
        last = upload(logs[5])
        wait_until(lambda: rated([last]), 60, "the last upload to be rated")

    every = [first, *during, after, last]
    assert not services.unrated_matches(older_than=timedelta(0)).exists()
    # Rated exactly once: one change per seat, six matches in the ladder.
    assert RatingChange.objects.count() == 2 * len(every)
    ladder = Ladder.objects.get(club=club, game=CRYPTID)
    assert ladder.rated_matches == len(every)
    table = list(Rating.objects.order_by("player_id").values_list("player_id", "rating", "games"))
    services.recompute_ladder(ladder.pk)  # every match, in order, from scratch
    assert (
        list(Rating.objects.order_by("player_id").values_list("player_id", "rating", "games"))
        == table
    )
