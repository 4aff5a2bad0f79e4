"""Usernames are unique whatever their case, in the database itself.

The sign-up page and the API check `username__iexact` first, but two sign-ups racing
(RACEOWBZ, raceowbz, …) both passed that check; the unique index on lower(username)
refuses the second (SQLite and PostgreSQL both index expressions).
"""

from django.db import migrations

UP = "CREATE UNIQUE INDEX auth_user_username_lower_unique ON auth_user (lower(username));"
DOWN = "DROP INDEX IF EXISTS auth_user_username_lower_unique;"


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_event_delete_and_gap_guards"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]
    operations = [migrations.RunSQL(UP, DOWN)]
