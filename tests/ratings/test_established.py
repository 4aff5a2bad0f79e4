"""Ratings cannot be farmed on fresh accounts: what a game against a provisional opponent
(fewer than CONQUEST_RATING_ESTABLISHED_GAMES counted games) gives is scaled by how
established that opponent is, while a newcomer is rated fully against established players."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.models import Game
from ratings import counting, recording
from ratings.models import ALL_SIZES, GameResult, PlayerResult, Rating
from ratings.tasks import record_results
from tests.ratings.support import finished_game, players

pytestmark = pytest.mark.django_db

ESTABLISHED = 5


@pytest.fixture(autouse=True)
def newcomers_rule(settings):
    """The site's default, which conftest.py turns off for the other tests."""
    settings.CONQUEST_RATING_ESTABLISHED_GAMES = ESTABLISHED


def rating(user) -> Rating:
    return Rating.objects.get(user=user, pool=ALL_SIZES)


def weights(user, games) -> list:
    return [PlayerResult.objects.get(game=g, user=user).weight for g in games]


def established_pair(*names):
    """Two players who played ESTABLISHED counted games together, long enough ago that the
    pair discount has forgotten them."""
    first, second = players(*names)
    games = [finished_game([first, second], seed=i) for i in range(ESTABLISHED)]
    long_ago = Game.objects.get(pk=games[-1].pk).finished_at - counting.PAIR_WINDOW - \
        timedelta(minutes=1)
    for i, game in enumerate(games):  # in the same order, all out of the window
        Game.objects.filter(pk=game.pk).update(finished_at=long_ago + timedelta(seconds=i))
    record_results()
    return first, second, games


def test_a_farmer_gains_nothing_from_rotating_fresh_throwaway_accounts():
    alice, bob, _ = established_pair("alice", "bob")
    before = rating(alice)
    # Six brand-new accounts, each a different opponent (no pair discount): each plays its
    # two turns, then resigns.
    throwaways = players(*(f"throwaway{i}" for i in range(6)))
    farmed = [finished_game([alice, throwaway], seed=i)
              for i, throwaway in enumerate(throwaways)]
    assert record_results() == 6
    after = rating(alice)

    # A fresh account is worth none of a game to its opponent: the whole farm adds 0
    # points (a full game's win is worth tens of points, and the review's 10 such games
    # were worth +409 before this rule).
    assert weights(alice, farmed) == [0] * 6
    assert after.rating == before.rating
    assert (after.mu, after.sigma) == (before.mu, before.sigma)
    assert after.games == before.games + 6  # they are on her record, counted
    assert all(GameResult.objects.get(game=g).rated for g in farmed)
    # The throwaways themselves were rated fully against an established player.
    assert weights(throwaways[0], farmed[:1]) == [1]
    assert rating(throwaways[0]).rating < recording.BASE


def test_a_game_between_established_players_moves_them_fully():
    alice, bob, games = established_pair("alice", "bob")
    # While they were new, each game counted k/5 of the other's establishment, times the
    # pair discount (the games were within 30 days of one another).
    assert weights(alice, games) == pytest.approx([0, 0.2 / 2, 0.4 / 4, 0.6 / 8, 0.8 / 16])
    before = rating(alice), rating(bob)
    game = finished_game([alice, bob], seed=9)
    record_results()

    assert weights(alice, [game]) == weights(bob, [game]) == [1]
    assert rating(alice).rating > before[0].rating
    assert rating(bob).rating < before[1].rating


def test_a_newcomer_is_rated_fully_against_established_players_and_moves_them_little():
    alice, bob, _ = established_pair("alice", "bob")
    erin, = players("erin")
    first = finished_game([erin, alice], seed=1)  # erin wins her first game
    record_results()
    alice_after_first = rating(alice)
    second = finished_game([bob, erin], seed=2)
    record_results()

    assert weights(erin, [first, second]) == [1, 1]
    assert PlayerResult.objects.get(game=first, user=erin).rating > recording.BASE
    # alice lost to an account with no counted game: worth nothing to her yet; bob beat
    # an account with one: a fifth of a game.
    assert weights(alice, [first]) == [0]
    assert weights(bob, [second]) == [pytest.approx(1 / ESTABLISHED)]
    assert rating(alice).rating == alice_after_first.rating


