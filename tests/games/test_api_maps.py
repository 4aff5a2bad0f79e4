"""GET /api/v1/maps/ and /maps/{id}/, and the `map` a game is created on and carries."""

from __future__ import annotations

from rest_framework.test import APIClient

from engine import maps
from games.models import Game
from tests.games.api_support import API, assert_error

GAMES = f"{API}/games/"


def test_it_lists_the_maps_with_their_sizes(db):
    answer = APIClient().get(f"{API}/maps/")
    assert answer.status_code == 200, answer.content
    listed = {m["id"]: m for m in answer.json()}
    classic = listed["classic"]
    assert {k: classic[k] for k in ("name", "territories", "continents", "min_players",
                                    "max_players")} == {
        "name": "Classic", "territories": 42, "continents": 6, "min_players": 2,
        "max_players": 6}
    assert classic["hash"] == maps.classic().hash


def test_it_answers_a_map_with_its_deck_and_starting_armies(db):
    board = APIClient().get(f"{API}/maps/classic/").json()
    assert len(board["deck"]) == 44 and board["deck"][-1] == {"territory": None,
                                                              "symbol": "wild"}
    assert board["starting_armies"] == {"2": 40, "3": 35, "4": 30, "5": 25, "6": 20}
    assert board["drawing"] == {"layout": "classic"}


def test_it_creates_a_game_on_the_classic_map_by_default(alice):
    answer = alice.post(GAMES, {"name": "Maps", "players": 2, "bots": ["easy"]},
                        format="json")
    assert answer.status_code == 201, answer.content
    view = answer.json()
    assert view["map"] == "classic" and view["map_hash"] == maps.classic().hash
    game = Game.objects.get(pk=view["id"])
    record = alice.get(f"{GAMES}{game.pk}/record/").json()
    assert record["map"] == "classic" and record["map_hash"] == maps.classic().hash
    listed = alice.get(f"{GAMES}?mine=1").json()
    assert [g["map"] for g in listed] == ["classic"]


def test_an_open_game_names_its_map(alice):
    view = alice.post(GAMES, {"name": "Open", "players": 3, "map": "classic"},
                      format="json").json()
    assert view["map"] == "classic" and len(view["territories"]) == 42


def test_it_refuses_an_unknown_map_and_stores_nothing(alice):
    for bad in ("atlantis", 7, ["classic"]):
        answer = alice.post(GAMES, {"name": "Lost", "players": 3, "map": bad}, format="json")
        assert_error(answer, 400, "unknown_map")
    assert Game.objects.count() == 0


def test_it_refuses_missions_on_a_map_without_them(alice, monkeypatch):
    data = dict(maps.classic().data, id="plain", name="Plain")
    del data["missions"]
    plain = maps.build(data)
    real = maps.shipped

    monkeypatch.setattr(maps, "shipped_ids", lambda: ("classic", "plain"))
    monkeypatch.setattr(maps, "shipped", lambda map_id: plain if map_id == "plain"
                        else real(map_id))
    answer = alice.post(GAMES, {"name": "Secret", "players": 3, "map": "plain",
                                "rules": {"objective": "missions"}}, format="json")
    assert_error(answer, 400, "bad_rules")
    assert "has no missions" in answer.json()["detail"]
    assert Game.objects.count() == 0
