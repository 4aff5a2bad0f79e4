from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0008_bot_accounts'),
    ]

    operations = [
        migrations.AddField(
            model_name='preferences',
            name='neutral_question_answered',
            field=models.BooleanField(db_default=False, default=False, help_text="The player answered the one-time question about the neutral's armies."),
        ),
    ]
