import time

from django.conf import settings
from django.core.management.base import BaseCommand

from pages.demo import (
    seed_demo_analyses,
    seed_demo_bot_games,
    seed_demo_clubs,
    seed_demo_matches,
    seed_demo_people,
    seed_demo_tournaments,
)

#: "a few hundred bot-played matches of every game"
DEFAULT_MATCHES_PER_GAME = 200


class Command(BaseCommand):
    help = (
        "Load demo clubs, players and bot-played matches of every game, ingested like any "
        "upload (idempotent: running it again adds nothing)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--matches-per-game",
            type=int,
            default=DEFAULT_MATCHES_PER_GAME,
            help=f"bot-played matches of each game (default {DEFAULT_MATCHES_PER_GAME}; 0: none)",
        )

    def handle(self, *args, matches_per_game: int, **options) -> None:
        clubs = seed_demo_clubs()
        for club in clubs:
            self.stdout.write(f"{club.name}: {club.players.count()} players")
        started = time.perf_counter()
        added = seed_demo_matches(matches_per_game)
        for game_id, count in added.items():
            self.stdout.write(f"{game_id}: {count} new demo matches")
        if matches_per_game:
            self.stdout.write(f"{seed_demo_bot_games()} new demo games against a bot")
        self.stdout.write(f"demo matches ready in {time.perf_counter() - started:.1f} s")
        if matches_per_game:
            analysed = seed_demo_analyses()
            self.stdout.write(f"{len(analysed)} demo matches analysed")
        for name in seed_demo_tournaments():
            self.stdout.write(f"demo tournament: {name}")
        if not settings.DEBUG:
            self.stdout.write("no demo accounts: DEBUG is off (their password is public)")
            return
        people = seed_demo_people()
        self.stdout.write(
            self.style.SUCCESS(
                "\nTry Lantern as someone: sign in at /accounts/login/ with\n"
                + "\n".join(f"  {username} / {password}" for username, password in people)
                + "\n(development only: these accounts are never made with DEBUG off)\n"
            )
        )
