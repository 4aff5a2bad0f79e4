"""Django app configuration for notifications: listens for anymail's inbound mail."""

from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self):
        from anymail.signals import inbound

        from notifications import checks  # noqa: F401 - the push settings' checks register
        from notifications.inbound import on_anymail_inbound

        inbound.connect(on_anymail_inbound, dispatch_uid="conquest-inbound-mail")
