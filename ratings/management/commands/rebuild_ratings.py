"""manage.py rebuild_ratings: every rating and player record again from the game logs."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand

from ratings import recording


class Command(BaseCommand):
    help = "Rebuild every rating and player result from the finished games, in order."

    def handle(self, *args, **options):
        started = time.perf_counter()
        games = recording.rebuild()
        self.stdout.write(f"rebuilt ratings from {games} finished games in "
                          f"{time.perf_counter() - started:.2f} s")
