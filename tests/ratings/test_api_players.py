"""GET /api/v1/players/{username}/: a player's rating, record, luck and games."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from engine.board import TERRITORIES
from games import service
from games.models import Event
from lobby import open_games
from ratings.tasks import record_results
from tests.games.api_support import assert_error
from tests.games_in_states import open_game
from tests.play import play_until
from tests.ratings.support import finished_game, players

pytestmark = pytest.mark.django_db


def get(username):
    return APIClient().get(f"/api/v1/players/{username}/")


def test_it_shows_the_contract_fields_after_games():
    alice, bob, dave = players("alice", "bob", "dave")
    won = finished_game([alice, bob, dave], leave=[dave, bob], fog=True)
    finished_game([bob, alice])
    record_results()

    answer = get("ALICE")  # any case

    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["username"] == "alice"
    assert isinstance(body["rating"], int) and isinstance(body["uncertainty"], int)
    assert body["games"] == 2 and body["wins"] == 1
    assert body["average_placement"] == 1.5
    assert [point["game"] for point in body["history"]][0] == won.pk
    assert body["recent"][-1]["id"] == won.pk
    assert body["recent"][-1]["replay"] == f"/games/{won.pk}/?at=1"
    assert body["recent"][-1]["record"] == f"/api/v1/games/{won.pk}/record/"
    assert {"option": "fog", "value": True, "games": 1} in body["favourite_options"]
    assert set(body["luck"]) >= {"battles", "lost", "expected_lost", "taken",
                                 "expected_taken", "net"}


def test_it_names_the_maps_played_most_in_the_reader_s_language():
    alice, bob = players("alice", "bob")
    for seed in (1, 2):
        finished_game([alice, bob], seed=seed, map_id="islands")
    finished_game([bob, alice])
    finished_game([bob, players("carol")[0]])  # not alice's
    open_game(alice, 2, "Open on Europe", map_id="europe")  # not finished
    record_results()

    assert get("alice").json()["favourite_maps"] == [
        {"map": "islands", "name": "Four Isles", "games": 2},
        {"map": "classic", "name": "Classic", "games": 1}]
    for language, names in (("cs", ["Čtyři ostrovy", "Klasická"]),
                            ("pl", ["Cztery wyspy", "Klasyczna"])):
        answer = APIClient().get("/api/v1/players/alice/", HTTP_ACCEPT_LANGUAGE=language)
        assert [m["name"] for m in answer.json()["favourite_maps"]] == names
    assert get("carol").json()["favourite_maps"] == [
        {"map": "classic", "name": "Classic", "games": 1}]
    assert get(players("dave")[0].username).json()["favourite_maps"] == []


def test_an_unknown_player_is_a_json_404():
    assert_error(get("nobody-at-all"), 404, "not_found")


def test_a_running_fogged_game_reveals_nothing_but_its_name():
    alice, bob = players("alice", "bob")
    game = open_game(alice, 2, "Foggy", rules={"fog": True, "placement_batch": 100})
    open_games.join_game(game, bob)
    # Play on until some battles were fought.
    play_until(game, [alice, bob], lambda state: state.turn >= 4)

    text = get("alice").content.decode()
    body = get("alice").json()

    assert body["current"] == [{"id": game.pk, "name": "Foggy", "title": {}, "status": "active",
                                "players": 2, "url": f"/games/{game.pk}/"}]
    assert body["luck"]["battles"] == 0 and body["recent"] == []
    assert not any(f'"{territory}"' in text for territory in TERRITORIES)


def test_luck_counts_the_battles_of_finished_games():
    alice, bob = players("alice", "bob")
    game = open_game(alice, 2, "Battles", rules={"placement_batch": 100})
    open_games.join_game(game, bob)
    play_until(game, [alice, bob], lambda state: state.turn >= 6, seed=3)
    service.submit(service.player(bob), game, {"type": "resign"})
    record_results()
    battles = Event.objects.filter(game=game, type="battle")
    mine = [e for e in battles if e.data["seat"] == 0 or e.data.get("defender") == 0]

    luck = get("alice").json()["luck"]

    assert luck["battles"] == len(mine) > 0
    assert luck["lost"] == sum(e.data["attacker_losses"] if e.data["seat"] == 0
                               else e.data["defender_losses"] for e in mine)
    assert luck["net"] == pytest.approx(
        (luck["expected_lost"] - luck["lost"]) + (luck["taken"] - luck["expected_taken"]),
        abs=0.11)


@pytest.mark.parametrize("name", ["a%00b", "%0A"])
def test_a_name_holding_a_control_character_is_no_player(name):
    assert get(name).status_code == 404
    assert APIClient().get(f"/players/{name}/").status_code == 404
