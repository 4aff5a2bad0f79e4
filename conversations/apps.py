"""The conversations app's configuration: reported private messages join the moderators'
queue (moderation.sections), so moderation knows nothing of this app."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ConversationsConfig(AppConfig):
    name = "conversations"
    verbose_name = "Private messages"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from conversations import reports
        from moderation import sections

        sections.register(_("Reported private messages"), reports.queue_rows)
