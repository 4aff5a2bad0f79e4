"""The player page and the leaderboard page: server-drawn charts, links, form messages."""

from __future__ import annotations

import pytest
from django.test import Client

from ratings.tasks import record_results
from tests.ratings.support import finished_game, players

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(db):
    alice, bob = players("alice", "bob")
    first = finished_game([alice, bob])
    finished_game([bob, alice], leave=[bob])
    record_results()
    return first


def test_the_player_page_shows_the_rating_its_chart_and_replays(played):
    page = Client().get("/players/alice/")

    text = page.content.decode()
    assert page.status_code == 200
    assert 'id="rating"' in text and "±" in text
    assert '<svg class="chart rating-chart"' in text and "<polyline" in text
    assert f'href="/games/{played.pk}/?at=1"' in text
    assert '<dd id="games-won">2</dd>' in text
    assert "<script" not in text.split("</head>")[1]  # the chart needs no script


def test_an_unknown_player_page_is_a_404():
    assert Client().get("/players/nobody/").status_code == 404


def test_the_leaderboard_page_lists_and_links_players(played):
    text = Client().get("/leaderboard/?players=2").content.decode()

    assert 'data-username="alice"' in text and 'href="/players/alice/"' in text
    assert text.index('data-username="alice"') < text.index('data-username="bob"')


@pytest.mark.parametrize("query", ["?players=9", "?page=nope", "?page=99",
                                   "?players=%C2%B2", "?page=%C2%B2", "?players=%D9%A3"])
def test_a_bad_leaderboard_query_gets_a_message_not_a_500(played, query):
    page = Client().get(f"/leaderboard/{query}")

    assert page.status_code == 400
    assert 'class="error"' in page.content.decode()


def test_the_site_navigation_links_the_leaderboard(played):
    text = Client().get("/").content.decode()

    assert 'href="/leaderboard/"' in text


def test_the_player_page_names_the_favourite_maps_in_the_reader_s_language():
    alice, bob = players("alice", "bob")
    finished_game([alice, bob], map_id="islands")
    record_results()
    for language, name in (("en", "Four Isles"), ("cs", "Čtyři ostrovy"),
                           ("pl", "Cztery wyspy")):
        text = Client().get("/players/alice/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        maps = text.split('id="favourite-maps">')[1].split("</dd>")[0]
        assert f'<a href="/maps/islands/">{name}</a> (1 ' in maps, maps
    assert "Favourite maps" in Client().get("/players/alice/").content.decode()
    assert "Oblíbené mapy" in Client().get("/players/alice/",
                                           HTTP_ACCEPT_LANGUAGE="cs").content.decode()
