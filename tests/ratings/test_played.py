"""Ratings cannot be farmed: a game moves ratings only when it was really played, and
games between the same opponents count less and less within the window."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from rest_framework.test import APIClient

from games import service
from games.models import Game
from games.store.states import load_state
from ratings import counting, recording
from ratings.models import ALL_SIZES, GameResult, PlayerResult, Rating
from ratings.tasks import record_results
from tests.engine.players import bot_command
from tests.games_in_states import finish, play_turns
from tests.people import token_client_for
from tests.ratings.support import finished_game, players, started_game

pytestmark = pytest.mark.django_db


def shown_rating(username):
    return APIClient().get(f"/api/v1/players/{username}/").json()["rating"]


def test_throwaway_accounts_that_join_and_resign_at_once_move_no_rating():
    alice, bob = players("alice", "bob")
    finished_game([alice, bob])  # a real game first: alice has a rating to farm
    record_results()
    before = shown_rating("alice")
    # Three throwaway accounts each join a rated two-player game of alice's and resign.
    for name in ("throwaway1", "throwaway2", "throwaway3"):
        throwaway, = players(name)
        made = token_client_for(alice).post("/api/v1/games/", {"name": "Farm", "players": 2},
                               format="json")
        game_id = made.json()["id"]
        assert token_client_for(throwaway).post(f"/api/v1/games/{game_id}/join/").status_code == 200
        resigned = token_client_for(throwaway).post(f"/api/v1/games/{game_id}/commands/",
                                       {"type": "resign"}, format="json")
        assert resigned.status_code == 201
        assert Game.objects.get(pk=game_id).status == Game.FINISHED

    assert record_results() == 3

    assert shown_rating("alice") == before
    assert Rating.objects.get(user=alice, pool=ALL_SIZES).games == 1
    assert not Rating.objects.filter(user__username__startswith="throwaway").exists()
    assert GameResult.objects.filter(rated=True).count() == 1
    # The games are on the players' records all the same, unrated.
    assert PlayerResult.objects.filter(user=alice, rated=False).count() == 3


def test_a_real_game_still_moves_ratings():
    alice, bob = players("alice", "bob")
    game = finished_game([alice, bob])
    record_results()

    assert GameResult.objects.get(game=game).rated
    assert shown_rating("alice") > shown_rating("bob")
    assert PlayerResult.objects.get(game=game, user=alice).weight == 1
    recent = APIClient().get("/api/v1/players/bob/").json()["recent"]
    assert [(g["id"], g["rated"], g["weight"]) for g in recent] == [(game.pk, True, 1)]


def test_one_turn_then_resigning_is_not_enough():
    alice, bob = players("alice", "bob")
    finished_game([alice, bob], turns=counting.MIN_OWN_TURNS - 1)
    record_results()

    assert not Rating.objects.exists()


def test_turns_the_clock_played_are_not_the_players_own():
    alice, bob = players("alice", "bob")
    game = started_game([alice, bob], setup="random", max_missed_turns=8)
    rnd = random.Random(2)
    # alice plays; bob never does: every decision of his is made by his deadlines until
    # he misses too many turns and is dropped.
    for _ in range(3000):
        state = load_state(game)
        if state.finished:
            break
        if state.current == 1 or (state.current is None and not state.players[1].submitted):
            service.submit_timeout(game, state.version)
            continue
        try:
            service.submit(service.player(alice), game, bot_command(state, 0, rnd), state.version)
        except Exception:  # noqa: BLE001 - the bot may ask for a refused move; ask again
            continue
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    assert load_state(game).round > counting.MIN_OWN_TURNS  # alice played her turns
    record_results()

    assert not Rating.objects.exists()
    assert not GameResult.objects.get(game=game).rated


def test_a_seat_that_did_not_play_is_left_out_and_the_others_are_rated():
    alice, bob, dave = players("alice", "bob", "dave")
    game = started_game([alice, bob, dave])
    service.submit(service.player(dave), game, {"type": "resign"})  # dave leaves before playing
    play_turns(game, counting.MIN_OWN_TURNS)
    finish(game, [bob])
    record_results()

    rated = dict(PlayerResult.objects.filter(game=game).values_list("user__username",
                                                                     "rated"))
    assert rated == {"alice": True, "bob": True, "dave": False}
    assert not Rating.objects.filter(user=dave).exists()
    assert Rating.objects.get(user=alice, pool=ALL_SIZES).rating > \
        Rating.objects.get(user=bob, pool=ALL_SIZES).rating


def mu_sigma(game, user) -> tuple[float, float]:
    row = PlayerResult.objects.get(game=game, user=user)
    return row.mu, row.sigma


def test_games_between_the_same_pair_count_less_and_less_within_the_window():
    alice, bob, dave = players("alice", "bob", "dave")
    first = finished_game([alice, bob], seed=1)
    second = finished_game([alice, bob], seed=2)
    third = finished_game([bob, alice], seed=3)
    other = finished_game([alice, dave], seed=4)
    record_results()

    weights = [PlayerResult.objects.get(game=g, user=alice).weight
               for g in (first, second, third, other)]
    assert weights == [1, 0.5, 0.25, 1]  # dave is a new opponent: a full game
    # The second game moved each of them by half of what it would have moved them.
    for user, opponent in ((alice, bob), (bob, alice)):
        mine, theirs = mu_sigma(first, user), mu_sigma(first, opponent)
        places = PlayerResult.objects.get(game=second, user=user).placement, \
            PlayerResult.objects.get(game=second, user=opponent).placement
        [[full], _] = recording.MODEL.rate(
            [[recording.MODEL.rating(*mine)], [recording.MODEL.rating(*theirs)]], ranks=list(places))
        after = mu_sigma(second, user)
        assert after[0] == pytest.approx(mine[0] + (full.mu - mine[0]) / 2)
        assert after[1] == pytest.approx(mine[1] + (full.sigma - mine[1]) / 2)


def test_the_window_forgets_games_older_than_it():
    alice, bob = players("alice", "bob")
    first = finished_game([alice, bob], seed=1)
    second = finished_game([alice, bob], seed=2)
    long_ago = Game.objects.get(pk=second.pk).finished_at - counting.PAIR_WINDOW - \
        timedelta(minutes=1)
    Game.objects.filter(pk__in=[first.pk, second.pk]).update(finished_at=long_ago)
    record_results()
    third = finished_game([alice, bob], seed=3)
    record_results()

    weights = [PlayerResult.objects.get(game=g, user=bob).weight
               for g in (first, second, third)]
    assert weights == [1, 0.5, 1]


def test_a_rebuild_gives_the_same_numbers_with_discounts_and_seats_left_out():
    alice, bob, dave = players("alice", "bob", "dave")
    finished_game([alice, bob], seed=1)
    record_results()
    finished_game([alice, bob], seed=2)
    game = started_game([alice, bob, dave])
    service.submit(service.player(bob), game, {"type": "resign"})
    play_turns(game, counting.MIN_OWN_TURNS)
    finish(game, [dave])
    finished_game([dave, bob], turns=0)
    record_results()
    columns = ("game_id", "user_id", "rated", "weight", "mu", "sigma", "rating",
               "rating_before")
    live = sorted(PlayerResult.objects.values_list(*columns))
    ratings = sorted(Rating.objects.values_list("user_id", "pool", "mu", "sigma", "games"))

    assert recording.rebuild() == 4

    assert sorted(PlayerResult.objects.values_list(*columns)) == live
    assert sorted(Rating.objects.values_list("user_id", "pool", "mu", "sigma",
                                             "games")) == ratings
