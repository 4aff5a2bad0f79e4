"""A moderator voids a finished game's rating: the decision is stored with its reason
(RatingVoid), and the ratings are rebuilt from the logs so that they are as if the game had
never counted; every later recording and rebuild reads the decision again. check_* checks,
void_rating writes."""

from __future__ import annotations

from django.db import transaction

from games.errors import ServiceError
from games.models import Game
from games.moderation import check_moderator, check_not_playing
from ratings import recording
from ratings.models import RatingVoid

MAX_REASON = 500


def check_reason(reason) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise ServiceError(400, "bad_request", "give the reason for voiding the rating")
    if len(reason.strip()) > MAX_REASON:
        raise ServiceError(400, "bad_request",
                           f"the reason must be at most {MAX_REASON} characters")
    return reason.strip()


def check_void(game: Game, moderator, reason) -> str:
    """The reason, cleaned, if `moderator` may void `game`'s rating; else ServiceError."""
    check_moderator(moderator)
    text = check_reason(reason)
    if game.status != Game.FINISHED:
        raise ServiceError(400, "game_not_finished", "only a finished game's rating can be "
                           "voided")
    # A moderator who played could void their own loss: another moderator decides.
    check_not_playing(game.pk, moderator)
    return text


def void_rating(game: Game, moderator, reason) -> RatingVoid:
    """Void `game`'s rating for good and rebuild every rating without it."""
    text = check_void(game, moderator, reason)
    with transaction.atomic():
        recording.serialise()
        if RatingVoid.objects.filter(game=game).exists():
            raise ServiceError(400, "already_voided", "this game's rating is already void")
        voided = RatingVoid.objects.create(game=game, voided_by=moderator, reason=text)
        # Every game after it may have moved differently: everything again, in order, as
        # rebuild_ratings does (voids are rare; a partial rebuild would need each pool's
        # ratings as they stood before the game, which nothing keeps).
        recording.rebuild_locked()
    return voided


def history(username: str, limit: int = 200) -> list[RatingVoid]:
    """The ratings a moderator voided, newest first (the moderation audit lists them)."""
    return list(RatingVoid.objects.filter(voided_by__username=username)
                .select_related("game").order_by("-created_at", "-game_id")[:limit])