def test_at_a_table_of_three_a_seat_weighs_the_mean_establishment_of_its_opponents():
    alice, bob, _ = established_pair("alice", "bob")
    erin, = players("erin")
    game = finished_game([alice, bob, erin], seed=3)
    record_results()

    # alice's opponents are bob (established) and erin (new): (1 + 0) / 2, and bob's
    # alike; erin's are both established. The pair's games are older than the window.
    assert weights(alice, [game]) == [pytest.approx(0.5)]
    assert weights(bob, [game]) == [pytest.approx(0.5)]
    assert weights(erin, [game]) == [1]


def test_recording_game_by_game_equals_a_rebuild_under_the_newcomers_rule():
    alice, bob, _ = established_pair("alice", "bob")
    erin, frank = players("erin", "frank")
    finished_game([erin, alice], seed=1)
    record_results()
    finished_game([erin, frank], seed=2)
    finished_game([bob, erin, frank], seed=3)
    record_results()
    columns = ("game_id", "user_id", "rated", "weight", "mu", "sigma", "rating",
               "rating_before")
    live = sorted(PlayerResult.objects.values_list(*columns))
    ratings = sorted(Rating.objects.values_list("user_id", "pool", "mu", "sigma", "games"))

    assert recording.rebuild() == ESTABLISHED + 3

    assert sorted(PlayerResult.objects.values_list(*columns)) == live
    assert sorted(Rating.objects.values_list("user_id", "pool", "mu", "sigma",
                                             "games")) == ratings


def test_a_game_between_newcomers_moves_their_provisional_ratings_shown_with_a_mark(client):
    """"1500 → 1500 (±0)" after a newcomers' rated game (issue 58): their provisional
    ratings move, as lichess's do, and every page shows them with "?"."""
    alice, bob = players("alice", "bob")
    game = finished_game([alice, bob])  # bob resigns: alice wins
    record_results()

    won, lost = (PlayerResult.objects.get(game=game, user=u) for u in (alice, bob))
    assert won.provisional and lost.provisional and won.why == "provisional"
    assert won.rating > won.rating_before and won.rating != lost.rating
    assert rating(alice).provisional_mu > rating(bob).provisional_mu
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f"Your rating: {won.rating_before}? → {won.rating}? (+" in page
    assert "provisional (?)" in page
    profile = client.get("/players/alice/").content.decode()
    assert f">{won.rating}?</strong>" in profile
    api = client.get("/api/v1/players/alice/").json()
    assert api["provisional"] is True and api["rating"] == won.rating


def test_provisional_gains_never_reach_the_leaderboard(client):
    """A fresh account that beats fresh throwaways rises provisionally, while what the
    leaderboard ranks (the counted rating) stays where a new player starts."""
    farmer = players("farmer")[0]
    throwaways = players(*(f"throwaway{i}" for i in range(ESTABLISHED)))
    for i, throwaway in enumerate(throwaways):
        finished_game([farmer, throwaway], seed=i)
    record_results()

    row = rating(farmer)
    assert row.games == ESTABLISHED
    assert recording.shown(row.provisional_mu, row.provisional_sigma) > recording.BASE + 100
    assert row.rating == recording.shown(*recording.new_rating()) == recording.BASE
    board = client.get("/api/v1/leaderboard/").json()
    assert all(entry["rating"] <= recording.BASE for entry in board["results"])
    # Established now: the page shows the counted rating, without "?".
    assert client.get("/api/v1/players/farmer/").json()["provisional"] is False
