"""Django app configuration for moderation: adds table talk to turn mails."""

from django.apps import AppConfig


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = "Moderation"

    def ready(self):
        from moderation.mail import chat_for_mail
        from notifications.mail import CONTEXT_HOOKS

        if chat_for_mail not in CONTEXT_HOOKS:
            CONTEXT_HOOKS.append(chat_for_mail)
