"""A tournament on any map (tests/maps.py: isles): chosen in the API and the form, checked
against the map's rules, and every game of it starts on that map."""

from __future__ import annotations

import pytest

from games.boards import board_of_game
from games.models import Game
from tests import people
from tests.games.api_support import assert_error
from tests.people import api_client_for, client_for
from tests.tournaments.support import API, close_signup, create, finish_in_seat_order, tables
from tests.tournaments.support import form as tournament_form
from tournaments.models import Tournament
from tournaments.tasks import advance_for_game

pytestmark = pytest.mark.django_db


def test_its_games_start_and_finish_on_the_tournaments_map(isles_map):
    players = people.players(4)
    made = create(players[0], seats=2, advance=1, map="isles")
    assert made["map"] == "isles"
    assert api_client_for(players[1]).get(f"{API}{made['id']}/").json()["map"] == "isles"
    for player in players:
        assert api_client_for(player).post(f"{API}{made['id']}/join/").status_code in (200, 201)

    close_signup(made["id"])

    first = tables(made["id"], 1)
    assert len(first) == 2
    for table in first:
        game = Game.objects.get(pk=table.game_id)
        assert game.map == "isles" and board_of_game(game) is isles_map
        finish_in_seat_order(game)
        advance_for_game(game.pk)
    final = tables(made["id"], 2)
    assert [Game.objects.get(pk=t.game_id).map for t in final] == ["isles"]


def test_it_is_made_on_classic_unless_told(db):
    alice, = people.players(1)
    assert create(alice)["map"] == "classic"
    assert Tournament.objects.get().map == "classic"


@pytest.mark.parametrize("fields, code, detail", [
    ({"map": "atlantis"}, "unknown_map", "no map 'atlantis'"),
    ({"map": 7}, "unknown_map", "map must be"),
    ({"map": "isles", "rules": {"objective": "missions"}}, "bad_rules",
     "the map isles has no missions"),
    ({"map": "isles", "rules": {"preset": "czech"}}, "bad_rules", "no missions"),
])
def test_it_refuses_a_map_that_cannot_be_played_as_asked(isles_map, fields, code, detail):
    alice, = people.players(1)
    body = {"name": "Cup", **fields}

    answer = api_client_for(alice).post(API, body, format="json")

    assert detail in assert_error(answer, 400, code)["detail"]
    assert not Tournament.objects.exists()


def test_the_form_offers_every_map_and_makes_the_tournament_on_the_one_chosen(isles_map):
    alice, = people.players(1)
    page = client_for(alice).get("/tournaments/").content.decode()
    assert 'name="map"' in page and 'value="isles"' in page and 'value="classic"' in page

    answer = client_for(alice).post("/tournaments/", tournament_form(map="isles"))

    assert answer.status_code == 302, answer.content.decode()[:2000]
    assert Tournament.objects.get().map == "isles"


def test_the_form_refuses_missions_on_a_map_without_them(isles_map):
    alice, = people.players(1)
    answer = client_for(alice).post("/tournaments/", tournament_form(map="isles",
                                                                    preset="missions"))
    assert answer.status_code in (200, 400)
    assert "no missions" in answer.content.decode()
    assert not Tournament.objects.exists()
