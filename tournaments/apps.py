"""The tournaments app's configuration (held-up tournaments join the moderators' queue
through the wiring, config/reactions.py)."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"
