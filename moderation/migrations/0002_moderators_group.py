"""The `moderators` group with exactly the permissions moderating needs (see
moderation/permissions.py, which keeps the same list for make_moderator)."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "moderators"
PERMISSIONS = [
    ("games", "moderate_game"),
    ("games", "view_game"),
    ("games", "view_seat"),
    ("games", "view_event"),
    ("games", "view_snapshot"),
    ("notifications", "view_notification"),
    ("notifications", "view_inboundmail"),
    ("moderation", "view_chatmessage"),
    ("moderation", "change_chatmessage"),
    ("moderation", "view_report"),
    ("moderation", "change_report"),
]


def make_group(apps, schema_editor):
    # On a fresh database the permissions appear only after every migration has run
    # (post_migrate); create them now so the group can hold them.
    for label in ("games", "notifications", "moderation"):
        app_config = apps.get_app_config(label)
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    group.permissions.set([
        Permission.objects.get(content_type__app_label=app, codename=codename)
        for app, codename in PERMISSIONS
    ])


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):

    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("games", "0004_moderate_permission"),
        ("notifications", "0003_moderation_kinds"),
        ("moderation", "0001_chat_and_reports"),
    ]

    operations = [migrations.RunPython(make_group, remove_group)]
