"""Two costs of every command, in the database: an event's index on its game alone (the
(game, seq) and (game, type) indexes lead with the game and serve every lookup by it), and,
on PostgreSQL, full pages in the games' table. Each command updates its game's row; with
room left on the row's page, PostgreSQL writes the new version there and touches none of
the table's indexes (a heap-only update) unless an indexed column changed."""

import django.db.models.deletion
from django.db import migrations, models

GAMES_FILLFACTOR = 70  # percent of each page filled by inserts; the rest is for updates


def drop_event_game_index(apps, schema_editor):
    """As AlterField would, but without remaking the table on SQLite (which would drop the
    triggers that keep the log append-only and gapless, games 0005)."""
    name = _index_name(schema_editor, apps.get_model("games", "Event"))
    schema_editor.execute(f"DROP INDEX IF EXISTS {schema_editor.quote_name(name)}")


def make_event_game_index(apps, schema_editor):
    Event = apps.get_model("games", "Event")
    column = Event._meta.get_field("game").column
    schema_editor.execute(
        f"CREATE INDEX {schema_editor.quote_name(_index_name(schema_editor, Event))} "
        f"ON {schema_editor.quote_name(Event._meta.db_table)} ({schema_editor.quote_name(column)})")


def _index_name(schema_editor, Event) -> str:
    """The name Django gave the index of the game's foreign key."""
    return schema_editor._create_index_name(
        Event._meta.db_table, [Event._meta.get_field("game").column], suffix="")


def set_fillfactor(apps, schema_editor):
    _games_table(apps, schema_editor, f"SET (fillfactor = {GAMES_FILLFACTOR})")


def reset_fillfactor(apps, schema_editor):
    _games_table(apps, schema_editor, "RESET (fillfactor)")


def _games_table(apps, schema_editor, change: str) -> None:
    """ALTER TABLE the games' table with a storage parameter: PostgreSQL only."""
    if schema_editor.connection.vendor == "postgresql":
        table = schema_editor.quote_name(apps.get_model("games", "Game")._meta.db_table)
        schema_editor.execute(f"ALTER TABLE {table} {change}")


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0008_game_rated"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.AlterField(
                model_name="event",
                name="game",
                field=models.ForeignKey(db_index=False,
                                        on_delete=django.db.models.deletion.PROTECT,
                                        related_name="events", to="games.game"),
            )],
            database_operations=[
                migrations.RunPython(drop_event_game_index, make_event_game_index)],
        ),
        migrations.RunPython(set_fillfactor, reset_fillfactor),
    ]
