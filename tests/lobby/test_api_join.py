"""POST /api/v1/games/{id}/join/: take the next seat; the game starts by itself when full."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from engine import FairDice
from games.models import Event, Game
from tests.games.api_support import API, assert_error, assert_game_view, game_url, unchanged
from tests.games_in_states import new_game
from tests.people import signed_up


def join(client, game_id):
    return client.post(game_url(game_id, "join/"))


def test_it_seats_the_joiner_in_the_next_seat_and_answers_their_view(alice, bob):
    game_id = new_game(alice, players=3)
    answer = join(bob, game_id)
    assert answer.status_code == 200, answer.content
    view = assert_game_view(answer.json(), seat=1)
    assert view["id"] == game_id and view["status"] == "open" and view["version"] == 0
    assert [(p["seat"], p["username"], p["color"]) for p in view["players"]] == [
        (0, "alice", "red"), (1, "bob", "blue")]
    assert Game.objects.get(pk=game_id).seats.count() == 2


def test_it_starts_the_game_by_itself_when_the_last_seat_is_taken(alice, bob, charlie):
    game_id = new_game(alice, players=3)
    assert join(bob, game_id).json()["status"] == "open"
    assert not Event.objects.filter(game_id=game_id).exists()
    answer = join(charlie, game_id)
    assert answer.status_code == 200, answer.content
    view = assert_game_view(answer.json(), seat=2)
    assert view["status"] == "active" and view["version"] > 0
    assert view["phase"] == "setup_place"  # deal, then initial placement in turns
    assert sum(p["territories"] for p in view["players"]) == 42
    events = alice.get(game_url(game_id, "events/")).json()["events"]
    assert events[0]["type"] == "game_started"
    assert sorted(events[0]["data"]["order"]) == [0, 1, 2]
    assert events[-1]["seq"] == view["version"]
    game = Game.objects.get(pk=game_id)
    assert game.status == "active" and game.started_at is not None and game.deadline


def test_it_starts_a_two_player_game_with_the_neutral(alice, bob):
    game_id = new_game(alice, players=2)
    view = join(bob, game_id).json()
    assert view["status"] == "active"
    owners = [t["owner"] for t in view["territories"].values()]
    assert owners.count("neutral") == owners.count(0) == owners.count(1) == 14


@pytest.mark.parametrize("players", [4, 6])
def test_it_waits_until_every_seat_is_taken(alice, players):
    game_id = new_game(alice, players=players)
    joiners = [signed_up(f"player{n}") for n in range(1, players)]
    for seat, joiner in enumerate(joiners, start=1):
        view = join(joiner, game_id).json()
        assert view["you"]["seat"] == seat
        assert view["status"] == ("active" if seat == players - 1 else "open")
    assert Game.objects.get(pk=game_id).players == players


def test_it_refuses_a_second_seat_for_the_same_player(alice, bob):
    game_id = new_game(alice, players=3)
    join(bob, game_id)
    for player in (alice, bob):
        with unchanged(game_id):
            assert_error(join(player, game_id), 400, "already_seated")


def test_it_refuses_to_join_a_game_that_has_started(alice, bob, charlie):
    game_id = new_game(alice, players=2)
    join(bob, game_id)
    with unchanged(game_id):
        assert_error(join(charlie, game_id), 400, "game_not_open")
    assert [p["username"] for p in charlie.get(game_url(game_id)).json()["players"]] == [
        "alice", "bob"]


def test_it_refuses_to_join_a_finished_game(alice, bob, charlie):
    game_id = new_game(alice, players=2)
    join(bob, game_id)
    alice.post(game_url(game_id, "commands/"), {"type": "resign"}, format="json")
    with unchanged(game_id):
        assert_error(join(charlie, game_id), 400, "game_not_open")


def test_it_answers_401_without_a_token(alice, anonymous):
    game_id = new_game(alice, players=3)
    with unchanged(game_id):
        assert_error(join(anonymous, game_id), 401, "not_authenticated")


def test_it_answers_404_json_for_an_unknown_game(alice, bob):
    new_game(alice, players=3)
    assert_error(join(bob, 999_999), 404, "not_found")
    assert_error(bob.post(f"{API}/games/not-a-number/join/"), 404, "not_found")


def test_it_ignores_a_body(alice, bob):
    game_id = new_game(alice, players=3)
    answer = bob.post(game_url(game_id, "join/"), {"seat": 5}, format="json")
    assert answer.status_code == 200 and answer.json()["you"]["seat"] == 1


def test_it_answers_405_json_to_get(alice):
    game_id = new_game(alice, players=3)
    assert_error(alice.get(game_url(game_id, "join/")), 405, "method_not_allowed")


# ---- the players' entropy (docs/players/fair-dice.md "The draws") ------------------------------------
BAD_ENTROPY = ["", "x" * 65, "caf\u00e9", "two\nlines", "tab\there", "\x7f", 42, 1.5, True,
               ["x"], {"x": "y"}]


def started_with(game_id) -> dict:
    return Event.objects.get(game_id=game_id, seq=1).data


def test_it_mixes_the_players_entropy_into_the_seed_in_seat_order(alice, bob, charlie):
    answer = alice.post(f"{API}/games/", {"name": "Mixed", "players": 3,
                                          "entropy": "alice's words"}, format="json")
    game_id = answer.json()["id"]
    assert bob.post(game_url(game_id, "join/"), {}, format="json").status_code == 200
    joined = charlie.post(game_url(game_id, "join/"), {"entropy": "~ charlie 42 ~"},
                          format="json")
    assert joined.status_code == 200 and joined.json()["status"] == "active"
    started = started_with(game_id)
    assert started["contributions"] == ["alice's words", "~ charlie 42 ~"]
    assert started["contributors"] == [0, 2]
    game = Game.objects.get(pk=game_id)
    key = bytes.fromhex(game.seed)
    seed = hmac.new(key, b"alice's words\n~ charlie 42 ~", hashlib.sha256).hexdigest()
    assert game.dice_seed == seed != game.seed
    assert started["order"] == FairDice(seed, str(game_id)).at(1).shuffle([0, 1, 2])
    events = alice.get(game_url(game_id, "events/")).json()["events"]
    assert events[0]["data"]["contributions"] == ["alice's words", "~ charlie 42 ~"]


def test_it_keeps_the_server_seed_when_nobody_sent_entropy(alice, bob):
    game_id = new_game(alice, players=2)
    join(bob, game_id)
    game = Game.objects.get(pk=game_id)
    assert "contributions" not in started_with(game_id)
    assert game.contributions is None and game.dice_seed == game.seed
    assert started_with(game_id)["order"] == FairDice(game.seed, str(game_id)).at(1).shuffle(
        [0, 1])


def test_a_seat_that_leaves_takes_its_entropy_along(alice, bob, charlie):
    game_id = new_game(alice, players=3)
    bob.post(game_url(game_id, "join/"), {"entropy": "bob was here"}, format="json")
    assert bob.post(game_url(game_id, "leave/")).status_code == 200
    charlie.post(game_url(game_id, "join/"), {"entropy": "charlie"}, format="json")
    dave = signed_up("dave")
    dave.post(game_url(game_id, "join/"), {"entropy": "dave"}, format="json")
    started = started_with(game_id)
    # Charlie moved up to seat 1 when bob left; dave took seat 2.
    assert started["contributions"] == ["charlie", "dave"]
    assert started["contributors"] == [1, 2]


def test_computer_players_send_no_entropy(alice):
    answer = alice.post(f"{API}/games/", {"name": "Bots", "players": 3, "bots": ["easy"],
                                          "entropy": "mine"}, format="json")
    game_id = answer.json()["id"]
    assert alice.post(game_url(game_id, "bots/"), {"level": "hard"},
                      format="json").status_code == 200
    started = started_with(game_id)
    assert started["contributions"] == ["mine"] and started["contributors"] == [0]


def test_an_early_start_mixes_in_the_seated_players_entropy(alice, bob):
    game_id = new_game(alice, players=4)
    bob.post(game_url(game_id, "join/"), {"entropy": "early"}, format="json")
    assert alice.post(game_url(game_id, "start/")).status_code == 200
    assert started_with(game_id)["contributions"] == ["early"]
    assert Game.objects.get(pk=game_id).contributions == ["early"]


@pytest.mark.parametrize("entropy", BAD_ENTROPY)
def test_it_refuses_bad_entropy_and_seats_nobody(alice, bob, entropy):
    game_id = new_game(alice, players=2)
    with unchanged(game_id):
        answer = bob.post(game_url(game_id, "join/"), {"entropy": entropy}, format="json")
        assert_error(answer, 400, "bad_entropy")
    assert not Game.objects.get(pk=game_id).seats.filter(seat=1).exists()


def test_it_takes_entropy_null_as_none(alice, bob):
    game_id = new_game(alice, players=2)
    assert bob.post(game_url(game_id, "join/"), {"entropy": None},
                    format="json").status_code == 200
    assert "contributions" not in started_with(game_id)


def test_nobody_sees_another_player_s_entropy_before_the_start(alice, bob, charlie,
                                                              anonymous):
    secret = "bob-entropy-0f3c9a77"
    game_id = new_game(alice, players=3)
    bob.post(game_url(game_id, "join/"), {"entropy": secret}, format="json")
    for client in (alice, bob, charlie, anonymous):
        for tail in ("", "record/", "events/"):
            assert secret not in client.get(game_url(game_id, tail)).content.decode()
        assert secret not in client.get(f"{API}/games/").content.decode()
    assert alice.get(game_url(game_id, "record/")).json()["contributions"] is None
