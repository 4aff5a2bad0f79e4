"""The event store's tables: games (a projection for listing), seats, events, snapshots."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models

from engine import seed_hash
from engine.fair import ENTROPY_MAX_LENGTH, game_seed


def new_seed() -> str:
    return secrets.token_hex(32)


class Game(models.Model):
    """A game's settings and secret seed, and a projection of its log for lists and sweeps.

    Only `status` open/paused/aborted and the settings are the truth here; phase, turn,
    current seat, version and winner are copied from the replayed state on every append.
    """

    OPEN, ACTIVE, PAUSED, FINISHED, ABORTED = "open", "active", "paused", "finished", "aborted"
    STATUSES = [(s, s) for s in (OPEN, ACTIVE, PAUSED, FINISHED, ABORTED)]
    NOT_OVER = (OPEN, ACTIVE, PAUSED)  # the partial index game_unfinished holds these

    name = models.CharField(max_length=100)
    # What the service made the game as, as data (words.titles): a tournament's table or a
    # game against the computer, worded in each reader's language, `name` holding it in
    # English. {}: a game its creator named, shown by its name as given.
    title = models.JSONField(default=dict, db_default={}, blank=True, editable=False)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_games"
    )
    players = models.PositiveSmallIntegerField(help_text="Seats wanted (2-6).")
    rules = models.JSONField(help_text="Every rule option, defaults filled in.")
    # The map the game plays (engine.maps); the exact version is game_started's
    # map_hash, fixed when the game starts.
    map = models.CharField(max_length=64, default="classic", db_default="classic")
    deadline_seconds = models.PositiveIntegerField(default=86400)
    # The server's seed, committed by seed_hash at creation. The draws are keyed by it mixed
    # with the players' entropy (rules.fair.game_seed), fixed when the game starts.
    seed = models.CharField(max_length=64, default=new_seed, editable=False)
    seed_hash = models.CharField(max_length=64, editable=False)
    # When seed_hash was committed if that was before the game was made: a seed drawn ahead
    # for its creator (lobby.seeds), or a rematch's drawn with the offer. Null: at creation.
    seed_committed_at = models.DateTimeField(null=True, blank=True, editable=False)
    contributions = models.JSONField(
        null=True, blank=True, editable=False,
        help_text="The players' entropy in seat order, fixed at the start (none: null).")
    status = models.CharField(max_length=10, choices=STATUSES, default=OPEN, db_index=True)
    version = models.PositiveIntegerField(default=0)
    phase = models.CharField(max_length=20, null=True, blank=True)
    turn = models.PositiveIntegerField(default=0)
    current_seat = models.SmallIntegerField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    winner = models.SmallIntegerField(null=True, blank=True)
    # The clock may rest at night and on weekends, in the game's own time zone.
    clock_time_zone = models.CharField(max_length=64, default="UTC")
    quiet_from = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Hour (0-23) the clock stops each night."
    )
    quiet_until = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Hour (0-23) the clock runs again."
    )
    pause_weekends = models.BooleanField(default=False)
    # Whether the game moves its human players' ratings (docs/players/ratings.md):
    # null is the default, rated unless computer players are seated; true or false is the
    # creator's choice.
    rated = models.BooleanField(null=True, blank=True)
    # A private game is listed nowhere and shown only to its seats, the players invited to
    # it by name and whoever holds its invitation link (lobby.invitations). The link's
    # token is a secret like a password, never shown but to the game's creator.
    private = models.BooleanField(default=False, db_default=False)
    invite_token = models.CharField(max_length=64, null=True, blank=True,
                                    editable=False)
    # Whether bot accounts (docs/bots/contract.md "Bot accounts") may join it by themselves; the
    # creator may seat one, and invite one, either way.
    bots_allowed = models.BooleanField(default=False, db_default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        permissions = [("moderate_game", "Can pause, end turns, replace and drop players")]
        indexes = [
            # The deadline sweep reads only running games whose clock has run out.
            models.Index(
                fields=["deadline"], name="game_active_deadline",
                condition=models.Q(status="active"),
            ),
            # The lobby's games under way, newest first: without it PostgreSQL sorted every
            # running game for the 50 it lists (100 ms among 100,000).
            models.Index(
                fields=["-started_at", "-id"], name="game_running_newest",
                condition=models.Q(status__in=["active", "paused"], private=False),
            ),
            # A player's games not over yet, among their seats: a player of 10,000 finished
            # games has each seat's game looked up here, not in the whole table (23 -> 11 ms).
            models.Index(
                fields=["id"], name="game_unfinished",
                condition=models.Q(status__in=["open", "active", "paused"]),
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.name}"

    def save(self, *args, **kwargs):
        if not self.seed_hash:
            self.seed_hash = seed_hash(self.seed)
        super().save(*args, **kwargs)

    @property
    def game_id(self) -> str:
        """The id the fair dice stream is keyed with: the id as the API shows it."""
        return str(self.pk)

    @property
    def dice_seed(self) -> str:
        """The key of the game's draws (docs/players/fair-dice.md "The draws": its `seed`)."""
        return game_seed(self.seed, self.contributions)

    @property
    def is_over(self) -> bool:
        return self.status in (self.FINISHED, self.ABORTED)


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats")
    # A computer player's seat: its level (bots.LEVELS); `user` is then one of the inactive
    # bot accounts (games.computer.bot_user), which can never sign in or get mail.
    bot = models.CharField(max_length=10, null=True, blank=True,
                           choices=[(level, level) for level in ("easy", "normal", "hard")])
    # What the player sent to mix into the game's seed when taking the seat (docs/bots/contract.md
    # "Fair dice"); it leaves with the seat, and goes into the seed when the game starts.
    entropy = models.CharField(max_length=ENTROPY_MAX_LENGTH, null=True, blank=True,
                               editable=False)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="seat_once_per_game"),
            models.UniqueConstraint(fields=["game", "user"], name="user_once_per_game"),
        ]
        # A player's seats newest game first: their games not over are found by walking
        # these beside the partial index of such games (Game.Meta), where PostgreSQL walked
        # every seat of the site by game looking for theirs (28 ms to 3 ms).
        indexes = [models.Index(fields=["user", "game"], name="seat_by_user")]

    def __str__(self) -> str:
        return f"{self.game} seat {self.seat}: {self.user}"


