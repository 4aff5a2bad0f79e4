"""A finished game's win chance turn by turn, computed once (ratings.analysis)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0017_seeds_committed_first"),
        ("ratings", "0004_result_why"),
    ]

    operations = [
        migrations.CreateModel(
            name="GameAnalysis",
            fields=[
                ("game", models.OneToOneField(
                    on_delete=django.db.models.deletion.CASCADE, primary_key=True,
                    related_name="analysis", serialize=False, to="games.game")),
                ("playouts", models.PositiveIntegerField(
                    help_text="Play-outs of each turn's position.")),
                ("chances", models.JSONField(default=list)),
                ("turning_points", models.JSONField(default=list)),
                ("turns_done", models.PositiveIntegerField(db_default=0, default=0)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("done_at", models.DateTimeField(blank=True, null=True)),
            ],
        ),
    ]
