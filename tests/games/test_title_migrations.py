"""The data migrations that give games made before titles were kept as data their titles:
tournament games from the table they belong to, games against the computer from their
names, only where the game is what its name says."""

from __future__ import annotations

from importlib import import_module

import pytest
from django.apps import apps

from games.models import Game
from tests import people
from tests.games_in_states import open_game
from tests.tournaments.support import API, close_signup, create, tables

pytestmark = pytest.mark.django_db

computer_titles = import_module("games.migrations.0019_computer_game_titles")
tournament_titles = import_module("tournaments.migrations.0007_tournament_game_titles")


def test_games_against_the_computer_get_their_titles_from_their_names():
    alice, _bob = people.users("alice", "bob")
    made = {
        "now": open_game(alice, 4, "alice against the computer · World · easy, 2 × hard · no. 4",
                         bots=["hard", "easy", "hard"], map_id="world"),
        "before": open_game(alice, 2, "alice against the computer", bots=["normal"]),
        # Not hers: another's name, or no computer player seated.
        "bobs": open_game(alice, 2, "bob against the computer", bots=["easy"]),
        "people": open_game(alice, 2, "alice against the computer"),
        "other": open_game(alice, 2, "Moscow 1812", bots=["easy"]),
    }
    Game.objects.update(title={})

    computer_titles.fill_titles(apps, None)

    titles = {key: Game.objects.get(pk=game.pk).title for key, game in made.items()}
    assert titles == {
        "now": {"kind": "computer", "user": "alice", "map": "world", "map_name": "World",
                "levels": ["easy", "hard", "hard"], "number": 4},
        "before": {"kind": "computer", "user": "alice"},
        "bobs": {}, "people": {}, "other": {},
    }


def test_tournament_games_get_their_titles_from_their_tables():
    players = people.players(2)
    made = create(players[0], seats=2, advance=1, max_players=2)
    for player in players:
        people.api_client_for(player).post(f"{API}{made['id']}/join/")
    close_signup(made["id"])
    [table] = tables(made["id"], 1)
    given = table.game.title
    lookalike = open_game(players[0], 2, "Spring cup · round 1 · table 2")
    Game.objects.update(title={})

    tournament_titles.fill_titles(apps, None)

    assert Game.objects.get(pk=table.game_id).title == given == {
        "kind": "tournament", "tournament": made["id"], "tournament_name": "Spring cup",
        "round": 1, "table": 1}
    assert Game.objects.get(pk=lookalike.pk).title == {}
