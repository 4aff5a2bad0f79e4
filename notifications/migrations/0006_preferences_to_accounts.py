"""Preferences move to the accounts app; the table stays as it is (state only)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("notifications", "0005_alter_notification_kind")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="Preferences")],
            database_operations=[],
        ),
    ]
