"""Indexes of the lobby's games under way, of the games not over and of a player's seats."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0019_computer_game_titles'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddIndex(
            model_name='game',
            index=models.Index(condition=models.Q(('private', False), ('status__in', ['active', 'paused'])), fields=['-started_at', '-id'], name='game_running_newest'),
        ),
        migrations.AddIndex(
            model_name='game',
            index=models.Index(condition=models.Q(('status__in', ['open', 'active', 'paused'])), fields=['id'], name='game_unfinished'),
        ),
        migrations.AddIndex(
            model_name='seat',
            index=models.Index(fields=['user', 'game'], name='seat_by_user'),
        ),
    ]
