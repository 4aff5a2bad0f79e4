"""Games on a map other than classic, through the API to the end (tests/maps.py: isles):
two players, a human and bots, fog, teams; what is refused on it; the maps' endpoints."""

from __future__ import annotations

import random

import pytest

from engine import board as classic_board
from engine.moves import seats_to_act
from games import computer, seat_views
from games.boards import board_for_new_game, board_of_game, board_of_view
from games.models import Game
from games.store.log import stored_events
from games.store.seats import read_seats
from games.store.states import load_state
from tests.games.api_support import API, assert_error, game_url, play, send, state_of
from tests.games.test_api_fog_teams import check_game_so_far
from tests.games.test_verify_record import standalone
from tests.maps import TERRITORIES
from tests.people import signed_up

pytestmark = pytest.mark.django_db
ISLES = set(TERRITORIES)


def create(client, players: int, rules=None, **extra):
    return client.post(f"{API}/games/", {"name": "On the isles", "players": players,
                                         "map": "isles", "rules": rules or {}, **extra},
                       format="json")


def joined(creator, *joiners, players=None, **rules) -> int:
    answer = create(creator, players or 1 + len(joiners), rules)
    assert answer.status_code == 201, answer.content
    game_id = answer.json()["id"]
    for joiner in joiners:
        assert joiner.post(game_url(game_id, "join/")).status_code == 200
    return game_id


def named_territories(events) -> set[str]:
    """Every territory an event names, as a key or a value of its data."""
    found, todo = set(), [e["data"] if isinstance(e, dict) else e.data for e in events]
    known = ISLES | set(classic_board.TERRITORIES)
    while todo:
        item = todo.pop()
        if isinstance(item, str) and item in known:
            found.add(item)
        elif isinstance(item, dict):
            todo.extend(item)
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return found


@pytest.mark.slow  # a whole game: CI plays it on the PostgreSQL pass only
def test_two_players_play_a_game_on_it_to_the_end(alice, bob, isles_map):
    answer = create(alice, 2, {"setup": "random", "neutral": False})
    assert answer.status_code == 201, answer.content
    open_view = answer.json()
    assert open_view["map"] == "isles" and set(open_view["territories"]) == ISLES
    game_id = open_view["id"]
    assert bob.post(game_url(game_id, "join/")).status_code == 200

    view = alice.get(game_url(game_id)).json()
    assert view["map"] == "isles" and view["map_hash"] == isles_map.hash
    assert set(view["territories"]) == ISLES
    assert all(card["territory"] in ISLES | {None} for card in view["you"]["cards"])
    state = play(game_id, {0: alice, 1: bob}, random.Random(11))
    assert state.finished and state.winner is not None
    record = alice.get(game_url(game_id, "record/")).json()
    assert record["map"] == "isles" and record["map_hash"] == isles_map.hash
    assert named_territories(record["events"]) <= ISLES
    assert {e["data"]["to"] for e in record["events"] if e["type"] == "battle"} <= ISLES
    game = Game.objects.get(pk=game_id)
    assert board_of_game(game) is isles_map
    listed = alice.get(f"{API}/games/", {"mine": 1}).json()
    assert [g["map"] for g in listed if g["id"] == game_id] == ["isles"]
    # The standalone checker needs the map version played: without it, it says where it is;
    # with the one the API serves by the record's map_hash, every draw checks out.
    with pytest.raises(standalone.CannotCheck, match=f"on the map 'isles': give the map "
                       f"version .* --map FILE .*/maps/isles/versions/{isles_map.hash}/"):
        standalone.check(record)
    played = alice.get(f"{API}/maps/isles/versions/{record['map_hash']}/").json()
    found, counts = standalone.check(record, played)
    assert found == [] and counts["territories_dealt"] == 1 <= counts["deck_shuffled"]


def test_a_classic_territory_is_refused_on_it_and_nothing_changes(alice, bob, isles_map):
    game_id = joined(alice, bob, setup="random")
    clients = {0: alice, 1: bob}
    state = play(game_id, clients, random.Random(2), until=lambda s: s.phase == "reinforce")
    seat = state.current
    body = assert_error(send(clients[seat], game_id, {
        "type": "place", "placements": {"ukraine": state.reinforcements}}), 400,
        "unknown_territory")
    assert "ukraine" in body["detail"]
    assert state_of(game_id).version == state.version


