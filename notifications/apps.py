"""Django app configuration for notifications: hooks the outbox into event appends."""

from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self):
        from anymail.signals import inbound

        from games.store import APPEND_HOOKS
        from notifications.inbound import on_anymail_inbound
        from notifications.outbox import outbox_writer

        if outbox_writer not in APPEND_HOOKS:
            APPEND_HOOKS.append(outbox_writer)
        inbound.connect(on_anymail_inbound, dispatch_uid="conquest-inbound-mail")
