"""The live app: streams, and the news they wait for."""

from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "live"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.db.models.signals import post_save

        from conversations.models import Message
        from live import publish
        from moderation.models import ChatMessage

        # A chat line is no game event (nothing in the game's log): its streams hear of it
        # from the row being written.
        post_save.connect(publish.chat_line, sender=ChatMessage,
                          dispatch_uid="live.publish.chat_line")
        post_save.connect(publish.message_sent, sender=Message,
                          dispatch_uid="live.publish.message_sent")
