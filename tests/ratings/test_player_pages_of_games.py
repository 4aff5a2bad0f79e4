"""A player's finished games in pages: the newest first, then ?before= the cursor the page
gave (recent_next), on the API and the player page alike; a bad cursor is a 400."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from ratings import standings as player_records
from ratings.tasks import record_results
from tests.games.api_support import assert_error
from tests.ratings.support import finished_game, players

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_games(monkeypatch):
    monkeypatch.setattr(player_records, "RECENT", 2)
    alice, bob = players("alice", "bob")
    games = [finished_game([alice, bob], seed=seed) for seed in (1, 2, 3)]
    record_results()
    return games


def test_it_pages_the_finished_games_by_cursor(three_games):
    first = APIClient().get("/api/v1/players/alice/").json()
    second = APIClient().get("/api/v1/players/alice/",
                             {"before": first["recent_next"]}).json()

    newest_first = [game.pk for game in reversed(three_games)]
    assert [g["id"] for g in first["recent"]] == newest_first[:2]
    assert [g["id"] for g in second["recent"]] == newest_first[2:]
    assert second["recent_next"] is None
    assert first["games"] == second["games"] == 3  # the record counts every game
    assert first["history_complete"] is True


def test_the_player_page_links_the_older_games(three_games):
    page = Client().get("/players/alice/").content.decode()
    cursor = APIClient().get("/api/v1/players/alice/").json()["recent_next"]

    assert f'before={cursor}' in page
    older = Client().get(f"/players/alice/?before={cursor}").content.decode()
    assert f'href="/games/{three_games[0].pk}/"' in older
    assert f'href="/games/{three_games[2].pk}/"' not in older


@pytest.mark.parametrize("cursor", ["x", "1.", "999999999999999999.1", "1.2.3", "١.1"])
def test_a_bad_cursor_is_a_400_not_a_500(cursor):
    players("alice")
    assert_error(APIClient().get("/api/v1/players/alice/", {"before": cursor}),
                 400, "bad_filter")
    assert Client().get("/players/alice/", {"before": cursor}).status_code == 400
