"""Django app configuration for games."""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        from django.db.backends.signals import connection_created

        from engine import maps
        from games import checks as map_checks  # noqa: F401  (and the imported maps' check)
        from games.maps import stored_version
        from lib import sql

        if stored_version not in maps.FINDERS:  # imported maps' versions, by hash
            maps.FINDERS.append(stored_version)

        connection_created.connect(sql.load_times_in_c, dispatch_uid="lib.sql.times")
