"""A tournament's table is titled from its tournament, round and number, kept as data and
read in each reader's language; a game a player names like a table is not one, and is
shown by its name as given, in any language."""

from __future__ import annotations

import pytest
from django.utils import translation

from lobby import open_games
from tests import people
from tests.games_in_states import open_game
from tests.people import api_client_for, client_for
from tests.tournaments.support import API, close_signup, create, tables
from words.titles import game_title

pytestmark = pytest.mark.django_db


def drawn(players) -> tuple[int, list]:
    made = create(players[0], seats=2, advance=1, max_players=4)
    for player in players:
        assert api_client_for(player).post(f"{API}{made['id']}/join/").status_code == 200
    close_signup(made["id"])
    return made["id"], tables(made["id"], 1)


def in_czech(user):
    client = client_for(user)
    client.post("/i18n/setlang/", {"language": "cs", "next": "/"})
    return client


def test_a_table_is_titled_by_its_tournament_round_and_number():
    tournament_id, first = drawn(people.players(4))

    assert [t.game.title for t in first] == [
        {"kind": "tournament", "tournament": tournament_id, "tournament_name": "Spring cup",
         "round": 1, "table": number} for number in (1, 2)]
    assert [t.game.name for t in first] == ["Spring cup · round 1 · table 1",
                                             "Spring cup · round 1 · table 2"]
    with translation.override("cs"):
        assert game_title(first[1].game) == "Spring cup · kolo 1 · stůl 2"
    with translation.override("pl"):
        assert game_title(first[1].game) == "Spring cup · runda 1 · stół 2"

    game = first[0].game
    player = game.seats.get(seat=0).user
    page = in_czech(player).get(f"/games/{game.pk}/").content.decode()
    assert "<h1>Spring cup · kolo 1 · stůl 1</h1>" in page
    assert "round 1" not in page


def test_a_game_a_player_names_like_a_table_is_shown_by_its_name(alice, bob):
    game = open_game(alice, 2, "X · round 1 · table 2")
    open_games.join_game(game, bob)

    assert game.title == {}
    with translation.override("cs"):
        assert game_title(game) == "X · round 1 · table 2"
    viewer = in_czech(bob)
    page = viewer.get(f"/games/{game.pk}/").content.decode()
    assert "<h1>X · round 1 · table 2</h1>" in page
    assert "X · kolo" not in page and "stůl 2" not in page
    lobby = viewer.get("/games/").content.decode()
    assert f'<a href="/games/{game.pk}/">X · round 1 · table 2</a>' in lobby
