"""Preferences come from the notifications app with their table
(notifications_preferences), which is left as it is (state only)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import accounts.models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_tokens_from_authtoken"),
        ("notifications", "0006_preferences_to_accounts"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="Preferences",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("time_zone", models.CharField(default="UTC", max_length=64)),
                        ("language", models.CharField(choices=[("en", "English"), ("cs", "Čeština"), ("pl", "Polski")], default="en", max_length=5)),
                        ("turn_mail", models.CharField(choices=[("each", "A mail on every turn"), ("digest", "One daily digest of all my games"), ("none", "No turn mail")], default="each", max_length=10)),
                        ("reminder_hours", models.JSONField(default=accounts.models.default_reminders, help_text="Hours before a deadline to send a reminder.")),
                        ("game_mail", models.BooleanField(default=True, help_text="Mail when a game starts, a player is eliminated, a game ends.")),
                        ("digest_hour", models.PositiveSmallIntegerField(default=8, help_text="Local hour (0-23) the daily digest goes out.")),
                        ("unsubscribed", models.BooleanField(default=False, help_text="One-click unsubscribe: no mail at all.")),
                        ("user", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name="preferences", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={"db_table": "notifications_preferences",
                             "verbose_name_plural": "preferences"},
                ),
            ],
        ),
    ]
