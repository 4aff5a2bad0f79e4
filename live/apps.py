"""The live app: streams, and the news they wait for (config/reactions.py declares what
they hear of)."""

from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "live"
    default_auto_field = "django.db.models.BigAutoField"
