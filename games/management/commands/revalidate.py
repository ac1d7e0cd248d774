"""manage.py revalidate [--game ID]: replay every stored log with the current engine."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

import engine
from games.services import revalidate_matches


class Command(BaseCommand):
    help = (
        "Replay every stored log with the current engine and report the matches whose "
        "validity or result changed. Nothing is changed or deleted. Exits 1 when any changed."
    )

    def add_arguments(self, parser):
        parser.add_argument("--game", help="only this game id (e.g. mister-x)")
        parser.add_argument(
            "--json", dest="as_json", action="store_true", help="print the report as JSON"
        )

    def handle(self, *args, game: str | None, as_json: bool, **options):
        if game is not None and engine.get_game(game) is None:
            raise CommandError(
                f"unknown game {game!r} (known: {', '.join(sorted(engine.all_games()))})"
            )
        report = revalidate_matches(game)
        if as_json:
            self.stdout.write(json.dumps(report.as_dict(), ensure_ascii=False))
        else:
            for change in report.changed:
                self.stdout.write(change.describe())
            self.stdout.write(
                f"{report.checked} match{'es' if report.checked != 1 else ''} replayed, "
                f"{len(report.changed)} changed"
            )
        if report.changed:
            raise SystemExit(1)
