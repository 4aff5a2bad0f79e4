"""A game on a map other than the classic one, through the web pages: chosen in the lobby's
picker, played through the forms, and every part of the game page on that map (board, list,
rules panel, history, fog, teams, the end)."""

from __future__ import annotations

import json
import random
import re

import pytest

import bots
from engine.moves import seats_to_act
from games import seat_views, service
from games.models import Game
from games.store.seats import read_seats
from games.store.states import load_state
from lobby import open_games
from tests.games_in_states import open_game
from tests.people import client_for, with_password
from tests.web.support import post_play

BASE = {"name": "Island hopping", "players": "2", "deadline_seconds": "86400",
        "preset": "classic"}


def _page(client, game, query="") -> str:
    response = client.get(f"/games/{game.pk}/{query}")
    assert response.status_code == 200
    return response.content.decode()


def _played(client, game, fields):
    before = game.version
    response = post_play(client, game, fields)
    assert response.status_code == 302, response.content.decode()[:3000]
    game.refresh_from_db()
    assert game.version > before
    return response


def finished(game, users):
    """The computer players' moves for every seat until the game ends."""
    rnd = random.Random(3)
    for _ in range(3000):
        game.refresh_from_db()
        state = load_state(game)
        if state.finished:
            return state
        seat = rnd.choice(seats_to_act(state))
        view = seat_views.game_view(game, read_seats(game), state, seat)
        service.submit(service.player(users[seat]), game,
                     bots.choose(view, view["rules"], "normal", rnd), state.version)
    raise AssertionError("the game did not end")


@pytest.mark.django_db
def test_the_lobby_offers_every_map_with_classic_chosen(as_alice, islands):
    html = as_alice.get("/games/").content.decode()
    picker = html[html.index('id="field-map"'):]
    picker = picker[:picker.index("</fieldset>")]

    assert re.search(r'value="classic" id="id_map_0" checked', picker)
    assert 'value="test_islands"' in picker and "Test Islands" in picker
    assert "10 territories · 2–4 players" in picker and "42 territories · 2–6 players" in picker
    assert 'src="/maps/test_islands/thumbnail.svg"' in picker
    chosen = as_alice.get("/games/?map=test_islands").content.decode()
    assert re.search(r'value="test_islands" id="id_map_\d+" checked', chosen)


@pytest.mark.django_db
def test_the_lobby_refuses_an_unknown_map_and_a_table_the_map_is_not_for(as_alice, islands):
    unknown = as_alice.post("/games/new/", {**BASE, "map": "atlantis"})
    too_many = as_alice.post("/games/new/", {**BASE, "map": "test_islands", "players": "5"})

    assert unknown.status_code == 400 and too_many.status_code == 400
    assert "Test Islands is played by 2 to 4 players." in too_many.content.decode()
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_a_game_on_another_map_is_created_and_played_through_the_pages(
        alice, bob, as_alice, as_bob, islands):
    response = as_alice.post("/games/new/", {**BASE, "map": "test_islands"})
    game = Game.objects.get()
    assert response.status_code == 302 and game.map == "test_islands"
    open_page = _page(as_alice, game)
    assert open_page.count("data-territory=") == 10 and "drawn-map" in open_page
    as_bob.post(f"/games/{game.pk}/join/")
    game.refresh_from_db()
    assert game.status == Game.ACTIVE
    clients = {0: as_alice, 1: as_bob}

    state = load_state(game)
    assert state.board.id == "test_islands"
    for seat, client in clients.items():  # every starting army at once, on one territory
        page = _page(client, game)
        mine = [t for t in state.board.territories if state.owner[t] == seat]
        assert f'name="place-{mine[0]}"' in page
        assert 'name="place-alaska"' not in page
        _played(client, game, {"type": "place",
                               f"place-{mine[0]}": str(state.players[seat].setup_armies)})
    state = load_state(game)
    assert state.phase == "reinforce"
    mover = clients[state.current]
    page = _page(mover, game)
    # the board: the map's shapes, continents by number, names, neighbours for the script
    assert page.count('<a href="?sel=') == 10 and "c-0" in page and "c-2" in page
    assert '<title id="board-title">Test Islands: 10 territories in 3 continents</title>' in page
    neighbours = json.loads(re.search(r'<script id="neighbours" type="application/json">(.*?)'
                                      r"</script>", page).group(1))
    assert neighbours["fjord"] == ["northcape", "heath", "dune"]
    assert 'href="/maps/test_islands/">Test Islands (10 territories)</a>' in page
    assert "The North +3, The South +2, The East +2" in page
    me = state.current
    front = [t for t in state.board.territories if state.owner[t] == me
             and any(state.owner[n] != me for n in state.board.neighbours[t])]
    strongest = max(front, key=lambda t: state.armies[t])
    _played(mover, game, {"type": "place", f"place-{strongest}": str(state.reinforcements)})
    state = load_state(game)
    if state.phase == "neutral_place":  # two players: the other places the neutral's half
        neutral = next(t for t in state.board.territories if state.owner[t] == "neutral")
        assert f'name="place-{neutral}"' in _page(clients[state.current], game)
        _played(clients[state.current], game, {"type": "place_neutral",
                                               f"place-{neutral}": str(state.reinforcements)})
        state = load_state(game)
    assert state.phase == "attack"
    target = next(n for n in state.board.neighbours[strongest]
                  if state.owner[n] != state.current)
    _played(mover, game, {"type": "attack", "from": strongest, "to": target, "dice": "1"})
    list_page = mover.get(f"/games/{game.pk}/board/").content.decode()
    assert list_page.count("<tr data-territory=") == 10 and "The East" in list_page
    history = _page(mover, game, "?at=3")
    assert history.count("data-territory=") == 10

    assert finished(game, [alice, bob]).board.id == "test_islands"
    for client in (as_alice, as_bob, client_for(with_password("watcher"))):
        end = _page(client, game)
        assert end.count("data-territory=") == 10


