"""A tournament, its entries and its tables (each table one ordinary game)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from engine import seed_hash
from games.models import Game, new_seed


class Tournament(models.Model):
    """Settings, sign-up window and progress. The draw of every round reads the fair stream
    of docs/players/fair-dice.md keyed by `seed` (published as `seed_hash`, revealed at the end)."""

    SIGNUP, RUNNING, FINISHED, CANCELLED = "signup", "running", "finished", "cancelled"
    # A step (a round's draw or count) failed: nothing runs until a moderator tries again
    # or calls it off; `reason` says what failed.
    STALLED = "stalled"
    STATUSES = [(SIGNUP, _("sign-up open")), (RUNNING, _("under way")),
                (STALLED, _("held up")), (FINISHED, _("finished")),
                (CANCELLED, _("cancelled"))]
    KNOCKOUT, ROUND_ROBIN = "knockout", "round_robin"
    FORMATS = [(KNOCKOUT, _("knockout")), (ROUND_ROBIN, _("round robin in groups"))]

    name = models.CharField(max_length=100)
    creator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                related_name="created_tournaments")
    format = models.CharField(max_length=12, choices=FORMATS, default=KNOCKOUT)
    seats = models.PositiveSmallIntegerField(help_text="Seats per game (2-6).")
    advance = models.PositiveSmallIntegerField(
        default=1, help_text="Knockout: the best this many of each game go through.")
    rounds = models.PositiveSmallIntegerField(
        default=3, help_text="Round robin: games each group plays.")
    rules = models.JSONField(help_text="Every game's rule options, defaults filled in.")
    # Every game's map (games.boards); each game records the version it started on.
    map = models.CharField(max_length=64, default="classic", db_default="classic",
                           help_text="The map every game is played on.")
    deadline_seconds = models.PositiveIntegerField(default=86400)
    clock = models.JSONField(default=dict, blank=True,
                             help_text="Every game's clock: {time_zone, quiet_from, "
                                       "quiet_until, weekends}, as games take it.")
    signup_opens = models.DateTimeField()
    signup_closes = models.DateTimeField()
    max_players = models.PositiveSmallIntegerField()
    # Whether bot accounts (docs/bots/contract.md "Bot accounts") may sign up; others refuse them.
    bots_allowed = models.BooleanField(default=False, db_default=False)
    seed = models.CharField(max_length=64, default=new_seed, editable=False)
    seed_hash = models.CharField(max_length=64, editable=False)
    status = models.CharField(max_length=10, choices=STATUSES, default=SIGNUP, db_index=True)
    round = models.PositiveSmallIntegerField(default=0, help_text="The round being played.")
    winner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True,
                               blank=True, related_name="tournaments_won")
    reason = models.TextField(blank=True, default="",
                              help_text="Why it is held up (the failed step) or called off.")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [
            # The beat sweep reads only tournaments whose sign-up is due to close.
            models.Index(fields=["signup_closes"], name="tournament_signup_due",
                         condition=models.Q(status="signup")),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.name}"

    def save(self, *args, **kwargs):
        if not self.seed_hash:
            self.seed_hash = seed_hash(self.seed)
        super().save(*args, **kwargs)

    @property
    def draw_id(self) -> str:
        """What the fair stream is keyed with besides the seed: "tournament-{id}"."""
        return f"tournament-{self.pk}"

    @property
    def is_over(self) -> bool:
        return self.status in (self.FINISHED, self.CANCELLED)


class Entry(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                             related_name="tournament_entries")
    joined_at = models.DateTimeField(auto_now_add=True)
    out_in_round = models.PositiveSmallIntegerField(null=True, blank=True)
    group = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Round robin.")
    draw_order = models.PositiveSmallIntegerField(null=True, blank=True,
                                                  help_text="Place in the first draw.")
    points = models.PositiveIntegerField(default=0)
    # The rounds this entrant sat out (a bye: a 2-seat format with an odd count).
    byes = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["tournament", "draw_order", "joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="entry_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament}"


class Table(models.Model):
    """One game of one round."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tables")
    round = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField()
    group = models.PositiveSmallIntegerField(null=True, blank=True)
    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="table")
    # [{user_id, username, place, through}] once the game is over and the round counted.
    result = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "round", "number"],
                                    name="table_once_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.round} table {self.number}"
