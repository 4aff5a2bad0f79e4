"""The wiring's app: connects every signal receiver settings.CONQUEST_SIGNALS declares
(config/reactions.py), so no app registers one of its own."""

from django.apps import AppConfig
from django.conf import settings
from django.utils.module_loading import import_string


class WiringConfig(AppConfig):
    name = "config"
    verbose_name = "Wiring"

    def ready(self):
        for signal, receiver in settings.CONQUEST_SIGNALS:
            import_string(signal).connect(import_string(receiver), dispatch_uid=receiver)
