"""Projections of finished games for ratings and player records; rebuilt from the logs by
`manage.py rebuild_ratings`, so nothing here is the only copy of anything."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.models import Game

# The pool of every game, beside one pool per table size (2 to 6 seats).
ALL_SIZES = 0


class GameResult(models.Model):
    """A finished game whose results are recorded: the worker's mark that it is done, and
    the order ratings were updated in."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True,
                                related_name="result")
    finished_at = models.DateTimeField()
    seats = models.PositiveSmallIntegerField()
    rated = models.BooleanField(help_text="Whether it moved ratings.")
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["finished_at", "game_id"]
        indexes = [models.Index(fields=["finished_at", "game"], name="result_order")]

    def __str__(self) -> str:
        return f"result of {self.game_id}"


class PlayerResult(models.Model):
    """One human player's finish in one finished game, with the rating it gave them."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="player_results")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="results")
    seat = models.PositiveSmallIntegerField()
    seats = models.PositiveSmallIntegerField(help_text="The table's size.")
    placement = models.PositiveSmallIntegerField(help_text="1 is the winner.")
    won = models.BooleanField()
    finished_at = models.DateTimeField()
    rated = models.BooleanField()
    mu = models.FloatField(null=True, blank=True, help_text="After this game, if rated.")
    sigma = models.FloatField(null=True, blank=True)
    rating = models.IntegerField(null=True, blank=True, help_text="Shown rating after it.")
    rating_before = models.IntegerField(null=True, blank=True)
    weight = models.FloatField(null=True, blank=True, help_text=(
        "The share of a full game's change it was given, if rated (less against an "
        "opponent met often lately: ratings.counting)."))
    # Why the game moved this player's rating not at all, or less than a full game
    # (ratings.finished WHY_*; empty: it moved it fully, or it was recorded before this).
    # A default in the database too: the previous release's workers, which know nothing
    # of it, may record games during a rolling upgrade.
    why = models.CharField(max_length=20, blank=True, default="", db_default="")
    # A newcomer's game: `rating` and `rating_before` are their provisional rating's, shown
    # with "?" (ratings.recording: it moves between newcomers; the leaderboard's does not).
    provisional = models.BooleanField(default=False, db_default=False)
    # The game's map, rules (their fingerprint, ratings.finished.rules_key) and privacy,
    # which never change once it is over: kept beside the result so a player's record groups
    # their results without reading every game's row (ratings.standings._record; 120 ms for a
    # player of 10,000 games, most of it the games' rules).
    map = models.CharField(max_length=64, default="", db_default="")  # noqa: A003
    rules_key = models.CharField(max_length=16, default="", db_default="")
    # Private unless said (a result the previous release records during an upgrade shows
    # to no outsider until `rebuild_ratings` writes it).
    private = models.BooleanField(default=True, db_default=True)
    # Dice luck in this game (ratings.luck).
    battles = models.PositiveIntegerField(default=0)
    lost = models.PositiveIntegerField(default=0)
    expected_lost = models.FloatField(default=0.0)
    taken = models.PositiveIntegerField(default=0)
    expected_taken = models.FloatField(default=0.0)

    class Meta:
        ordering = ["finished_at", "game_id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="result_once_per_player"),
        ]
        indexes = [models.Index(fields=["user", "finished_at"], name="result_by_player")]

    def __str__(self) -> str:
        return f"{self.user_id} placed {self.placement} in {self.game_id}"


class Rating(models.Model):
    """A player's current rating in one pool: every game, or games of one table size."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="ratings")
    pool = models.PositiveSmallIntegerField(default=ALL_SIZES,
                                            help_text="0: every game; else seats per game.")
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.IntegerField(help_text="The shown number: the ordinal, scaled.")
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    placements = models.PositiveIntegerField(default=0, help_text="Sum of places.")
    # The provisional rating of a player with fewer counted games than
    # CONQUEST_RATING_ESTABLISHED_GAMES: every rated game moves it fully, against newcomers
    # too; shown with "?" until they are established, never on the leaderboard.
    provisional_mu = models.FloatField(null=True, blank=True)
    provisional_sigma = models.FloatField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "pool"], name="rating_once_per_pool"),
        ]
        indexes = [models.Index(fields=["pool", "-rating"], name="rating_board")]

    def __str__(self) -> str:
        return f"{self.user_id} pool {self.pool}: {self.rating}"


class RatingVoid(models.Model):
    """A moderator's decision that a finished game never counts for ratings. Not a
    projection: every recording and every rebuild reads it, so the ratings are as if the
    game had never counted."""

    game = models.OneToOneField(Game, on_delete=models.PROTECT, primary_key=True,
                                related_name="rating_void")
    voided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                  related_name="ratings_voided")
    reason = models.TextField(max_length=500)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-game_id"]
        indexes = [models.Index(fields=["voided_by", "created_at"], name="void_by_moderator")]

    def __str__(self) -> str:
        return f"rating of {self.game_id} voided"


class GameAnalysis(models.Model):
    """A finished game's win chance turn by turn (bots.outlook), computed once by the analysis
    worker in small chunks (ratings.analysis) at a bounded cost; `done_at` is set with the
    turning points. The row is the lease: a chunk runs only for the task holding `token`."""

    QUEUED, RUNNING, DONE = "queued", "running", "done"
    STATES = [(QUEUED, "queued"), (RUNNING, "running"), (DONE, "done")]

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True,
                                related_name="analysis")
    playouts = models.PositiveIntegerField(
        help_text="Play-outs of the position that got fewest (its margin is the widest).")
    # [[chance of each side] for the position after 0, 1, ... turns], the last the result:
    # the positions played out as estimated, the turns between drawn between them.
    chances = models.JSONField(default=list)
    turning_points = models.JSONField(default=list)
    # Positions played out so far (in `sampled`'s order).
    turns_done = models.PositiveIntegerField(default=0, db_default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    done_at = models.DateTimeField(null=True, blank=True)
    state = models.CharField(max_length=8, choices=STATES, default=QUEUED, db_default=QUEUED)
    # The one task that may run the next chunk; a copy of an older message finds another.
    token = models.CharField(max_length=32, default="", db_default="", blank=True)
    # A queued chunk whose message was lost, or a running one whose worker died, is queued
    # again by the sweep after this (never while its task may still run).
    lease_until = models.DateTimeField(null=True, blank=True)
    cpu_seconds = models.FloatField(default=0, db_default=0)
    # The positions (turn indexes) to play out, in the order they are played out, and
    # [index, [chance of each side], play-outs] of each one done.
    sampled = models.JSONField(default=list, null=True, blank=True)
    estimates = models.JSONField(default=list, null=True, blank=True)
    # The charts' numbers, stored by the first chunk, so that a read never replays the log.
    series = models.JSONField(default=dict, null=True, blank=True)

    def __str__(self) -> str:
        return f"analysis of {self.game_id}"