@pytest.mark.slow  # a whole game: CI plays it on the PostgreSQL pass only
def test_a_human_and_two_bots_play_on_it_to_the_end(alice, isles_map):
    answer = create(alice, 3, {"placement_batch": 100}, bots=["normal", "hard"])
    assert answer.status_code == 201, answer.content
    game_id = answer.json()["id"]
    game = Game.objects.get(pk=game_id)
    rnd = random.Random(3)
    for _ in range(400):
        computer.play(game_id)
        game.refresh_from_db()
        if game.status != Game.ACTIVE:
            break
        play(game_id, {0: alice}, rnd, until=lambda s: 0 not in seats_to_act(s), moves=200)
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    events = stored_events(game)
    assert events[0].data["map_hash"] == isles_map.hash
    # The bots moved, on the isles only.
    assert {e.actor for e in events if e.type == "battle"} & {1, 2}
    assert named_territories(events) <= ISLES


@pytest.mark.slow  # a whole game: CI plays it on the PostgreSQL pass only
def test_a_fogged_game_on_it_shows_each_observer_only_what_it_may_see(alice, bob, isles_map):
    dave = signed_up("dave")
    game_id = joined(alice, bob, dave, setup="random", fog=True)
    clients = {0: alice, 1: bob, 2: dave}
    state = play(game_id, clients, random.Random(5), until=lambda s: s.turn >= 5)
    check_game_so_far(game_id, clients, versions=3)
    spectator = signed_up("erin").get(game_url(game_id)).json()
    assert set(spectator["territories"]) == ISLES
    if not state.finished:
        assert all(t["fog"] for t in spectator["territories"].values())
    state = play(game_id, clients, random.Random(6))
    assert state.finished


@pytest.mark.slow  # a whole game: CI plays it on the PostgreSQL pass only
def test_two_teams_play_on_it_to_the_end(alice, bob, isles_map):
    carol, dave = signed_up("carol"), signed_up("dave")
    game_id = joined(alice, bob, carol, dave, setup="random", team_size=2)
    clients = {0: alice, 1: bob, 2: carol, 3: dave}
    view = alice.get(game_url(game_id)).json()
    assert [p["team"] for p in view["players"]] == [0, 1, 0, 1]
    state = play(game_id, clients, random.Random(8), until=lambda s: s.turn >= 6)
    check_game_so_far(game_id, clients, versions=2)
    state = play(game_id, clients, random.Random(9))
    assert state.finished
    view = alice.get(game_url(game_id)).json()
    assert view["winners"] == sorted(state.allies(state.winner))


@pytest.mark.parametrize("rules, words", [
    ({"objective": "missions"}, "the map isles has no missions"),
    ({"preset": "czech"}, "the map isles has no missions"),  # the Czech rulebook's objective
])
def test_missions_on_it_are_refused_and_no_game_is_made(alice, isles_map, rules, words):
    before = Game.objects.count()
    answer = create(alice, 3, rules)
    assert words in assert_error(answer, 400, "bad_rules")["detail"]
    assert Game.objects.count() == before


@pytest.mark.parametrize("map_id", ["atlantis", "", 7, None, ["isles"]])
def test_an_unknown_map_is_refused_and_no_game_is_made(alice, isles_map, map_id):
    before = Game.objects.count()
    answer = alice.post(f"{API}/games/", {"name": "x", "players": 2, "map": map_id},
                        format="json")
    if map_id is None:  # null: the default map
        assert answer.status_code == 201 and answer.json()["map"] == "classic"
        return
    assert_error(answer, 400)
    assert Game.objects.count() == before


def test_the_maps_endpoints_list_and_show_it(anonymous, isles_map):
    listed = {m["id"]: m for m in anonymous.get(f"{API}/maps/").json()}
    assert listed["isles"]["territories"] == 12 and listed["isles"]["continents"] == 3
    assert listed["isles"]["missions"] is False
    assert list(listed)[0] == "classic"
    shown = anonymous.get(f"{API}/maps/isles/").json()
    assert {t["id"] for t in shown["territories"]} == ISLES
    assert len(shown["deck"]) == 14  # one card per territory and two wilds


def test_the_service_reads_the_board_of_the_view(alice, bob, isles_map):
    game_id = joined(alice, bob, setup="random")
    game = Game.objects.get(pk=game_id)
    view = seat_views.game_view(game, read_seats(game), load_state(game), 0)
    assert board_of_view(view) is isles_map
    assert board_of_view({"map": "isles"}) is board_for_new_game("isles") is isles_map
    assert board_of_view({"map": None}).id == "classic"
