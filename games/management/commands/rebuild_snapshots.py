"""manage.py rebuild_snapshots [game ids]: drop snapshots and take them again from replays."""

from django.core.management.base import BaseCommand

from games.models import Game
from games.store.states import rebuild_snapshots


class Command(BaseCommand):
    help = "Rebuild the snapshots of the given games (all games with events if none given)."

    def add_arguments(self, parser):
        parser.add_argument("game_ids", nargs="*", type=int)

    def handle(self, *args, game_ids, **options):
        games = Game.objects.exclude(version=0)
        if game_ids:
            games = games.filter(pk__in=game_ids)
        for game in games.order_by("pk"):
            made = rebuild_snapshots(game)
            self.stdout.write(f"game {game.pk}: {made} snapshots from {game.version} events")
