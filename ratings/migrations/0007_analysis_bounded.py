"""A finished game's analysis at a bounded cost, in chunks leased through its row (ratings.analysis):
its state, the lease, the CPU spent, the positions played out and the charts' numbers; the
analyses made before are dropped, to be made again."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ratings', '0006_result_game_facts'),
    ]

    operations = [
        migrations.AddField(
            model_name='gameanalysis',
            name='cpu_seconds',
            field=models.FloatField(db_default=0, default=0),
        ),
        migrations.AddField(
            model_name='gameanalysis',
            name='estimates',
            field=models.JSONField(blank=True, default=list, null=True),
        ),
        migrations.AddField(
            model_name='gameanalysis',
            name='lease_until',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='gameanalysis',
            name='sampled',
            field=models.JSONField(blank=True, default=list, null=True),
        ),
        migrations.AddField(
            model_name='gameanalysis',
            name='series',
            field=models.JSONField(blank=True, default=dict, null=True),
        ),
        migrations.AddField(
            model_name='gameanalysis',
            name='state',
            field=models.CharField(choices=[('queued', 'queued'), ('running', 'running'), ('done', 'done')], db_default='queued', default='queued', max_length=8),
        ),
        migrations.AddField(
            model_name='gameanalysis',
            name='token',
            field=models.CharField(blank=True, db_default='', default='', max_length=32),
        ),
        migrations.AlterField(
            model_name='gameanalysis',
            name='playouts',
            field=models.PositiveIntegerField(help_text='Play-outs of the position that got fewest (its margin is the widest).'),
        ),
        # A projection: the analyses made before are made again by the analysis worker's
        # sweep (a few a minute), with the charts' numbers the API now reads.
        migrations.RunSQL("DELETE FROM ratings_gameanalysis", migrations.RunSQL.noop),
    ]
