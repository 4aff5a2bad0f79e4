"""The lobby's Speed preset: 3-minute turns whatever the deadline field says, and a bot for
a player who misses two turns; the game page counts the deadline down."""

from __future__ import annotations

from games.models import Game

BASE = {"name": "Blitz", "players": "2", "deadline_seconds": "86400"}


def test_the_speed_preset_makes_three_minute_turns(as_alice):
    response = as_alice.post("/games/new/", {**BASE, "preset": "speed", "bots": "1"})
    game = Game.objects.get()
    assert response.status_code == 302
    assert game.deadline_seconds == 180 and game.rules["deadline_seconds"] == 180
    assert game.rules["dropped_seat"] == "bot" and game.rules["max_missed_turns"] == 2
    assert game.status == Game.ACTIVE  # the computer player filled the table
    page = as_alice.get(f"/games/{game.pk}/").content.decode()
    assert f'data-countdown="{game.deadline.isoformat()}' in page


def test_the_lobby_offers_speed_and_three_minutes(as_alice):
    html = as_alice.get("/games/").content.decode()
    assert 'value="speed"' in html and "Speed: 3-minute turns" in html
    assert '<option value="180">3 minutes</option>' in html
