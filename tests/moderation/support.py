"""What the moderation tests read of a game, and the game they start (people:
tests/people.py; games: tests/games_in_states.py)."""

from __future__ import annotations

from functools import partial

from games.models import Event, Game
from tests import games_in_states

# By default dealt at random, so that it is at once in the first player's reinforce phase.
started_game = partial(games_in_states.started_game, name="Moderated game", setup="random")


def last_event(game: Game) -> Event:
    return Event.objects.filter(game=game).order_by("-seq").first()


def event_count(game: Game) -> int:
    return Event.objects.filter(game=game).count()


def page_messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []
