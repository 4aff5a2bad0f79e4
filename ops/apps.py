"""Django app configuration for ops: watches for requests a database outage failed."""

from django.apps import AppConfig


class OpsConfig(AppConfig):
    name = "ops"
    verbose_name = "Operations"

    def ready(self):
        from django.core.signals import got_request_exception

        from ops.outage import remember_failure

        got_request_exception.connect(remember_failure, dispatch_uid="conquest-db-outage")
