"""Who is a moderator: the `moderators` group, its exact permissions, and staff status.

A moderator is a staff user (so /admin/ lets them in) in the `moderators` group; make one
with `manage.py make_moderator <username>`. The group's permissions are the whole power:
moderate games (games.moderate_game), read the game tables and the mail logs in the admin,
and hide chat messages (change_chatmessage) and close reports (change_report).
"""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission
from django.core.exceptions import ObjectDoesNotExist
from django.db import transaction

GROUP = "moderators"

# (app label, codename). The data migration 0002 holds a frozen copy of this list.
PERMISSIONS = [
    ("games", "moderate_game"),
    ("games", "view_game"),
    ("games", "view_seat"),
    ("games", "view_event"),
    ("games", "view_snapshot"),
    ("notifications", "view_notification"),
    ("notifications", "view_inboundmail"),
    ("moderation", "view_chatmessage"),
    ("moderation", "change_chatmessage"),  # hide a message (the only change there is)
    ("moderation", "view_report"),
    ("moderation", "change_report"),  # close a report with a note
]


def can_moderate(user) -> bool:
    """May use the moderation pages: staff with the moderator permission."""
    return bool(user is not None and user.is_authenticated and user.is_active
                and user.is_staff and user.has_perm("games.moderate_game"))


def moderators_group() -> Group:
    """The group, made (or completed) if a flushed test database or an old one lacks it."""
    group, _ = Group.objects.get_or_create(name=GROUP)
    wanted = []
    for app_label, codename in PERMISSIONS:
        try:
            wanted.append(Permission.objects.get(content_type__app_label=app_label,
                                                 codename=codename))
        except ObjectDoesNotExist:
            raise RuntimeError(f"permission {app_label}.{codename} is missing: run migrate") \
                from None
    group.permissions.set(wanted)
    return group


@transaction.atomic
def make_moderator(user) -> None:
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.groups.add(moderators_group())


@transaction.atomic
def remove_moderator(user) -> None:
    user.groups.remove(*Group.objects.filter(name=GROUP))
    if not user.is_superuser:
        user.is_staff = False
        user.save(update_fields=["is_staff"])
