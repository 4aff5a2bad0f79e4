"""Arranging private message tests: someone who has finished a game (people:
tests/people.py; games: tests/games_in_states.py)."""

from __future__ import annotations

from tests.games_in_states import finish, started_game
from tests.people import user


def finish_a_game(someone, opponent_name: str = "opponent"):
    """`someone` plays a two-player game that ends when the opponent resigns."""
    opponent = user(opponent_name)
    finish(started_game([someone, opponent], setup="random"), leave=[opponent])
    return someone
