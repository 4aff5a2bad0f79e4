"""The mail outbox, vacations and inbound mail (a player's preferences are accounts')."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Notification(models.Model):
    """One mail to one user, written in the same transaction as the events that cause it.

    `key` makes it unique per cause and recipient, so re-running a hook or a sweep never
    writes a second row. Delivery claims a row with a conditional update and stamps
    `sent_at`; a periodic sweep re-sends rows the fast path missed.
    """

    TURN, REMINDER, STARTED, ELIMINATED, FINISHED = (
        "turn", "reminder", "started", "eliminated", "finished")
    TIMED_OUT, DROPPED, REPLY, DIGEST = "timed_out", "dropped", "reply", "digest"
    REPLACED, MODERATED = "replaced", "moderated"
    # A tournament's news (payload["what"]: round, bye, out, finished, cancelled).
    TOURNAMENT = "tournament"
    # To payload["email"], the address to confirm (accounts.email), whatever else is set.
    CONFIRM_EMAIL = "confirm_email"
    # "@username" in a chat line the user reads: shown on the site only, never mailed.
    MENTION = "mention"
    # A rematch of a finished game (payload["what"]: offered, declined; payload["by"]).
    REMATCH = "rematch"
    # A private message (conversations): payload["sender"] only, never the text.
    MESSAGE = "message"
    # An invitation to a game by name (payload: invitation id, who invited).
    INVITATION = "invitation"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, null=True, blank=True,
        related_name="notifications",
    )
    # One of notifications.kinds.KINDS, where each is declared: no choices here, so a new
    # kind needs no migration (tests/notifications/test_kinds.py holds the two in step).
    kind = models.CharField(max_length=20)
    key = models.CharField(max_length=200, help_text="What caused it; unique per user.")
    event_seq = models.PositiveIntegerField(null=True, blank=True)
    payload = models.JSONField(default=dict, blank=True)
    digest = models.BooleanField(
        default=False, help_text="Waits for the recipient's daily digest."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    claimed_by = models.CharField(max_length=100, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    sent_at = models.DateTimeField(null=True, blank=True)
    skipped = models.BooleanField(
        default=False, help_text="Not mailed: the recipient asked for no such mail."
    )
    last_error = models.TextField(blank=True)
    message_id = models.CharField(max_length=200, blank=True)
    # The site's notification list (notifications.notices): when the user read it there.
    read_at = models.DateTimeField(null=True, blank=True)
    maybe_sent = models.BooleanField(
        # Set right before the mail goes to the SMTP server (notifications.delivery
        # begin_send), cleared when it is stamped sent or the server refused it: a row
        # taken over with it set is settled "sent or unknown", never sent again.
        # A default in the database too: the previous release's processes, which know
        # nothing of it, go on writing rows during a rolling upgrade.
        default=False, db_default=False,
        help_text="Sent or unknown: a worker died holding it, perhaps after the mail server "
                  "had accepted it, and it was not sent again since.",
    )

    # Web push (notifications.push): set when a push worker took the row (at most once per
    # browser); a push that failed for every browser takes it off again for a retry.
    pushed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="notification_once_per_cause"),
        ]
        indexes = [
            models.Index(
                fields=["created_at"], name="notification_unsent",
                condition=models.Q(sent_at__isnull=True),
            ),
            # The unread count in every page's header.
            models.Index(fields=["user", "kind"], name="notification_unread",
                         condition=models.Q(read_at__isnull=True)),
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.user} ({self.key})"


class Vacation(models.Model):
    """A declared vacation: the player's deadlines stretch instead of counting misses."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    starts = models.DateTimeField()
    ends = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts"]
        indexes = [models.Index(fields=["user", "ends"], name="vacation_user_ends")]

    def __str__(self) -> str:
        return f"{self.user} away {self.starts:%Y-%m-%d} to {self.ends:%Y-%m-%d}"

    @property
    def days(self) -> float:
        return (self.ends - self.starts).total_seconds() / 86400


class InboundMail(models.Model):
    """Every mail received for moves, applied or refused. A second delivery of the same
    Message-ID to the same seat is a no-op: `once_key` (game, seat, Message-ID) is set only
    after the signature and the sender check out, so nobody else can burn a player's
    Message-ID, and a mail without one is never taken for a copy."""

    APPLIED, FAILED, REFUSED, DUPLICATE = "applied", "failed", "refused", "duplicate"

    message_id = models.CharField(max_length=300, blank=True)
    once_key = models.CharField(max_length=400, unique=True, null=True, blank=True)
    sender = models.CharField(max_length=300)
    recipient = models.CharField(max_length=300)
    received_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=10)
    detail = models.TextField(blank=True)
    game = models.ForeignKey("games.Game", on_delete=models.SET_NULL, null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"{self.status}: {self.message_id}"


class Presence(models.Model):
    """A signed-in user had a game's page open at `seen_at` (its live poll refreshes it):
    their "your move" mail waits while they are there (notifications.presence)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    seen_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="presence_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user} on game {self.game_id} at {self.seen_at:%H:%M:%S}"


class OnSite(models.Model):
    """A signed-in user's browser last asked the site for something (any page, a form, a
    poll) at `seen_at`: their "your move" mail waits while they are about
    (notifications.presence)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                primary_key=True, related_name="+")
    seen_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.user} on the site at {self.seen_at:%H:%M:%S}"


class PushSubscription(models.Model):
    """One browser of a user that asked for web push (the Push API's subscription): where
    to POST (`endpoint`, the browser vendor's push service) and the keys to encrypt for it.
    Deleted when the player turns it off there, or the push service answers 404/410."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    # The browser's P-256 public key and auth secret (base64url, RFC 8291).
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    user_agent = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_pushed_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"push to {self.user} ({self.user_agent[:40] or self.endpoint[:40]})"
