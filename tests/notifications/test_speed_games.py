"""Speed games (lobby.new_game.SPEED_RULES): 3-minute turns swept by beat within seconds,
and a computer player takes over the seat of a player who misses two turns."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings as django_settings

from games import deadlines
from games.models import Event, Game, Seat
from games.store.states import load_state
from lobby import open_games
from lobby.new_game import SPEED_RULES
from notifications.models import Notification
from tests.games_in_states import open_game


def test_beat_sweeps_deadlines_often_enough_for_speed_games():
    schedule = django_settings.CELERY_BEAT_SCHEDULE["deadlines"]
    # A turn of three minutes overruns by at most a twelfth of itself.
    assert schedule["schedule"] <= SPEED_RULES["deadline_seconds"] / 12
    assert schedule["task"] == "games.tasks.sweep_deadlines"


def test_a_speed_turn_times_out_in_minutes_and_a_bot_takes_the_missing_players_seat(
        alice, bob, clock):
    game = open_game(alice, 2, "Blitz", rules={"placement_batch": 100}, speed=True)
    open_games.join_game(game, bob)
    game.refresh_from_db()
    assert game.status == Game.ACTIVE
    assert game.deadline - clock() == timedelta(seconds=180)

    assert deadlines.sweep_deadlines() == {"timed_out": 0, "moved_on": 0, "stretched": 0,
                                           "failed": 0}
    for _ in range(8):  # nobody moves: each decision times out, three minutes apart
        clock.advance(seconds=180 + django_settings.CONQUEST_DEADLINE_SWEEP_SECONDS)
        assert deadlines.sweep_deadlines()["timed_out"] == 1
        game.refresh_from_db()
        if Event.objects.filter(game=game, type="seat_to_bot").exists():
            break
    taken = Event.objects.filter(game=game, type="seat_to_bot").first()
    assert taken is not None, "no seat went to a bot"
    seat = taken.data["seat"]
    assert load_state(game).players[seat].bot == "normal"
    # Its player hears that they were dropped; the bot's seat gets no mail.
    user = Seat.objects.get(game=game, seat=seat).user
    assert Notification.objects.filter(game=game, user=user).exists()
