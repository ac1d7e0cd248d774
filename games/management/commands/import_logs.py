"""manage.py import_logs CLUB PATH...: bulk-import logs from JSON-lines, zip or .json files."""

from __future__ import annotations

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from clubs.models import Club
from games import services
from games.models import Import


class Command(BaseCommand):
    help = (
        "Import logs into a club: each PATH is a JSON-lines file, a zip of .json logs or one "
        ".json log. Runs here, not on a worker, and prints every rejection."
    )

    def add_arguments(self, parser):
        parser.add_argument("club", help="the club's slug")
        parser.add_argument("paths", nargs="+", metavar="PATH")
        parser.add_argument(
            "--user",
            help="import as this user (an organiser of the club); default: the site itself",
        )

    def handle(self, *args, club: str, paths: list[str], user: str | None, **options):
        found = Club.objects.filter(slug=club).first()
        if found is None:
            raise CommandError(f"no club {club!r}")
        importer = None
        if user is not None:
            importer = get_user_model().objects.filter(username=user).first()
            if importer is None:
                raise CommandError(f"no user {user!r}")
        failed = False
        for path in paths:
            try:
                data = Path(path).read_bytes()
            except OSError as exc:
                raise CommandError(f"{path}: {exc.strerror}") from None
            try:
                # No worker here: create the import, then run it in this process.
                with transaction.atomic():
                    run = services.create_import(
                        found, data, Path(path).name, importer, enqueue=False
                    )
            except services.ImportRefused as exc:
                raise CommandError(f"{path}: {exc.message}") from None
            run = services.run_import(run.pk)
            failed |= self._report(path, run)
        if failed:
            raise CommandError("some files could not be read")

    def _report(self, path: str, run: Import) -> bool:
        name = Path(path).name
        if run.status == Import.Status.FAILED:
            self.stderr.write(f"{name}: refused: {run.error}")
            return True
        self.stdout.write(
            f"{name}: {run.total} log{'s' if run.total != 1 else ''}: {run.accepted} new, "
            f"{run.duplicates} already stored, {run.rejected} rejected"
        )
        for upload in run.uploads.filter(status="rejected").order_by("id"):
            self.stdout.write(
                f"  {upload.name}: {upload.error_message} [{upload.error_rule or upload.error}]"
            )
        return False
