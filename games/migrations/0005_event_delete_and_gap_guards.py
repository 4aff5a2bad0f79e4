"""Events are append-only on SQLite too, and every game's log is gapless in the database.

SQLite now refuses DELETE of event rows like PostgreSQL does (Django's test flush, which
must empty the table, goes through games' own `flush` command that lifts the guard for its
one statement). On both databases an event whose seq is not the game's last seq + 1 is
refused, so a log can never get a gap, whatever writes to the table.
"""

from django.db import migrations

SQLITE_DELETE_GUARD = """
CREATE TRIGGER games_event_no_delete BEFORE DELETE ON games_event
BEGIN SELECT RAISE(ABORT, 'games_event is append-only: DELETE refused'); END;
"""
SQLITE_GAP_GUARD = """
CREATE TRIGGER games_event_gapless BEFORE INSERT ON games_event
WHEN NEW.seq != (SELECT COALESCE(MAX(seq), 0) + 1 FROM games_event WHERE game_id = NEW.game_id)
BEGIN SELECT RAISE(ABORT, 'games_event seq must follow the game''s last event'); END;
"""
POSTGRES_GAP_GUARD = """
CREATE OR REPLACE FUNCTION games_event_gapless() RETURNS trigger AS $$
BEGIN
    IF NEW.seq != (SELECT COALESCE(MAX(seq), 0) + 1 FROM games_event
                   WHERE game_id = NEW.game_id) THEN
        RAISE EXCEPTION 'games_event seq must follow the game''s last event'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER games_event_gapless BEFORE INSERT ON games_event
    FOR EACH ROW EXECUTE FUNCTION games_event_gapless();
"""
UP = {
    "sqlite": [SQLITE_DELETE_GUARD, SQLITE_GAP_GUARD],
    "postgresql": [POSTGRES_GAP_GUARD],
}
DOWN = {
    "sqlite": ["DROP TRIGGER IF EXISTS games_event_no_delete;",
               "DROP TRIGGER IF EXISTS games_event_gapless;"],
    "postgresql": ["DROP TRIGGER IF EXISTS games_event_gapless ON games_event;",
                   "DROP FUNCTION IF EXISTS games_event_gapless();"],
}


def forwards(apps, schema_editor):
    for sql in UP.get(schema_editor.connection.vendor, []):
        schema_editor.execute(sql, params=None)


def backwards(apps, schema_editor):
    for sql in DOWN.get(schema_editor.connection.vendor, []):
        schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    dependencies = [("games", "0004_moderate_permission")]
    operations = [migrations.RunPython(forwards, backwards)]
