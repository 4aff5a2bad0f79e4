"""Django app configuration for ops: its deployment checks. What it watches for (requests a
database outage failed, Celery's signals for request ids and task metrics) is connected by
config/reactions.py's SIGNALS, not by the apps that define the tasks."""

from django.apps import AppConfig


class OpsConfig(AppConfig):
    name = "ops"
    verbose_name = "Operations"

    def ready(self):
        from ops import checks  # noqa: F401 - the checks register themselves
