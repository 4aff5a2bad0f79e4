"""manage.py import_map FILE [--id ID] [--name NAME] [--replace]: read a community map
(Domination `.map` or the Conquest format), check it, keep it as a map of this service and
print its id; a bad file exits non-zero naming each line at fault, and nothing is stored."""

from django.core.management.base import BaseCommand, CommandError

from engine.maps.formats import MapFileError, where
from games import boards


class Command(BaseCommand):
    help = ("Import a community map (Domination .map or Conquest format) and print its id. "
            "Warnings (borders made two-way, ...) go to stderr.")

    def add_arguments(self, parser):
        parser.add_argument("file", help="the map file (its pictures are not read)")
        parser.add_argument("--id", dest="map_id", help="the map's id (default: its name "
                                                        "slugified)")
        parser.add_argument("--name", help="the map's name (default: the file's own, else "
                                           "its file name)")
        parser.add_argument("--replace", action="store_true",
                            help="import a new version of a map imported under that id "
                                 "(games on the old versions keep them)")

    def handle(self, *args, file, map_id=None, name=None, replace=False, **options):
        try:
            with open(file, "rb") as source:
                raw = source.read(boards.MAX_FILE_BYTES + 1)
        except OSError as problem:
            raise CommandError(f"{file}: {problem.strerror or problem}") from None
        try:
            done = boards.import_map(raw, file, map_id=map_id, name=name, replace=replace)
        except MapFileError as problem:
            raise CommandError("\n".join(f"{file}: {line}" for line in str(problem).splitlines())
                               + "\nNothing was imported.") from None
        except boards.ImportRefused as problem:
            raise CommandError(f"{file}: {problem}\nNothing was imported.") from None
        for line, text in done.warnings:
            self.stderr.write(f"{file}: {where(line, f'warning: {text}')}")
        board = done.map.data
        self.stderr.write(
            f"{done.outcome}: {board['name']} ({len(board['territories'])} territories, "
            f"{len(board['continents'])} continents, "
            f"{min(board['starting_armies'])}-{max(board['starting_armies'])} players)")
        self.stdout.write(done.map.pk)
