"""The game page's log a page at a time: the events of one page read, redacted for the
viewer's seat and told in words, never the whole log, so a page costs the same in a game of
a hundred events as in one of fifty thousand. A page told once is kept in the cache per
game version, language and what the viewer may see (a seat's own, or everyone's once the
game is over), so spectators share theirs and a seat's is never shown to anyone else."""

from __future__ import annotations

from django.core.cache import cache
from django.utils.translation import get_language

from games import seat_views
from games.models import Game
from games.store.row import rules_of
from games.store.states import load_state
from lib.inputs import whole_number
from words.narrator import OwnerTracker

from .. import game_log

PAGE = 60  # events on a page of the log
# A page of a game not over is kept this long (its key names the game's version, so a move
# never shows an old page: this only bounds what the cache holds); a finished game's longer.
KEPT_SECONDS, KEPT_OVER_SECONDS = 600, 86_400


def page_end(asked: str | None, last: int) -> int:
    """The event a page of the log ends at: the one asked for (?log=N), else the last one
    the board shows (`last`); never past it."""
    return whole_number(asked or "", 1, last) or last


def _sight(game: Game, seat: int | None) -> str:
    """Whose page this is: once the game is over everyone reads the same log."""
    if game.is_over:
        return "all"
    return "spectator" if seat is None else f"seat{seat}"


def entries(game: Game, seat: int | None, board, end: int) -> list[dict]:
    """The entries (web.game_log) of the page of the log ending at event `end`, oldest
    first, as `seat` may see them."""
    first = max(1, end - PAGE + 1)
    key = (f"log-page:{game.pk}:{game.seed_hash[:16]}:{game.version}:{_sight(game, seat)}:"
           f"{get_language()}:{first}:{end}")
    found = cache.get(key)
    if found is None:
        found = game_log.log_entries(seat_views.event_dicts(game, seat, first - 1, end), board,
                                     owners=_owners_before(game, first, board))
        cache.set(key, found, KEPT_OVER_SECONDS if game.is_over else KEPT_SECONDS)
    return found


def _owners_before(game: Game, first: int, board) -> OwnerTracker:
    """Who held each territory before event `first`, to name a battle's defender as the
    whole log read in order would: from the state then (a snapshot and a few events). Under
    fog before the end the narrator is told nothing: only the viewer's sight may."""
    owners = OwnerTracker(board)
    if first > 1 and (game.is_over or not rules_of(game).fog):
        before = load_state(game, first - 1)
        if before is not None:
            owners.owner.update(before.owner)
    return owners


def log_context(game: Game, seat: int | None, board, last: int, asked: str | None,
                recent: list[dict]) -> dict:
    """What the page's log part shows (`last`: the event the board shows, `recent`: the
    entries of the page ending there; `asked`: the ?log= the address carries): the page's
    entries, newest first, and where the links to the newer and older pages lead (None
    where there is none)."""
    end = page_end(asked, last)
    shown = recent if end == last else entries(game, seat, board, end)
    first = max(1, end - PAGE + 1)
    return {
        "log": list(reversed(shown)), "log_total": last,
        "log_pages": {
            "first": first, "end": end,
            "older": first - 1 if first > 1 else None,
            "oldest": PAGE if first - 1 > PAGE else None,
            "newer": end + PAGE if end + PAGE < last else None,
            "newest": end < last,
        },
    }
