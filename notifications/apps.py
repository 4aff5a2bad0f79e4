"""Django app configuration for notifications (anymail's inbound mail reaches it through
config/reactions.py's SIGNALS)."""

from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self):
        from notifications import checks  # noqa: F401 - the push settings' checks register
