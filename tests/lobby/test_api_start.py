"""POST /api/v1/games/{id}/start/: the creator starts with two or more seated."""

from __future__ import annotations

from games.models import Event, Game
from tests.games.api_support import API, assert_error, assert_game_view, game_url, unchanged
from tests.games_in_states import new_game
from tests.people import signed_up


def start(client, game_id):
    return client.post(game_url(game_id, "start/"))


def test_it_lets_the_creator_start_with_two_seated(alice, bob):
    game_id = new_game(alice, bob, players=4)
    answer = start(alice, game_id)
    assert answer.status_code == 200, answer.content
    view = assert_game_view(answer.json(), seat=0)
    assert view["status"] == "active" and view["version"] > 0
    assert len(view["players"]) == 2
    owners = [t["owner"] for t in view["territories"].values()]
    assert owners.count("neutral") == 14  # two seated: the neutral army joins
    game = Game.objects.get(pk=game_id)
    assert game.status == "active" and game.players == 2
    listed = {g["id"]: g for g in alice.get(f"{API}/games/").json()}[game_id]
    assert listed["players"] == listed["seats_taken"] == 2
    assert Event.objects.filter(game_id=game_id).first().type == "game_started"


def test_it_starts_with_three_of_six(alice, bob, charlie):
    game_id = new_game(alice, bob, charlie, players=6)
    view = start(alice, game_id).json()
    assert view["status"] == "active"
    assert sorted(p["territories"] for p in view["players"]) == [14, 14, 14]


def test_it_refuses_anyone_but_the_creator(alice, bob, charlie):
    game_id = new_game(alice, bob, players=4)
    for other in (bob, charlie):
        with unchanged(game_id):
            assert_error(start(other, game_id), 403, "not_creator")
    assert alice.get(game_url(game_id)).json()["status"] == "open"


def test_it_refuses_to_start_with_only_the_creator(alice):
    game_id = new_game(alice, players=3)
    with unchanged(game_id):
        assert_error(start(alice, game_id), 400, "not_enough_players")


def test_it_refuses_to_start_twice(alice, bob):
    game_id = new_game(alice, bob, players=3)
    start(alice, game_id)
    with unchanged(game_id):
        assert_error(start(alice, game_id), 400, "game_not_open")


def test_it_refuses_to_start_a_game_that_filled_up(alice, bob):
    game_id = new_game(alice, bob, players=2)
    with unchanged(game_id):
        assert_error(start(alice, game_id), 400, "game_not_open")


def test_it_refuses_rules_that_do_not_fit_the_players_seated(alice, bob, charlie):
    """Five players' 25 starting armies do not fit on 8 territories at 3 a territory: a
    six-seat table with that cap cannot start with five, and stays open for a sixth."""
    dora, emil = signed_up("dora"), signed_up("emil")
    game_id = new_game(alice, bob, charlie, dora, emil, players=6,
                        initial_max_per_territory=3)
    with unchanged(game_id):
        assert_error(start(alice, game_id), 400, "bad_rules")
    assert alice.get(game_url(game_id)).json()["status"] == "open"


def test_it_answers_401_without_a_token(alice, bob, anonymous):
    game_id = new_game(alice, bob, players=4)
    with unchanged(game_id):
        assert_error(start(anonymous, game_id), 401, "not_authenticated")


def test_it_answers_404_json_for_an_unknown_game(alice):
    assert_error(start(alice, 424242), 404, "not_found")


def test_it_answers_405_json_to_get(alice):
    game_id = new_game(alice, players=4)
    assert_error(alice.get(game_url(game_id, "start/")), 405, "method_not_allowed")