class Invitation(models.Model):
    """A player invited by name to a game that has not started: they may see and join it
    even if it is private. The creator withdraws it, the invitee declines it; joining
    accepts it. One per game and player."""

    PENDING, ACCEPTED, DECLINED, WITHDRAWN = "pending", "accepted", "declined", "withdrawn"
    STATUSES = [(s, s) for s in (PENDING, ACCEPTED, DECLINED, WITHDRAWN)]

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="invitations")
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                   related_name="invitations_sent")
    status = models.CharField(max_length=10, choices=STATUSES, default=PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    # False: a reaction withheld it (the invitee blocks the inviter). It stays pending to
    # the inviter, as one never answered; the invitee never hears of it.
    delivered = models.BooleanField(default=True, db_default=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="invitation_once_per_game"),
        ]
        indexes = [models.Index(fields=["user", "status"], name="invitation_user_status")]

    def __str__(self) -> str:
        return f"{self.user} to {self.game} ({self.status})"


class AppendOnlyQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise PermissionError("events are append-only")

    def delete(self):
        raise PermissionError("events are append-only")


class Event(models.Model):
    """One thing that happened in a game. Never updated or deleted (database triggers
    refuse it too); (game, seq) is unique, which is the whole concurrency story."""

    # No index of its own: the (game, seq) and (game, type) indexes lead with the game.
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events",
                             db_index=False)
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=40)
    data = models.JSONField()
    actor = models.SmallIntegerField(null=True, blank=True, help_text="Seat, or empty: system")
    user_id = models.IntegerField(null=True, blank=True, help_text="Who sent the command")
    schema_version = models.PositiveSmallIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="event_seq_once_per_game"),
        ]
        indexes = [models.Index(fields=["game", "type"], name="event_game_type")]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq} {self.type}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise PermissionError("events are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise PermissionError("events are append-only")


class Snapshot(models.Model):
    """The replayed state after event `seq`: disposable, only ever a shortcut."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="snapshots")
    seq = models.PositiveIntegerField()
    state = models.JSONField()
    engine_version = models.PositiveSmallIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "-seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="snapshot_once_per_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}@{self.seq}"


class Rematch(models.Model):
    """An offer to play a finished game again: the same people in the same seats (computer
    players by computer players of their level), the same rules, a new seed. The new game
    is made and started when every human seat has accepted (lobby.rematch); one refusal
    ends the offer."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="rematch")
    offered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                   related_name="+")
    # The new game's server seed, drawn with the offer (or ahead of it for the player
    # offering, lobby.seeds: then committed at seed_committed_at) and published by
    # seed_hash before any player accepts with entropy. Offers made before it was kept here
    # have none: their game draws one when it is made.
    seed = models.CharField(max_length=64, null=True, blank=True, editable=False)
    seed_committed_at = models.DateTimeField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    declined_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                    null=True, blank=True, related_name="+")
    declined_at = models.DateTimeField(null=True, blank=True)
    new_game = models.OneToOneField(Game, on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="rematch_of")

    OPEN, STARTED, DECLINED = "open", "started", "declined"

    def __str__(self) -> str:
        return f"rematch of {self.game_id}: {self.status}"

    @property
    def seed_hash(self) -> str | None:
        return seed_hash(self.seed) if self.seed else None

    @property
    def status(self) -> str:
        if self.new_game_id is not None:
            return self.STARTED
        return self.DECLINED if self.declined_by_id is not None else self.OPEN


