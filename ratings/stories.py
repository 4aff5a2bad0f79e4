"""A game's story (engine.story: each seat's territories, armies and income per turn, the
turns' deeds) as a projection kept in the cache: read from the log once, then carried on
with the moves that follow, so that a running game's charts (its page, the analysis API of
a game played in the open) cost the moves since the last read, not the log's length, and a
finished game's whole story is read once. Whoever calls it decides who may see the story:
it is the whole game's (a fogged game's is for its end)."""

from __future__ import annotations

from django.core.cache import cache

from engine.story import Story, StoryReader
from games.models import Game
from games.store import log

# A story replayed up to a move is kept this long (polls ask again); a finished game's
# whole story as long as its page's other parts; what reading a game's log left, to carry
# its story on with the moves that follow, a day.
KEPT_SECONDS, FINISHED_KEPT_SECONDS, READER_KEPT_SECONDS = 300, 7 * 86_400, 86_400


def story_until(game: Game, upto: int | None) -> Story:
    """The story of the game's log up to move `upto` (None: all of it), kept for a while
    (its turns without their rolls: the luck is stored)."""
    upto = game.version if upto is None else min(upto, game.version)
    key = f"story:{game.pk}:{game.seed_hash[:16]}:{upto}"
    found = cache.get(key)
    if found is None:
        found = _read_until(game, upto)
        # a finished game's whole story never changes
        whole = game.status == Game.FINISHED and upto == game.version
        cache.set(key, found, FINISHED_KEPT_SECONDS if whole else KEPT_SECONDS)
    return found


def _read_until(game: Game, upto: int) -> Story:
    """The story up to move `upto`, carried on from the furthest reader kept in the cache
    that has read no further: the game's newest (a running game's page reads the moves
    since the last view, not the log again) or the one a page of its past left (the
    history view stepping forward); else read from the start. The reader is kept in the
    place it came from, or as the past one when the newest is ahead of it."""
    newest, past = (f"story-reader:{game.pk}:{game.seed_hash[:16]}:{which}"
                    for which in ("newest", "past"))
    kept = cache.get_many([newest, past])
    usable = [reader for reader in kept.values() if reader.version <= upto]
    reader = max(usable, key=lambda found: found.version, default=None) or StoryReader()
    reader.read(log.stored_events(game, reader.version, upto))
    found = reader.story_now()
    for turn in found.turns:  # the rolls are never read from here (the luck is stored)
        turn.battles = []
    ahead = kept.get(newest)
    cache.set(newest if ahead is None or ahead.version <= upto else past, reader,
              READER_KEPT_SECONDS)
    return found

