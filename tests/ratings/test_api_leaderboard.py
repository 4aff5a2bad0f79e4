"""GET /api/v1/leaderboard/: the best ratings, paginated, by game size, enough games."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from ratings import standings as board
from ratings.tasks import record_results
from tests.games.api_support import assert_error
from tests.ratings.support import finished_game, players

pytestmark = pytest.mark.django_db


def get(query=""):
    return APIClient().get(f"/api/v1/leaderboard/{query}")


@pytest.fixture
def played(db):
    alice, bob, dave = players("alice", "bob", "dave")
    finished_game([alice, bob])            # alice beats bob twice at two seats
    finished_game([bob, alice], leave=[bob])
    finished_game([alice, bob, dave], leave=[dave, bob])  # dave plays once only
    record_results()
    return alice, bob, dave


def test_it_lists_players_with_enough_games_best_first(played):
    body = get().json()

    assert [row["username"] for row in body["results"]] == ["alice", "bob"]
    assert body["results"][0]["rank"] == 1 and body["results"][0]["games"] == 3
    assert body["results"][0]["rating"] > body["results"][1]["rating"]
    assert body["count"] == 2 and body["min_games"] == 2 and body["page"] == 1


def test_it_filters_by_game_size(played):
    body = get("?players=3").json()

    assert body["players"] == 3 and body["results"] == []  # one three-seat game each
    assert [r["username"] for r in get("?players=2").json()["results"]] == ["alice", "bob"]


def test_it_pages(played, monkeypatch):
    monkeypatch.setattr(board, "PAGE_SIZE", 1)

    first, second = get().json(), get("?page=2").json()

    assert first["pages"] == 2 and first["next"] == 2 and first["previous"] is None
    assert [r["username"] for r in second["results"]] == ["bob"] and second["page"] == 2
    assert second["results"][0]["rank"] == 2
    assert_error(get("?page=3"), 404, "not_found")


@pytest.mark.parametrize("query", ["?players=7", "?players=x", "?page=0", "?page=-1",
                                   "?page=1e3", "?players=%00",
                                   # "²".isdigit() and "٣".isdigit() are true.
                                   "?players=%C2%B2", "?players=%D9%A3", "?page=%C2%B2",
                                   "?page=%D9%A3", "?page=" + "9" * 5000])
def test_bad_queries_get_a_clear_400(db, query):
    assert_error(get(query), 400, "bad_request")
