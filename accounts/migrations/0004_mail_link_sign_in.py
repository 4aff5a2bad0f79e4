"""Mailed links sign in only for players who chose so (off by default)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0003_preferences'),
    ]

    operations = [
        migrations.AddField(
            model_name='preferences',
            name='mail_link_sign_in',
            field=models.BooleanField(db_default=False, default=False, help_text="A mailed 'open the game' link signs the player in (else it asks them to)."),
        ),
    ]