@pytest.mark.django_db
def test_fog_and_teams_on_another_map(islands):
    players = [with_password(n) for n in ("ann", "ben", "cid", "dot")]
    # The deal is keyed by the game's id as well as its seed, and a deal may leave ann's team
    # next to every island: a new game is dealt until some territory is out of its sight.
    for _attempt in range(10):
        game = open_game(players[0], 4, "Foggy islands", seed="5e" * 32,
                         rules={"fog": True, "team_size": 2,
                                "initial_placement": "simultaneous"},
                         map_id="test_islands")
        for someone in players[1:]:
            open_games.join_game(game, someone)
        game.refresh_from_db()
        state = load_state(game)
        team = {t for t in state.board.territories if state.owner[t] in (0, 2)}
        if team | {n for t in team for n in state.board.neighbours[t]} != set(
                state.board.territories):
            break
    html = _page(client_for(players[0]), game)
    seen = set(re.findall(r'data-territory="(\w+)" data-owner="[^"]*" data-armies="\d+"', html))
    fogged = set(re.findall(r'data-territory="(\w+)" data-owner="" data-armies="" data-fog="1"',
                            html))
    assert seen | fogged == set(state.board.territories) and fogged
    own = {t for t in state.board.territories if state.owner[t] == 0}
    mate = {t for t in state.board.territories if state.owner[t] == 2}  # seat 2: team 1 too
    visible = own | mate | {n for t in own for n in state.board.neighbours[t]}
    assert seen == visible
    assert 'class="team-ring team-1"' in html and "Team 1" in html
    spectator = _page(client_for(with_password("eve")), game)
    assert spectator.count('data-fog="1"') == 10


@pytest.mark.django_db
def test_a_game_against_the_computer_on_another_map(as_alice, islands):
    refused = as_alice.post("/games/against-the-computer/",
                            {"opponents": "4", "level": "easy", "map": "test_islands"})
    assert refused.status_code == 302 and not Game.objects.exists()
    as_alice.post("/games/against-the-computer/",
                  {"opponents": "1", "level": "easy", "map": "test_islands"})
    game = Game.objects.get()
    assert game.map == "test_islands" and game.status == Game.ACTIVE
    assert load_state(game).board.id == "test_islands"
    assert 'name="map"' in as_alice.get("/").content.decode()
