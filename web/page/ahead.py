"""A finished game's page drawn ahead, off the page's path: the analysis worker (the
`analysis` queue, never the clock's) works out the parts the page keeps of a finished game
(web.page.finished) in every language and reads its story once, as the game ends, so that
even its first view reads them back (a 50,000-event game's first view cost its web process
some 3 CPU-s)."""

from __future__ import annotations

from games.models import Game
from games.store.seats import read_seats

from .finished import draw_parts
from .story import story_until


def draw_finished_game(game_id: int) -> bool:
    """Draw game `game_id`'s finished parts and read its whole story into the cache (what
    every view of it shares); False if it is not a finished game."""
    game = Game.objects.filter(pk=game_id, status=Game.FINISHED).first()
    if game is None:
        return False
    draw_parts(game, read_seats(game))
    story_until(game, None)
    return True
