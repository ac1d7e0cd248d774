"""Seed the load test's database and write what the load clients need (bench/load/run.sh).

Runs without REDIS_URL (tasks eager: every seeded match is rated before the run starts):
  - the demo clubs with bot-played matches through ``ingest_log`` (``seed_demo``);
  - a user ``loadtest`` (organiser of riverside) with an API token;
  - UPLOADS distinct bot-played logs for riverside, each played after every seeded match
    (so uploads rate incrementally, as on a tournament night), kept in var/load/uploads/
    and reused by later runs (the database is new each run, the logs need not be);
  - var/load/paths-{matches,frames,standings}.txt: the read URLs the clients rotate over,
    var/load/uploads.txt: the log files, var/load/token: the token.
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
from games.demo import DEMO_CLUBS, DEMO_EPOCH, seed_demo_clubs, seed_demo_matches  # noqa: E402
from games.models import Club, Match, Membership  # noqa: E402
from ladder.models import Ladder  # noqa: E402

OUT = PROJECT / "var" / "load"
UPLOAD_CLUB = "riverside"
#: uploads are played from this time on, one minute apart (after every demo match)
UPLOAD_EPOCH = DEMO_EPOCH + timedelta(days=1)
#: seeds of upload logs start here (the demo uses 0..N)
UPLOAD_SEED = 1_000_000
GAMES = ("cryptid-urban-legends", "mister-x", "cloak-and-dagger")


def upload_logs(count: int) -> list[Path]:
    """``count`` distinct bot-played logs for the upload club, written once and reused."""
    folder = OUT / "uploads"
    folder.mkdir(parents=True, exist_ok=True)
    handles = list(next(d for d in DEMO_CLUBS if d.slug == UPLOAD_CLUB).handles)
    paths = []
    for number in range(count):
        path = folder / f"{number:05d}.json"
        paths.append(path)
        if path.exists():
            continue
        game_id = GAMES[number % len(GAMES)]
        game = engine.get_game(game_id)
        seats = game.seat_ids(game.normalize_options({}), 2 + number % 2)
        # A greedy and a random bot in turn: longer games than greedy against greedy.
        bots = [("greedy", "random")[(number + i) % 2] for i in range(len(seats))]
        bots = [bot if bot in game.bots else sorted(game.bots)[0] for bot in bots]
        players = [handles[(number + i) % len(handles)] for i in range(len(seats))]
        log = engine.play(game_id, UPLOAD_SEED + number, bots, players=players)
        played_at = UPLOAD_EPOCH + timedelta(minutes=number)
        log["meta"] = {"played_at": played_at.isoformat().replace("+00:00", "Z"),
                       "event": "Lantern load test", "notes": f"bot-played ({', '.join(bots)})"}
        path.write_text(json.dumps(log), encoding="utf-8")
    return paths


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
    club = Club.objects.get(slug=UPLOAD_CLUB)
    Membership.objects.get_or_create(user=user, club=club,
                                     defaults={"role": Membership.Role.ORGANISER})
    token, _ = Token.objects.get_or_create(user=user)
    uploads = upload_logs(args.uploads)

    public = Match.objects.filter(club__is_public=True).order_by("id")
    match_ids = list(public.values_list("id", flat=True))
    slugs = [d.slug for d in DEMO_CLUBS if d.is_public]
    paths = {
        # The first page of a club's list, by game, and a few pages further.
        "matches": [f"/api/clubs/{slug}/matches/" for slug in slugs]
        + [f"/api/clubs/{slug}/matches/?game={game}" for slug in slugs for game in GAMES]
        + [f"/api/clubs/{slug}/matches/?limit=20&game={game}&status=valid"
           for slug in slugs for game in GAMES],
        "frames": [f"/api/matches/{pk}/frames?view=all" for pk in match_ids],
        "standings": [f"/api/ladders/{pk}/standings/"
                      for pk in Ladder.objects.filter(club__is_public=True).values_list("pk", flat=True)],
    }
    OUT.mkdir(parents=True, exist_ok=True)
    for kind, urls in paths.items():
        (OUT / f"paths-{kind}.txt").write_text("\n".join(urls) + "\n", encoding="utf-8")
    (OUT / "uploads.txt").write_text("\n".join(str(p) for p in uploads) + "\n", encoding="utf-8")
    (OUT / "token").write_text(token.key + "\n", encoding="utf-8")
    print(json.dumps({
        "matches": Match.objects.count(),
        "public_matches": len(match_ids),
        "ladders": Ladder.objects.count(),
        "upload_logs": len(uploads),
        "seed_seconds": round(seeded - started, 1),
        "total_seconds": round(time.perf_counter() - started, 1),
    }))


if __name__ == "__main__":
    main()
