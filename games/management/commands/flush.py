"""Django's flush, able to empty the append-only event table on SQLite.

SQLite has no statement-level TRUNCATE that skips row triggers, so the DELETE guard on
games_event is dropped for the flush and put back in the same transaction. Only a flush
(tests, or an operator wiping a database on purpose) ever deletes events.
"""

from importlib import import_module

from django.core.management.commands import flush
from django.db import connections, transaction

guards = import_module("games.migrations.0005_event_delete_and_gap_guards")


class Command(flush.Command):
    def handle(self, **options):
        connection = connections[options["database"]]
        if connection.vendor != "sqlite":
            return super().handle(**options)
        with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
            cursor.execute("DROP TRIGGER IF EXISTS games_event_no_delete")
            try:
                return super().handle(**options)
            finally:
                cursor.execute(guards.SQLITE_DELETE_GUARD)
