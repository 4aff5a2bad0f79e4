"""The conversations app's configuration (its reported private messages join the
moderators' queue through the wiring, config/reactions.py)."""

from django.apps import AppConfig


class ConversationsConfig(AppConfig):
    name = "conversations"
    verbose_name = "Private messages"
    default_auto_field = "django.db.models.BigAutoField"
