"""The tournaments app's configuration: held-up tournaments join the moderators' queue."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from moderation import sections
        from tournaments import moderators

        sections.register(_("Held-up tournaments"), moderators.queue_rows)
