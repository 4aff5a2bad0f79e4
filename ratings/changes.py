"""What a finished game did to its players' ratings, once the worker has recorded it: for
the game page's result and the end mail (which waits for it: notifications.ending)."""

from __future__ import annotations

from ratings.models import GameResult, PlayerResult


def recorded(game_id: int) -> bool:
    """Whether the game's results are recorded (rated or not: every finished game is)."""
    return GameResult.objects.filter(game_id=game_id).exists()


def recorded_of(game_ids) -> set[int]:
    """Of these games, those whose results are recorded."""
    return set(GameResult.objects.filter(game_id__in=list(game_ids))
               .values_list("game_id", flat=True))


def changes(game_id: int) -> dict[int, dict] | None:
    """{user id: {rated, before, after, change}} for each human player of a recorded game
    (before, after and change None where it did not move their rating); None until it is
    recorded."""
    if not recorded(game_id):
        return None
    found = {}
    for row in PlayerResult.objects.filter(game_id=game_id):
        moved = row.rated and row.rating is not None and row.rating_before is not None
        found[row.user_id] = {
            "rated": moved, "before": row.rating_before if moved else None,
            "after": row.rating if moved else None,
            "change": row.rating - row.rating_before if moved else None}
    return found
