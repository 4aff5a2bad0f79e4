"""Recording finished games: who is rated, by placement, once; and the rebuild's numbers."""

from __future__ import annotations

import pytest

from games import service
from games.models import Game
from lobby import open_games
from ratings import recording
from ratings.models import ALL_SIZES, GameResult, PlayerResult, Rating
from ratings.tasks import record_results
from tests.games_in_states import open_game
from tests.ratings.support import finished_game, players

pytestmark = pytest.mark.django_db


def rating(user, pool=ALL_SIZES) -> Rating:
    return Rating.objects.get(user=user, pool=pool)


def test_it_rates_each_human_by_order_of_elimination():
    alice, bob, dave = players("alice", "bob", "dave")
    # dave resigns first, then bob: alice wins, bob second, dave third.
    game = finished_game([alice, bob, dave], leave=[dave, bob])

    assert record_results() == 1

    places = dict(PlayerResult.objects.filter(game=game).values_list("user__username",
                                                                      "placement"))
    assert places == {"alice": 1, "bob": 2, "dave": 3}
    assert rating(alice).mu > rating(bob).mu > rating(dave).mu
    assert rating(alice).wins == 1 and rating(bob).wins == 0
    assert rating(alice).rating > recording.BASE > rating(dave).rating - 1000
    # Every game's pool, and the pool of three-seat tables.
    assert rating(bob, 3).mu == pytest.approx(rating(bob).mu)
    assert not Rating.objects.filter(pool=4).exists()


def test_recording_is_idempotent():
    alice, bob = players("alice", "bob")
    finished_game([alice, bob])
    record_results()
    before = rating(alice).mu

    assert record_results() == 0
    assert recording.record_pending() == []
    assert rating(alice).mu == before and rating(alice).games == 1
    assert PlayerResult.objects.count() == 2


def test_bots_are_not_rated_and_move_no_rating_unless_the_creator_chose_so():
    alice, bob = players("alice", "bob")
    finished_game([alice, bob], bots=["easy"], leave=[bob])
    record_results()

    assert not Rating.objects.exists()
    # The humans, unrated, and the computer player (its page counts its games).
    assert PlayerResult.objects.filter(rated=False).count() == 3

    game = finished_game([alice, bob], bots=["easy"], rated=True, leave=[bob])
    record_results()

    assert set(PlayerResult.objects.filter(game=game, rated=True)
               .values_list("user__username", flat=True)) == {"alice", "bob"}
    assert Rating.objects.filter(pool=ALL_SIZES).count() == 2


def test_an_unrated_game_and_a_game_of_one_human_move_nothing():
    alice, bob = players("alice", "bob")
    finished_game([alice, bob], rated=False)
    finished_game([alice], bots=["easy"], rated=True)
    record_results()

    assert GameResult.objects.count() == 2
    assert not GameResult.objects.filter(rated=True).exists()
    assert not Rating.objects.exists()


def test_a_team_shares_its_placement():
    alice, bob, dave, erin = players("alice", "bob", "dave", "erin")
    # Teams of two: alice and dave (seats 0, 2) against bob and erin (seats 1, 3).
    game = finished_game([alice, bob, dave, erin], leave=[bob, erin], team_size=2)
    record_results()

    places = dict(PlayerResult.objects.filter(game=game).values_list("user__username",
                                                                      "placement"))
    assert places == {"alice": 1, "dave": 1, "bob": 2, "erin": 2}
    assert rating(alice).mu == pytest.approx(rating(dave).mu)
    assert rating(alice).mu > rating(bob).mu


def test_a_rebuild_gives_the_same_numbers():
    alice, bob, dave, erin = players("alice", "bob", "dave", "erin")
    finished_game([alice, bob, dave], leave=[bob, dave])
    record_results()
    finished_game([bob, dave, erin, alice], leave=[alice, bob, dave])
    finished_game([dave, erin])
    record_results()
    finished_game([alice, erin], bots=["easy"], rated=True, leave=[erin])
    record_results()
    live = sorted(Rating.objects.values_list("user_id", "pool", "mu", "sigma", "rating",
                                             "games", "wins", "placements"))
    results = sorted(PlayerResult.objects.values_list("game_id", "user_id", "placement",
                                                      "mu", "sigma", "rating"))

    assert recording.rebuild() == 4

    assert sorted(Rating.objects.values_list("user_id", "pool", "mu", "sigma", "rating",
                                             "games", "wins", "placements")) == live
    assert sorted(PlayerResult.objects.values_list("game_id", "user_id", "placement", "mu",
                                                   "sigma", "rating")) == results


def test_a_game_recorded_out_of_order_rebuilds_to_the_finishing_order(caplog):
    alice, bob = players("alice", "bob")
    first = finished_game([alice, bob])
    finished_game([bob, alice])
    # The first game's commit is seen only after the second was recorded.
    Game.objects.filter(pk=first.pk).update(status=Game.ACTIVE)
    record_results()
    Game.objects.filter(pk=first.pk).update(status=Game.FINISHED)

    with caplog.at_level("INFO", logger="ratings.recording"):
        record_results()
    live = sorted(Rating.objects.values_list("user_id", "pool", "mu", "sigma"))
    recording.rebuild()

    assert "rebuilding" in caplog.text
    assert GameResult.objects.count() == 2
    assert sorted(Rating.objects.values_list("user_id", "pool", "mu", "sigma")) == live


def test_the_game_ending_command_only_queues_the_recording(django_capture_on_commit_callbacks,
                                                           monkeypatch):
    alice, bob = players("alice", "bob")
    game = open_game(alice, 2, "Quick")
    open_games.join_game(game, bob)
    queued = []
    monkeypatch.setattr("lib.publish.publish_later",
                        lambda task, args=(), countdown=0: queued.append(task.name))

    with django_capture_on_commit_callbacks(execute=True):
        service.submit(service.player(bob), game, {"type": "resign"})

    assert "ratings.tasks.record_results" in queued
    assert not PlayerResult.objects.exists()  # nothing recorded by the command itself


def test_the_rebuild_command_says_how_many_games_it_read():
    from io import StringIO

    from django.core.management import call_command

    alice, bob = players("alice", "bob")
    finished_game([alice, bob])
    out = StringIO()

    call_command("rebuild_ratings", stdout=out)

    assert "from 1 finished games" in out.getvalue()
    assert rating(alice).games == 1


def test_a_computer_players_page_counts_the_games_it_finished(client):
    """A computer player's profile said "Games played 0" after a finished game (issue 58)."""
    alice, bob = players("alice", "bob")
    game = finished_game([alice, bob], bots=["easy"], leave=[bob])
    record_results()
    computer = game.seats.get(bot="easy").user

    page = client.get(f"/players/{computer.username}/").content.decode()

    assert '<dd id="games-played">1</dd>' in page
    (row,) = PlayerResult.objects.filter(user=computer)
    assert not row.rated and row.rating is None
    assert not Rating.objects.filter(user=computer).exists()
