"""POST /api/v1/games/ with "speed": true: a speed game (lobby.new_game.SPEED_RULES)."""

from __future__ import annotations

import pytest

from games.models import Event, Game
from tests.games.api_support import API, assert_error


def test_it_creates_a_speed_game(alice):
    answer = alice.post(f"{API}/games/", {"name": "Blitz", "players": 3, "speed": True},
                        format="json")
    assert answer.status_code == 201, answer.content
    rules = answer.json()["rules"]
    assert (rules["deadline_seconds"], rules["dropped_seat"], rules["max_missed_turns"]) == (
        180, "bot", 2)
    assert Game.objects.get(pk=answer.json()["id"]).deadline_seconds == 180


def test_speed_goes_with_a_rulebook_and_a_deadline_of_ones_own(alice):
    answer = alice.post(f"{API}/games/", {
        "name": "Blitz", "players": 3, "speed": True, "deadline_seconds": 60,
        "rules": {"preset": "polish", "dropped_seat": "neutral"}}, format="json")
    assert answer.status_code == 201, answer.content
    rules = answer.json()["rules"]
    assert rules["preset"] == "polish" and rules["objective"] == "capitals"
    assert rules["deadline_seconds"] == 60 and rules["dropped_seat"] == "bot"


def test_without_speed_nothing_changes(alice):
    rules = alice.post(f"{API}/games/", {"name": "Slow", "players": 3},
                       format="json").json()["rules"]
    assert (rules["deadline_seconds"], rules["dropped_seat"]) == (86400, "neutral")


@pytest.mark.parametrize("speed", ["yes", 1, None, {"on": True}])
def test_it_refuses_a_speed_that_is_not_true_or_false(alice, speed):
    answer = alice.post(f"{API}/games/", {"name": "Blitz", "players": 3, "speed": speed},
                        format="json")
    assert_error(answer, 400, "bad_request")
    assert not Game.objects.exists() and not Event.objects.exists()
