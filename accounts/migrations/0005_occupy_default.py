"""The player's stated default for the "Move in" form after a conquest."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0004_mail_link_sign_in'),
    ]

    operations = [
        migrations.AddField(
            model_name='preferences',
            name='occupy_default',
            field=models.CharField(choices=[('all', 'All the armies I may move'), ('border', 'All but what the border needs'), ('minimum', 'The minimum')], db_default='all', default='all', help_text="How many armies the 'Move in' form after a conquest suggests.", max_length=10),
        ),
    ]
