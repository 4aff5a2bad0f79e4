"""Tournament games made before titles were kept as data get theirs from the table each
belongs to (its tournament, round and number), never from the game's name: a game its
creator named like a table keeps no title."""

from django.db import migrations


def fill_titles(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Table = apps.get_model("tournaments", "Table")
    titled = []
    for table in Table.objects.select_related("tournament", "game").order_by("pk").iterator(
            chunk_size=500):
        table.game.title = {"kind": "tournament", "tournament": table.tournament_id,
                            "tournament_name": table.tournament.name, "round": table.round,
                            "table": table.number}
        titled.append(table.game)
    Game.objects.bulk_update(titled, ["title"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0018_game_title'),
        ('tournaments', '0006_tournament_map'),
    ]

    operations = [
        migrations.RunPython(fill_titles, migrations.RunPython.noop),
    ]
