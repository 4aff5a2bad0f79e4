"""What a private game gives a player's public statistics: its rating change counts in the
rating, and nothing else of it (its time, map, rules, result, luck) shows to a reader who
may not know of the game, on the player page, in the API or on the leaderboards. Its
players read their statistics whole."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Game
from ratings.models import PlayerResult, Rating
from ratings.tasks import record_results
from tests.people import client_for
from tests.ratings.support import finished_game, players

pytestmark = pytest.mark.django_db


@pytest.fixture
def games(db):
    """alice beats bob in a public game on the classic map, then in a private one on the
    islands with fog of war."""
    alice, bob = players("alice", "bob")
    public = finished_game([alice, bob])
    secret = finished_game([alice, bob], seed=2, map_id="islands", fog=True)
    Game.objects.filter(pk=secret.pk).update(private=True)
    record_results()
    return public, secret


def profile(client) -> dict:
    answer = client.get("/api/v1/players/alice/")
    assert answer.status_code == 200, answer.content
    return answer.json()


def test_an_outsider_reads_public_games_only_but_the_whole_rating(games):
    public, secret = games
    alice = PlayerResult.objects.get(game=public, user__username="alice").user
    overall = Rating.objects.get(user=alice, pool=0)
    for client in (APIClient(), client_for(players("charlie")[0])):
        answer = client.get("/api/v1/players/alice/")
        data = answer.json()
        assert (data["games"], data["wins"], data["average_placement"]) == (1, 1, 1.0)
        assert data["favourite_maps"] == [{"map": "classic", "name": "Classic", "games": 1}]
        assert not [f for f in data["favourite_options"] if f["option"] == "fog"]
        assert [point["game"] for point in data["history"]] == [public.pk]
        assert [point["game"] for point in data["luck"]["per_game"]] in ([], [public.pk])
        assert data["luck"]["battles"] == PlayerResult.objects.get(
            game=public, user=alice).battles
        finished = PlayerResult.objects.get(game=secret, user=alice).finished_at
        assert finished.isoformat() not in answer.content.decode()
        # the rating is the whole rating, the private game's change included
        assert (data["rating"], data["rated_games"]) == (overall.rating, 2)


def test_the_players_of_the_private_game_read_it_whole(games):
    public, secret = games
    for name in ("alice", "bob"):
        data = profile(client_for(players(name)[0]))
        assert (data["games"], data["wins"]) == (2, 2)
        assert [point["game"] for point in data["history"]] == [public.pk, secret.pk]
        assert {m["map"] for m in data["favourite_maps"]} == {"classic", "islands"}
        assert {"option": "fog", "value": True, "games": 1} in data["favourite_options"]


def test_the_player_page_agrees_with_the_api(games):
    outsider = Client().get("/players/alice/").content.decode()
    assert '<dd id="games-played">1</dd>' in outsider
    assert '<dd id="games-won">1</dd>' in outsider
    assert "Four Isles" not in outsider
    own = client_for(players("alice")[0]).get("/players/alice/").content.decode()
    assert '<dd id="games-played">2</dd>' in own and "Four Isles" in own

    def chart_points(page):
        return page.split('<polyline points="')[1].split('"')[0].count(",")

    # the rating chart: the start, then one point per game the reader may know of
    assert (chart_points(outsider), chart_points(own)) == (2, 3)


def test_the_leaderboards_count_public_games_only(games):
    rows = {row["username"]: row for row in
            APIClient().get("/api/v1/leaderboard/").json()["results"]}
    assert set(rows) == {"alice", "bob"}  # both have two rated games
    assert (rows["alice"]["games"], rows["alice"]["wins"],
            rows["alice"]["average_placement"]) == (1, 1, 1.0)
    assert (rows["bob"]["games"], rows["bob"]["wins"],
            rows["bob"]["average_placement"]) == (1, 0, 2.0)
    assert rows["alice"]["rating"] == profile(APIClient())["rating"]
    two = {row["username"]: row["games"] for row in
           APIClient().get("/api/v1/leaderboard/?players=2").json()["results"]}
    assert two == {"alice": 1, "bob": 1}
    page = Client().get("/leaderboard/").content.decode()
    row = page.split('data-username="alice"')[1].split("</tr>")[0]
    assert "<td>1</td><td>1</td><td>1.0</td>" in row
