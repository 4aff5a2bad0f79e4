"""Django app configuration for games."""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        from config import checks  # noqa: F401  (registers the deployment checks)
