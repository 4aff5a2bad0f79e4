"""The kinds are declared in notifications/kinds.py, not as the field's choices: a new kind
needs no migration. No change to the schema (choices live in Python only): safe while the
previous release runs."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('notifications', '0014_on_site'),
    ]

    operations = [
        migrations.AlterField(
            model_name='notification',
            name='kind',
            field=models.CharField(max_length=20),
        ),
    ]
