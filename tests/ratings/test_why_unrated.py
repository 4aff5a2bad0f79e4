"""A rating the player can follow: a finished game's page says why it did not change their
rating (not rated, not played in two turns of their own, a bot account at its owner's
table, opponents new to rated games), and the profile says when a rating will show."""

from __future__ import annotations

import html

import pytest

from accounts.models import BotAccount
from ratings.models import PlayerResult
from ratings.tasks import record_results
from tests.people import client_for
from tests.ratings.support import finished_game, players

pytestmark = pytest.mark.django_db


def result_box(user, game) -> str:
    page = client_for(user).get(f"/games/{game.pk}/").content.decode()
    return html.unescape(page.split('id="result"', 1)[1].split("</section>", 1)[0])


def test_a_game_with_computer_players_says_at_once_it_is_not_rated():
    alice, bob = players("alice", "bob")
    game = finished_game([alice, bob], bots=["easy"], leave=[bob])

    before = result_box(alice, game)  # before the worker recorded it
    record_results()
    after = result_box(alice, game)

    for box in (before, after):
        assert "being worked out" not in box
        assert "This game was not rated: games with computer players are not rated " \
               "unless their creator chose so when creating them." in box, box


def test_an_unrated_game_says_its_creator_chose_so():
    alice, bob = players("alice", "bob")
    game = finished_game([alice, bob], rated=False)
    record_results()

    assert "This game was not rated: its creator chose so." in result_box(alice, game)


def test_a_player_who_did_not_play_two_turns_is_told_why_it_did_not_count():
    alice, bob = players("alice", "bob")
    game = finished_game([alice, bob], turns=0)
    record_results()
    assert not PlayerResult.objects.filter(game=game, rated=True).exists()

    box = result_box(alice, game)
    assert "This game did not change your rating: you did not play 2 turns of your " \
           "own in it" in box, box


def test_a_bot_account_at_its_owners_table_is_named_as_the_reason():
    alice, robo = players("alice", "robo")
    game = finished_game([alice, robo], leave=[robo])
    BotAccount.objects.create(user=robo, owner=alice)
    record_results()

    assert "a bot account played at its owner's table" in result_box(alice, game)


def test_a_game_between_newcomers_says_their_ratings_are_provisional(settings):
    """It said "1500 → 1500 (±0): your opponents had not finished 5 rated games yet"; a
    newcomers' game moves their provisional ratings now (test_established.py)."""
    settings.CONQUEST_RATING_ESTABLISHED_GAMES = 5
    alice, bob = players("alice", "bob")
    game = finished_game([alice, bob])
    record_results()

    box = result_box(alice, game)
    assert "Your rating: 1500? → " in box and "(±0)" not in box, box
    assert "Your rating is provisional (?) until you have finished 5 rated games" in box


def test_the_profile_says_when_a_rating_will_show():
    alice, bob = players("alice", "bob")
    finished_game([alice, bob], bots=["easy"], leave=[bob])
    record_results()

    profile = html.unescape(client_for(alice).get("/players/alice/").content.decode())
    assert "Not rated yet: your rating shows a few seconds after you finish a rated game " \
           "against other people." in profile, profile
    assert "Your 1 finished game did not count for a rating: its page says why." in profile
    # Another reader is not spoken to as its player.
    other = client_for(bob).get("/players/alice/").content.decode()
    assert "Not rated yet: a rating comes with the first finished rated game." in other
