"""Demo data for `manage.py seed_demo`: clubs, players and bot-played matches. Idempotent."""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db import transaction

import engine
from clubs.models import Club, Player
from games.models import Match, Upload
from games.services import ingest_log


@dataclass(frozen=True)
class DemoClub:
    slug: str
    name: str
    is_public: bool
    handles: tuple[str, ...]


DEMO_CLUBS: tuple[DemoClub, ...] = (
    DemoClub(
        "riverside",
        "Riverside Deduction Society",
        True,
        ("alice", "bob", "carol", "dmitri", "emi", "farah"),
    ),
    DemoClub(
        "harbour-lights",
        "Harbour Lights Games Club",
        True,
        ("gus", "hana", "ivan", "jo", "kenji"),
    ),
    DemoClub("night-owls", "Night Owls (private)", False, ("lena", "mo", "nadia")),
)


@transaction.atomic
def seed_demo_clubs() -> list[Club]:
    """Create the demo clubs and their players where missing; change nothing that exists."""
    clubs = []
    for demo in DEMO_CLUBS:
        club, _ = Club.objects.get_or_create(
            slug=demo.slug, defaults={"name": demo.name, "is_public": demo.is_public}
        )
        for handle in demo.handles:
            Player.objects.get_or_create(club=club, handle=handle)
        clubs.append(club)
    return clubs


#: The demo's tables seat at most this many (its smallest public club has five players).
DEMO_MOST_PLAYERS = 5
#: Every this-many-th demo log is cut short, so the demo shows unfinished matches too.
UNFINISHED_EVERY = 25
#: Demo games are spread over this many days before DEMO_EPOCH.
DEMO_DAYS = 120
DEMO_EPOCH = datetime(2026, 11, 20, 20, 0, tzinfo=UTC)


def demo_logs(game_id: str, count: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """``count`` bot-played logs of ``game_id`` as ``(club slug, log)``, the same every time.

    Seeds, seat counts, clubs, players and dates all come from the log's number,
    so the demo is reproducible and a second run finds every log already stored.
    """
    game = engine.get_game(game_id)
    if game is None:
        return
    options = game.normalize_options({})
    # Every player count the game has (the engine's), up to what the demo's clubs seat.
    counts = [n for n in game.player_counts(options) if n <= DEMO_MOST_PLAYERS] or [
        game.min_players]
    bot = "greedy" if "greedy" in game.bots else sorted(game.bots)[0]
    chooser = engine.Rng(zlib.crc32(game_id.encode()))
    for number in range(count):
        demo = DEMO_CLUBS[chooser.below(len(DEMO_CLUBS))]
        players = min(counts[number % len(counts)], len(demo.handles))
        seats = game.seat_ids(options, players)
        handles = list(demo.handles)
        chooser.shuffle(handles)
        played_at = DEMO_EPOCH - timedelta(minutes=chooser.below(DEMO_DAYS * 24 * 60))
        log = engine.play(game_id, number, [bot] * len(seats), players=handles[: len(seats)])
        if number % UNFINISHED_EVERY == UNFINISHED_EVERY - 1 and len(log["actions"]) > 4:
            log["actions"] = log["actions"][: len(log["actions"]) // 2]
            log["result"] = None
        log["meta"] = {"played_at": played_at.isoformat().replace("+00:00", "Z"),
                       "event": "Lantern demo", "notes": f"bot-played ({bot})"}
        yield demo.slug, log


def seed_demo_matches(per_game: int) -> dict[str, int]:
    """Ingest ``per_game`` bot-played matches of every game the engine has, through
    ``ingest_log`` (the path every upload takes). Idempotent: a game whose demo
    matches are all there is skipped without playing anything. Returns new matches per game."""
    clubs = {club.slug: club for club in Club.objects.filter(slug__in=[d.slug for d in DEMO_CLUBS])}
    added: dict[str, int] = {}
    for game_id in sorted(engine.all_games()):
        present = Match.objects.filter(club__in=clubs.values(), game=game_id).count()
        added[game_id] = 0
        if present >= per_game:
            continue
        # One transaction per game: each log still gets its own savepoint, but the
        # disk is synced once rather than once per match.
        with transaction.atomic():
            for slug, log in demo_logs(game_id, per_game):
                match = ingest_log(clubs[slug], log, None, source=Upload.Source.SITE)
                added[game_id] += int(match.created)
    return added
