"""The site's notification list (read_at, mentions) and presence on a game's page."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0010_players_entropy'),
        ('notifications', '0008_notification_maybe_sent'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Presence',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('seen_at', models.DateTimeField()),
            ],
        ),
        migrations.AddField(
            model_name='notification',
            name='read_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name='notification',
            name='kind',
            field=models.CharField(choices=[('turn', 'turn'), ('reminder', 'reminder'), ('started', 'started'), ('eliminated', 'eliminated'), ('finished', 'finished'), ('timed_out', 'timed_out'), ('dropped', 'dropped'), ('reply', 'reply'), ('digest', 'digest'), ('replaced', 'replaced'), ('moderated', 'moderated'), ('confirm_email', 'confirm_email'), ('tournament', 'tournament'), ('mention', 'mention')], max_length=20),
        ),
        migrations.AddIndex(
            model_name='notification',
            index=models.Index(condition=models.Q(('read_at__isnull', True)), fields=['user', 'kind'], name='notification_unread'),
        ),
        migrations.AddField(
            model_name='presence',
            name='game',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.game'),
        ),
        migrations.AddField(
            model_name='presence',
            name='user',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddConstraint(
            model_name='presence',
            constraint=models.UniqueConstraint(fields=('user', 'game'), name='presence_once'),
        ),
    ]
