"""A finished game's parts of its page (how it ended, each seat's summary, the proof that
its dice were fair, the places its result box ranks) worked out once from the whole log and
kept in the cache by the game's version, which never changes after the end: every later
view, anyone's, reads them back instead of reading and checking the log again. Nothing of a
finished game is hidden, so one copy serves every viewer (who may see the game at all is
decided before: a private game stays 404 to strangers)."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.cache import cache
from django.utils import translation
from django.utils.translation import get_language

from games import seat_views
from games.models import Game
from games.store.row import rules_of
from games.store.seats import Seats
from games.store.states import load_state
from ratings import headlines
from ratings.stories import FINISHED_KEPT_SECONDS

from .history import end_summary, outcome, verification

# Read again after this long (or after the cache lost it): the same as a finished game's story.
KEPT_SECONDS = FINISHED_KEPT_SECONDS


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
        found = _in_words(_read_whole(game, seats), names)
        cache.set(key, found, KEPT_SECONDS)
    return found


def draw_parts(game: Game, seats: Seats) -> None:
    """Work out a finished game's parts once for every language the site speaks and keep
    them: the log is read and its dice checked once, the words drawn in each language."""
    names = seats.usernames()
    whole = _read_whole(game, seats)
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            cache.set(version_key("finished-page", game, names), _in_words(whole, names),
                      KEPT_SECONDS)


def _read_whole(game: Game, seats: Seats) -> dict:
    """What the parts say in any language: the whole log (nothing is hidden any more), the
    end's view, the dice checked draw by draw, the places."""
    record = seat_views.record(game, seats, None)
    events = record["events"]
    return {"events": events, "end": seat_views.game_view(game, seats, load_state(game), None),
            "proof": verification(record, game.seed_hash),
            "places": headlines.places_of(events, game.players,
                                          rules_of(game).team_size)}


def _in_words(whole: dict, names: dict[int, str]) -> dict:
    events = whole["events"]
    return {"outcome": outcome(events, names),
            "summary": end_summary(whole["end"], events, names),
            "proof": whole["proof"], "places": whole["places"]}
