"""A finished game's parts of its page (how it ended, each seat's summary, the proof that
its dice were fair, the places its result box ranks) worked out once from the whole log and
kept in the cache by the game's version, which never changes after the end: every later
view, anyone's, reads them back instead of reading and checking the log again. Nothing of a
finished game is hidden, so one copy serves every viewer (who may see the game at all is
decided before: a private game stays 404 to strangers)."""

from __future__ import annotations

import hashlib

from django.core.cache import cache
from django.utils.translation import get_language

from games import seat_views, seating
from games.models import Game
from games.seating import Seats
from games.states import load_state
from ratings import headlines

from .history import end_summary, outcome, verification

KEPT_SECONDS = 7 * 86_400  # read again after that (or after the cache lost it): the same


def version_key(kind: str, game: Game, names: dict[int, str], *more) -> str:
    """A cache key of a finished game's part: the game as of its version (its seed hash
    too: an id can come back on SQLite), the language, the seats' names as shown."""
    shown = hashlib.sha256(repr(sorted(names.items())).encode()).hexdigest()[:16]
    return ":".join(str(part) for part in (kind, game.pk, game.seed_hash[:16], game.version,
                                           get_language(), shown, *more))


def finished_parts(game: Game, seats: Seats, names: dict[int, str]) -> dict | None:
    """{outcome, summary, proof, places} of a finished game (None for any other), read
    from the cache or worked out once and kept there."""
    if game.status != Game.FINISHED:
        return None
    key = version_key("finished-page", game, names)
    found = cache.get(key)
    if found is None:
        found = _work_out(game, seats, names)
        cache.set(key, found, KEPT_SECONDS)
    return found


def _work_out(game: Game, seats: Seats, names: dict[int, str]) -> dict:
    record = seat_views.record(game, seats, None)  # the whole log, nothing hidden any more
    events = record["events"]
    end = seat_views.game_view(game, seats, load_state(game), None)
    return {
        "outcome": outcome(events, names),
        "summary": end_summary(end, events, names),
        "proof": verification(record, game.seed_hash),
        "places": headlines.places_of(events, game.players, seating.rules_of(game).team_size),
    }
