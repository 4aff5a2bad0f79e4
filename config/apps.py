"""The wiring's app: once every app is ready, imports config/reactions.py (a wrong name
fails there, at start), hands it to lib.reactions and connects every signal receiver it
declares, so no app registers one of its own."""

from django.apps import AppConfig


class WiringConfig(AppConfig):
    name = "config"
    verbose_name = "Wiring"

    def ready(self):
        from config import reactions
        from lib.reactions import wire

        wire(reactions)
        for signal, receiver in reactions.SIGNALS:
            signal.connect(receiver, dispatch_uid=f"{receiver.__module__}.{receiver.__qualname__}")
