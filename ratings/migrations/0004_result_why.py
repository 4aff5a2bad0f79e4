"""Why a finished game moved a player's rating not at all, or less than a full game."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ratings', '0003_rating_void'),
    ]

    operations = [
        migrations.AddField(
            model_name='playerresult',
            name='why',
            field=models.CharField(blank=True, db_default='', default='', max_length=20),
        ),
    ]
