"""Private messages: a conversation between two players, its messages, who blocks whom, and
players' reports of a message. Nothing here is an event of a game."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone


class Conversation(models.Model):
    """The one conversation of two players: `first` has the smaller user id."""

    first = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="+")
    second = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="+")
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                   related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    last_message_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-last_message_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["first", "second"], name="conversation_once"),
            models.CheckConstraint(condition=Q(first__lt=F("second")),
                                   name="conversation_ordered_pair"),
        ]
        indexes = [
            models.Index(fields=["first", "-last_message_at"], name="conversation_first"),
            models.Index(fields=["second", "-last_message_at"], name="conversation_second"),
        ]

    def __str__(self) -> str:
        return f"conversation #{self.pk} of {self.first_id} and {self.second_id}"

    def other(self, user_id: int) -> int:
        return self.second_id if user_id == self.first_id else self.first_id


class Message(models.Model):
    """One message from `sender` to `recipient`. A moderator may hide a reported one: its
    place stays, its text is no longer shown to either player."""

    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE,
                                     related_name="messages")
    sender = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="+")
    recipient = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                  related_name="+")
    text = models.TextField(max_length=2000)
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)
    hidden = models.BooleanField(default=False)
    hidden_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                  null=True, blank=True, related_name="+")
    hidden_reason = models.TextField(blank=True, max_length=500)
    # False: written while the recipient blocked the sender. Its sender reads it as any
    # message; it never reaches the recipient, not even once they unblock.
    delivered = models.BooleanField(default=True, db_default=True)

    class Meta:
        ordering = ["conversation", "id"]
        indexes = [
            # The unread count in every page's header.
            models.Index(fields=["recipient", "conversation"], name="message_unread",
                         condition=Q(read_at__isnull=True)),
            # New conversations a player started lately (the daily limit).
            models.Index(fields=["sender", "created_at"], name="message_sender_recent"),
        ]

    def __str__(self) -> str:
        return f"message #{self.pk} in conversation {self.conversation_id}"


class Block(models.Model):
    """`blocker` receives nothing `blocked` writes or invites them to; the blocked player
    is not told (what they send is taken and never delivered)."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="+")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class MessageReport(models.Model):
    """A recipient's complaint about a private message, for the moderators' queue: the
    reported message is all of the conversation a moderator reads."""

    OPEN, CLOSED = "open", "closed"
    STATUSES = [(OPEN, "open"), (CLOSED, "closed")]

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                 related_name="+")
    message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="reports")
    reason = models.TextField(max_length=1000)
    created_at = models.DateTimeField(default=timezone.now)
    status = models.CharField(max_length=10, choices=STATUSES, default=OPEN)
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                  null=True, blank=True, related_name="+")
    closed_at = models.DateTimeField(null=True, blank=True)
    note = models.TextField(blank=True, max_length=1000, help_text="The moderator's note.")

    class Meta:
        ordering = ["-id"]
        indexes = [
            models.Index(fields=["created_at"], name="message_report_open",
                         condition=Q(status="open")),
        ]

    def __str__(self) -> str:
        return f"report #{self.pk} on private message #{self.message_id} ({self.status})"
