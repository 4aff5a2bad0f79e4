"""API tokens issued before they were stored hashed (DRF's authtoken table) keep working:
each key is copied as its digest. The old table is left for the operator to drop."""

import hashlib

from django.db import migrations
from django.utils import timezone


def copy_tokens(apps, schema_editor):
    connection = schema_editor.connection
    if "authtoken_token" not in connection.introspection.table_names():
        return
    ApiToken = apps.get_model("accounts", "ApiToken")
    with connection.cursor() as cursor:
        cursor.execute("SELECT key, user_id, created FROM authtoken_token")
        rows = cursor.fetchall()
    ApiToken.objects.bulk_create([
        ApiToken(user_id=user_id, digest=hashlib.sha256(key.encode()).hexdigest(),
                 last_used_at=timezone.now())
        for key, user_id, _created in rows
    ], ignore_conflicts=True)
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM authtoken_token")


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]
    operations = [migrations.RunPython(copy_tokens, migrations.RunPython.noop)]
