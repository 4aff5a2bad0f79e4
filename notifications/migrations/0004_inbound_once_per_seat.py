"""Inbound mail is de-duplicated per authenticated seat, not by a Message-ID anyone sends."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("notifications", "0003_moderation_kinds")]
    operations = [
        migrations.AlterField(
            model_name="inboundmail", name="message_id",
            field=models.CharField(blank=True, max_length=300),
        ),
        migrations.AddField(
            model_name="inboundmail", name="once_key",
            field=models.CharField(blank=True, max_length=400, null=True, unique=True),
        ),
    ]
