"""manage.py make_moderator <username> [--remove]: staff status and the moderators group."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from moderation.permissions import make_moderator, remove_moderator


class Command(BaseCommand):
    help = ("Make a user a moderator (staff, in the 'moderators' group), or with --remove "
            "take it back.")

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--remove", action="store_true",
                            help="remove the user from the moderators (and staff, unless "
                                 "a superuser)")

    def handle(self, *args, username, remove, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no user named {username!r}")
        if remove:
            remove_moderator(user)
            self.stdout.write(f"{username} is no longer a moderator.")
        else:
            make_moderator(user)
            self.stdout.write(f"{username} is a moderator: staff, in the moderators group.")
