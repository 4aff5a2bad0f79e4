"""Each result keeps its game's map, rules fingerprint and privacy (ratings.models), filled
here for the results recorded before."""

import hashlib
import json
from collections import defaultdict

from django.db import migrations, models

BATCH = 2000


def rules_key(rules) -> str:
    """ratings.recording.rules_key as this release wrote it."""
    text = json.dumps(rules or {}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def fill(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    PlayerResult = apps.get_model("ratings", "PlayerResult")
    ids = sorted(set(PlayerResult.objects.values_list("game_id", flat=True)))
    for start in range(0, len(ids), BATCH):
        alike = defaultdict(list)  # (map, rules key, private) -> game ids
        for pk, board, rules, private in Game.objects.filter(
                pk__in=ids[start:start + BATCH]).values_list("pk", "map", "rules", "private"):
            alike[(board, rules_key(rules), private)].append(pk)
        for (board, key, private), games in alike.items():
            PlayerResult.objects.filter(game_id__in=games).update(
                map=board, rules_key=key, private=private)


class Migration(migrations.Migration):

    dependencies = [
        ('ratings', '0005_game_analysis'),
        ('games', '0020_page_indexes'),
    ]

    operations = [
        migrations.AddField(
            model_name='playerresult',
            name='map',
            field=models.CharField(db_default='', default='', max_length=64),
        ),
        migrations.AddField(
            model_name='playerresult',
            name='private',
            field=models.BooleanField(db_default=True, default=True),
        ),
        migrations.AddField(
            model_name='playerresult',
            name='rules_key',
            field=models.CharField(db_default='', default='', max_length=16),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
