"""Seed the load test's database and write what the load clients need (bench/load/run.sh).

Runs without REDIS_URL (tasks eager: every seeded match is rated before the run starts):
  - the demo clubs with bot-played matches through ``ingest_log`` (``seed_demo``);
  - a user ``loadtest`` (organiser of the upload clubs) with an API token;
  - UPLOADS distinct bot-played logs in four streams (UPLOAD_STREAMS: a ladder each),
    each played after every seeded match and in its stream's order (so uploads rate
    incrementally, as on a tournament night), kept in var/load/uploads-by-stream/ and
    reused by later runs (the database is new each run, the logs need not be);
  - var/load/paths-{matches,frames,standings}.txt: the read URLs the clients rotate over,
    var/load/uploads.txt: "club file" a line, var/load/token: the token.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from datetime import timedelta
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PROJECT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

import engine  # noqa: E402
from clubs.models import Club, Membership  # noqa: E402
from engine import bots_of  # noqa: E402
from games.models import Match  # noqa: E402
from ladder.models import Ladder  # noqa: E402
from pages.demo import DEMO_CLUBS, DEMO_EPOCH, seed_demo_clubs, seed_demo_matches  # noqa: E402

OUT = PROJECT / "var" / "load"
#: uploads are played from this time on, one minute apart (after every demo match)
UPLOAD_EPOCH = DEMO_EPOCH + timedelta(days=1)
#: seeds of upload logs start here (the demo uses 0..N)
UPLOAD_SEED = 1_000_000
GAMES = ("cryptid-urban-legends", "mister-x", "cloak-and-dagger")
#: One stream of uploads per upload connection, each feeding its own ladder in the order
#: its games were played, as the tables of a tournament night do: riverside's three
#: games and harbour-lights' Cryptid. (When the four connections shared one sequence of
#: logs, their drift made half the uploads back-dated by some 20 matches: each a
#: recompute, which is the ladder benchmarks' subject, not upload traffic.)
UPLOAD_STREAMS = (*(("riverside", game) for game in GAMES), ("harbour-lights", GAMES[0]))


def upload_logs(count: int) -> list[tuple[str, Path]]:
    """``count`` distinct bot-played logs, ``(club slug, file)``, written once and
    reused: log ``n`` belongs to stream ``n % 4`` and is that stream's ``n // 4``-th
    game (played a minute after the one before it)."""
    folder = OUT / "uploads-by-stream"
    folder.mkdir(parents=True, exist_ok=True)
    logs = []
    for number in range(count):
        slug, game_id = UPLOAD_STREAMS[number % len(UPLOAD_STREAMS)]
        path = folder / f"{slug}-{number:05d}.json"
        logs.append((slug, path))
        if path.exists():
            continue
        handles = list(next(d for d in DEMO_CLUBS if d.slug == slug).handles)
        game = engine.get_game(game_id)
        seats = game.seat_ids(game.normalize_options({}), 2 + number % 2)
        # A greedy and a random bot in turn: longer games than greedy against greedy.
        bots = [("greedy", "random")[(number + i) % 2] for i in range(len(seats))]
        bots = [bot if bot in bots_of(game) else sorted(bots_of(game))[0] for bot in bots]
        players = [handles[(number + i) % len(handles)] for i in range(len(seats))]
        log = engine.play(game_id, UPLOAD_SEED + number, bots, players=players)
        played_at = UPLOAD_EPOCH + timedelta(minutes=number // len(UPLOAD_STREAMS))
        log["meta"] = {
            "played_at": played_at.isoformat().replace("+00:00", "Z"),
            "event": "Lantern load test",
            "notes": f"bot-played ({', '.join(bots)})",
        }
        path.write_text(json.dumps(log), encoding="utf-8")
    return logs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches-per-game", type=int, default=200)
    parser.add_argument("--uploads", type=int, default=2000)
    args = parser.parse_args()
    started = time.perf_counter()

    seed_demo_clubs()
    seed_demo_matches(args.matches_per_game)
    seeded = time.perf_counter()
    user, _ = get_user_model().objects.get_or_create(username="loadtest")
    for club in Club.objects.filter(slug__in={slug for slug, _ in UPLOAD_STREAMS}):
        Membership.objects.get_or_create(
            user=user, club=club, defaults={"role": Membership.Role.ORGANISER}
        )
    token, _ = Token.objects.get_or_create(user=user)
    uploads = upload_logs(args.uploads)

    public = Match.objects.filter(club__is_public=True).order_by("id")
    match_ids = list(public.values_list("id", flat=True))
    slugs = [d.slug for d in DEMO_CLUBS if d.is_public]
    paths = {
        # The first page of a club's list, by game, and a few pages further.
        "matches": [f"/api/clubs/{slug}/matches/" for slug in slugs]
        + [f"/api/clubs/{slug}/matches/?game={game}" for slug in slugs for game in GAMES]
        + [
            f"/api/clubs/{slug}/matches/?limit=20&game={game}&status=valid"
            for slug in slugs
            for game in GAMES
        ],
        "frames": [f"/api/matches/{pk}/frames?view=all" for pk in match_ids],
        "standings": [
            f"/api/ladders/{pk}/standings/"
            for pk in Ladder.objects.filter(club__is_public=True).values_list("pk", flat=True)
        ],
    }
    OUT.mkdir(parents=True, exist_ok=True)
    for kind, urls in paths.items():
        (OUT / f"paths-{kind}.txt").write_text("\n".join(urls) + "\n", encoding="utf-8")
    (OUT / "uploads.txt").write_text(
        "".join(f"{slug} {path}\n" for slug, path in uploads), encoding="utf-8"
    )
    (OUT / "token").write_text(token.key + "\n", encoding="utf-8")
    print(
        json.dumps(
            {
                "matches": Match.objects.count(),
                "public_matches": len(match_ids),
                "ladders": Ladder.objects.count(),
                "upload_logs": len(uploads),
                "seed_seconds": round(seeded - started, 1),
                "total_seconds": round(time.perf_counter() - started, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
