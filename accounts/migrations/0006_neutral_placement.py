"""A standing choice: the neutral's half placed for a player who chose so (off by default)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0005_occupy_default'),
    ]

    operations = [
        migrations.AddField(
            model_name='preferences',
            name='neutral_placement',
            field=models.CharField(choices=[('ask', "I place the neutral's armies myself"), ('borders', "Place the neutral's armies for me on the borders of the player moving")], db_default='ask', default='ask', help_text="Two-player games: who places the neutral's reinforcements that fall to this player.", max_length=10),
        ),
    ]
