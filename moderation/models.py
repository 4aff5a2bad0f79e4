"""Game chat messages and players' reports: rows beside a game's log, not events in it.

A chat message does not bump the game's version (that would make every player's
expected_version stale); hiding one does, since it is a moderator's action: a `chat_hidden`
event in the log, whose projection is the `hidden` flag here.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class ChatMessage(models.Model):
    game = models.ForeignKey("games.Game", on_delete=models.PROTECT,
                             related_name="chat_messages")
    seat = models.PositiveSmallIntegerField(help_text="The author's seat when posting.")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                             related_name="chat_messages")
    text = models.TextField(max_length=1000)
    # Team chat in a team game: only that team (and moderators who do not play in the
    # game) read it. None: table talk, which everyone reads.
    team = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The team whose chat this is; empty for table talk.")
    created_at = models.DateTimeField(default=timezone.now)
    # Projection of the game's chat_hidden event: never set except with that event.
    hidden = models.BooleanField(default=False)
    hidden_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                  null=True, blank=True, related_name="chat_messages_hidden")
    hidden_seq = models.PositiveIntegerField(
        null=True, blank=True, help_text="The chat_hidden event's number in the game's log.")

    class Meta:
        ordering = ["game", "id"]
        indexes = [
            # The rate limit counts one author's recent messages in one game.
            models.Index(fields=["game", "user", "created_at"], name="chat_author_recent"),
        ]
        constraints = [
            models.CheckConstraint(condition=models.Q(team__isnull=True) | models.Q(team__lt=3),
                                   name="chat_team_in_range"),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} in {self.game_id} by {self.user_id}"


class Report(models.Model):
    """A player's complaint about a game or one of its chat messages, for the queue."""

    OPEN, CLOSED = "open", "closed"
    STATUSES = [(OPEN, "open"), (CLOSED, "closed")]

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                 related_name="reports_made")
    game = models.ForeignKey("games.Game", on_delete=models.PROTECT, related_name="reports")
    message = models.ForeignKey(ChatMessage, on_delete=models.PROTECT, null=True, blank=True,
                                related_name="reports")
    reason = models.TextField(max_length=1000)
    created_at = models.DateTimeField(default=timezone.now)
    status = models.CharField(max_length=10, choices=STATUSES, default=OPEN)
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                  null=True, blank=True, related_name="reports_closed")
    closed_at = models.DateTimeField(null=True, blank=True)
    note = models.TextField(blank=True, max_length=1000, help_text="The moderator's note.")

    class Meta:
        ordering = ["-id"]
        indexes = [
            # The queue reads only open reports.
            models.Index(fields=["created_at"], name="report_open",
                         condition=models.Q(status="open")),
            models.Index(fields=["closed_by", "closed_at"], name="report_closed_by"),
        ]

    def __str__(self) -> str:
        target = f"message #{self.message_id}" if self.message_id else f"game {self.game_id}"
        return f"report #{self.pk} on {target} ({self.status})"
