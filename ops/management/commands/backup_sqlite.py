"""`manage.py backup_sqlite DEST`: a consistent copy of the embedded SQLite database, taken
with SQLite's online backup API while the site runs (a file copy of a database in WAL mode
can miss what the -wal file holds, or catch a page half written)."""

from __future__ import annotations

import os
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connections


class Command(BaseCommand):
    help = ("Back up the embedded SQLite database to DEST (a file, or a folder to put a "
            "dated file in) while web, workers and beat run. PostgreSQL: use pg_dump.")

    def add_arguments(self, parser):
        parser.add_argument("destination")
        parser.add_argument("--database", default="default")

    def handle(self, *args, destination, database, **options):
        settings_dict = connections[database].settings_dict
        if settings_dict["ENGINE"] != "django.db.backends.sqlite3":
            raise CommandError("the database is not SQLite: back PostgreSQL up with pg_dump "
                               "(docs/operators/operating.md)")
        source_path = Path(settings_dict["NAME"])
        target = Path(destination)
        if target.is_dir():
            stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
            target = target / f"conquest-{stamp}.sqlite3"
        if target.exists():
            raise CommandError(f"{target} exists: name a new file")
        partial = target.with_name(target.name + ".partial")
        # Only the owner may read it: it holds the games' seeds and the accounts.
        os.close(os.open(partial, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600))
        try:
            source = sqlite3.connect(f"file:{source_path}?mode=ro", uri=True, timeout=20)
            copy = sqlite3.connect(partial)
            try:
                # A few pages at a time: writers wait for at most one step, never the whole
                # copy; a write meanwhile makes SQLite start the copy over, so it is whole.
                source.backup(copy, pages=256, sleep=0.01)
                verdict = copy.execute("PRAGMA integrity_check").fetchone()[0]
            finally:
                copy.close()
                source.close()
            if verdict != "ok":
                raise CommandError(f"the copy fails SQLite's integrity check: {verdict}")
            partial.rename(target)
        finally:
            partial.unlink(missing_ok=True)
        if options["verbosity"]:
            self.stdout.write(f"{source_path} backed up to {target} "
                              f"({target.stat().st_size} bytes)")
