"""The players' entropy (docs/players/fair-dice.md "The draws"): each seat's contribution, and the game's
list of them fixed at the start. Both nullable: existing games and seats have none."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0009_event_game_index_and_game_fillfactor'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='contributions',
            field=models.JSONField(blank=True, editable=False, help_text="The players' entropy in seat order, fixed at the start (none: null).", null=True),
        ),
        migrations.AddField(
            model_name='seat',
            name='entropy',
            field=models.CharField(blank=True, editable=False, max_length=64, null=True),
        ),
    ]