class RematchAnswer(models.Model):
    """A human seat's yes to a rematch, with the entropy the player sends for its seed."""

    rematch = models.ForeignKey(Rematch, on_delete=models.CASCADE, related_name="answers")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                             related_name="+")
    seat = models.PositiveSmallIntegerField()
    entropy = models.CharField(max_length=ENTROPY_MAX_LENGTH, null=True, blank=True,
                               editable=False)
    accepted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["rematch", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["rematch", "user"], name="rematch_answer_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} accepts {self.rematch}"


class SeedAhead(models.Model):
    """The server seed of the next game a player creates or rematch they offer, drawn and
    published (its hash) before they send any entropy with it (lobby.seeds): one at a
    time, until a game takes it."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                primary_key=True, related_name="+")
    seed = models.CharField(max_length=64, default=new_seed, editable=False)
    committed_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"next seed of {self.user_id}"

    @property
    def seed_hash(self) -> str:
        return seed_hash(self.seed)


class ImportedMap(models.Model):
    """A community map imported with `manage.py import_map` (games.boards): its current
    version, and whether new games may be created on it. Every version ever imported is a
    MapVersion row, found by its hash for as long as the map is kept."""

    id = models.CharField(primary_key=True, max_length=48)  # a slug; never a shipped map's
    name = models.CharField(max_length=100)
    data = models.JSONField(help_text="The current version's map file (format 1).")
    hash = models.CharField(max_length=64, help_text="The current version's content hash.")
    source_format = models.CharField(max_length=20)  # domination or conquest
    enabled = models.BooleanField(default=True, help_text="New games may be created on it.")
    imported_at = models.DateTimeField(help_text="When the current version was imported.")
    imported_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                    on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.id})"


class MapVersion(models.Model):
    """One version of an imported map, by its content hash: a game that started on it
    replays on it. Deleted only with its map, and a map a game uses is never deleted."""

    hash = models.CharField(primary_key=True, max_length=64)
    map = models.ForeignKey(ImportedMap, on_delete=models.CASCADE, related_name="versions")
    data = models.JSONField()
    imported_at = models.DateTimeField()

    class Meta:
        ordering = ["map", "imported_at"]

    def __str__(self) -> str:
        return f"{self.map_id} {self.hash[:12]}"
