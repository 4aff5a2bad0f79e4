"""Events are append-only below the ORM too: the database refuses to change them.

PostgreSQL refuses UPDATE and DELETE of event rows (TRUNCATE, which only a maintenance or
test flush issues, still works). SQLite refuses UPDATE; a DELETE trigger there would also
refuse Django's test flush, which deletes tables in no fixed order, so on SQLite deletes
are stopped by the model (Event.delete, the queryset) and by PROTECT from Game.
"""

from django.db import migrations

POSTGRES_UP = """
CREATE OR REPLACE FUNCTION games_event_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'games_event is append-only: % refused', TG_OP
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER games_event_append_only
    BEFORE UPDATE OR DELETE ON games_event
    FOR EACH ROW EXECUTE FUNCTION games_event_append_only();
"""
POSTGRES_DOWN = """
DROP TRIGGER IF EXISTS games_event_append_only ON games_event;
DROP FUNCTION IF EXISTS games_event_append_only();
"""
SQLITE_UP = """
CREATE TRIGGER games_event_append_only BEFORE UPDATE ON games_event
BEGIN SELECT RAISE(ABORT, 'games_event is append-only: UPDATE refused'); END;
"""
SQLITE_DOWN = "DROP TRIGGER IF EXISTS games_event_append_only;"


def forwards(apps, schema_editor):
    sql = {"postgresql": POSTGRES_UP, "sqlite": SQLITE_UP}.get(schema_editor.connection.vendor)
    if sql:
        schema_editor.execute(sql, params=None)


def backwards(apps, schema_editor):
    sql = {"postgresql": POSTGRES_DOWN, "sqlite": SQLITE_DOWN}.get(schema_editor.connection.vendor)
    if sql:
        schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
