"""Django app configuration for moderation: chat, reports and the moderators' pages."""

from django.apps import AppConfig


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = "Moderation"
