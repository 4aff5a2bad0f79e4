"""What a finished game did to its players' ratings, once the worker has recorded it: for
the game page's result and the end mail (which waits for it: notifications.ending)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ratings import counting, finished, recording
from ratings.models import GameResult, PlayerResult


def recorded(game_id: int) -> bool:
    """Whether the game's results are recorded (rated or not: every finished game is)."""
    return GameResult.objects.filter(game_id=game_id).exists()


def recorded_of(game_ids) -> set[int]:
    """Of these games, those whose results are recorded."""
    return set(GameResult.objects.filter(game_id__in=list(game_ids))
               .values_list("game_id", flat=True))


def changes(game_id: int) -> dict[int, dict] | None:
    """{user id: {rated, before, after, change, provisional, why}} for each human player of
    a recorded
    game (before, after and change None where it did not move their rating; why: the
    words of why it moved it not at all or less than a full game, or ""); None until it is
    recorded."""
    if not recorded(game_id):
        return None
    found = {}
    for row in PlayerResult.objects.filter(game_id=game_id):
        moved = row.rated and row.rating is not None and row.rating_before is not None
        found[row.user_id] = {
            "rated": moved, "before": row.rating_before if moved else None,
            "after": row.rating if moved else None,
            "change": row.rating - row.rating_before if moved else None,
            "provisional": moved and row.provisional,
            "why": why_words(row.why, moved)}
    return found


def written(rating, change: dict) -> str:
    """A rating as pages and mail write it: a newcomer's provisional one with "?"."""
    return f"{rating}?" if change.get("provisional") else str(rating)


def why_words(why: str, moved: bool) -> str:
    """Why a game moved a player's rating not at all (or, WHY_NEWCOMERS, less than a full
    game), in the reader's language; "" for a game that moved it fully."""
    if why == finished.WHY_PROVISIONAL:
        games = recording.established_at()
        return ngettext(
            "Your rating is provisional (?) until you have finished %(games)s rated game: "
            "it moves with every one, and the leaderboard shows what your games against "
            "established players gave you.",
            "Your rating is provisional (?) until you have finished %(games)s rated games: "
            "it moves with every one, and the leaderboard shows what your games against "
            "established players gave you.", games) % {"games": games}
    if why == finished.WHY_NEWCOMERS:
        games = recording.established_at()
        return ngettext(
            "Your opponents had not finished %(games)s rated game yet: a game counts fully "
            "against players who have.",
            "Your opponents had not finished %(games)s rated games yet: a game counts fully "
            "against players who have.", games) % {"games": games}
    if moved:
        return ""
    if why == finished.WHY_UNRATED:
        return _("This game was not rated: its creator chose so.")
    if why == finished.WHY_COMPUTERS:
        return _("This game was not rated: games with computer players are not rated unless "
                 "their creator chose so when creating them.")
    if why == finished.WHY_OWNER_BOT:
        return _("This game did not change anyone's rating: a bot account played at its "
                 "owner's table.")
    if why == finished.WHY_VOIDED:
        return _("This game did not change anyone's rating: a moderator voided it.")
    if why == finished.WHY_NOT_PLAYED:
        turns = counting.MIN_OWN_TURNS
        return ngettext(
            "This game did not change your rating: you did not play %(turns)s turn of your "
            "own in it (moves the clock or a computer player made for you do not count).",
            "This game did not change your rating: you did not play %(turns)s turns of your "
            "own in it (moves the clock or a computer player made for you do not count).",
            turns) % {"turns": turns}
    if why == finished.WHY_ONE_SIDE:
        turns = counting.MIN_OWN_TURNS
        return ngettext(
            "This game did not change your rating: no opponent played %(turns)s turn of "
            "their own in it.",
            "This game did not change your rating: no opponent played %(turns)s turns of "
            "their own in it.", turns) % {"turns": turns}
    return _("This game did not change your rating.")


def known_unrated(game) -> str:
    """Before its results are recorded: why a finished game will move no rating, as far
    as its row tells (not rated by its creator's choice, or computer players seated), in
    words; "" if it may move some."""
    if game.rated is False:
        return why_words(finished.WHY_UNRATED, False)
    if game.rated is None and game.seats.filter(bot__isnull=False).exists():
        return why_words(finished.WHY_COMPUTERS, False)
    return ""
