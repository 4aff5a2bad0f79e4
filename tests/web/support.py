"""Games for the web page tests, arranged through lobby.open_games and games.service and the
rules' bot, then played through the pages' forms (people: tests/people.py)."""

from __future__ import annotations

from functools import partial

from django.test import Client

from games.models import Event, Game
from tests import games_in_states

# A fixed secret seed, so that the dice, and the tests, repeat.
SEED = "5e" * 32

started_game = partial(games_in_states.started_game, name="Web test", seed=SEED)


def events(game: Game) -> int:
    return Event.objects.filter(game=game).count()


def post_play(client: Client, game: Game, fields: dict, version=None, **extra):
    game.refresh_from_db()
    data = {"version": str(game.version if version is None else version), **fields}
    return client.post(f"/games/{game.pk}/play/", data, **extra)


def whole_log(client: Client, game: Game) -> str:
    """Every page of the game's log (web/page/log_page.py) as `client` reads it, joined:
    the page shows a page of events at a time."""
    from web.page.log_page import PAGE

    game.refresh_from_db()
    return "".join(client.get(f"/games/{game.pk}/?log={end}").content.decode()
                   for end in range(PAGE, game.version + PAGE, PAGE))
