from django.core.management.base import BaseCommand

from games.demo import seed_demo_clubs


class Command(BaseCommand):
    help = "Load demo clubs and players (idempotent: running it again adds nothing)."

    def handle(self, *args, **options) -> None:
        clubs = seed_demo_clubs()
        for club in clubs:
            self.stdout.write(f"{club.name}: {club.players.count()} players")
