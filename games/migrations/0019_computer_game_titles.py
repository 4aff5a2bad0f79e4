"""Games against the computer made before titles were kept as data get theirs, read once
from their names: the one place the names' old English patterns are still read. A name
counts only on a game its creator made against computer players under their own name; any
other game that merely reads so keeps no title and is shown by its name as given."""

import re

from django.db import migrations

LEVELS = ("easy", "normal", "hard")
_LEVEL = f"(?:{'|'.join(LEVELS)})"
# As words.vocabulary.computer_game_name wrote them, and before that with the first part only.
COMPUTER_GAME = re.compile(
    rf"(?P<user>[^·]+) against the computer · (?P<map>[^·]+) · "
    rf"(?P<levels>(?:\d × )?{_LEVEL}(?:, (?:\d × )?{_LEVEL})*) · no\. (?P<number>\d{{1,6}})")
COMPUTER_GAME_BEFORE = re.compile(r"(?P<user>[^·]+) against the computer")


def levels_of(named: str) -> list:
    """"2 × hard, easy" -> ["hard", "hard", "easy"]: one level a computer seat."""
    levels = []
    for part in named.split(", "):
        count, _times, level = part.rpartition(" × ")
        levels += [level] * (int(count) if count else 1)
    return levels


def title_of(name: str, creator: str, map_id: str) -> dict:
    found = COMPUTER_GAME.fullmatch(name)
    if found is not None and found["user"] == creator:
        return {"kind": "computer", "user": creator, "map": map_id, "map_name": found["map"],
                "levels": levels_of(found["levels"]), "number": int(found["number"])}
    found = COMPUTER_GAME_BEFORE.fullmatch(name)
    if found is not None and found["user"] == creator:
        return {"kind": "computer", "user": creator}
    return {}


def fill_titles(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    candidates = (Game.objects.filter(name__contains=" against the computer",
                                      seats__bot__isnull=False)
                  .distinct().select_related("creator").order_by("pk"))
    titled = []
    for game in candidates.iterator(chunk_size=500):
        game.title = title_of(game.name, game.creator.username, game.map)
        if game.title:
            titled.append(game)
    Game.objects.bulk_update(titled, ["title"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0018_game_title'),
    ]

    operations = [
        migrations.RunPython(fill_titles, migrations.RunPython.noop),
    ]
