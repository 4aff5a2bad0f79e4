"""Django app configuration for games."""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        from engine import maps
        from games import checks as map_checks  # noqa: F401  (and the imported maps' check)
        from games.boards import stored_version

        if stored_version not in maps.FINDERS:  # imported maps' versions, by hash
            maps.FINDERS.append(stored_version)
