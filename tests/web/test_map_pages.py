"""The maps' pages: the index, a map's page (drawing by continent, bonuses, table sizes,
missions, the link to start a game on it), its cached thumbnail, the lobby's picker and the
API's thumbnail URL."""

from __future__ import annotations

import re

import pytest

from engine.maps import classic
from games.boards import board_of_map
from web.drawing import drawing_of, simplified


@pytest.mark.django_db
def test_the_index_lists_every_map_with_its_size_and_thumbnail(client, islands):
    html = client.get("/maps/").content.decode()

    assert 'data-map="classic"' in html and 'data-map="test_islands"' in html
    assert "Test Islands" in html and "10 territories" in html and "2–4 players" in html
    assert 'src="/maps/test_islands/thumbnail.svg"' in html


@pytest.mark.django_db
def test_a_map_page_shows_its_drawing_continents_tables_and_missions(client, islands):
    response = client.get("/maps/test_islands/")
    html = response.content.decode()

    assert response.status_code == 200
    assert html.count("data-territory=") == 2 * 10  # the drawing and the continents' tables
    assert 'class="continent-outline c-0"' in html and 'class="continent-outline c-2"' in html
    assert "The North <strong>+3</strong>" in html and "The East <strong>+2</strong>" in html
    row = re.search(r'<tr data-territory="fjord"><th scope="row">Fjord</th><td>(.*?)</td>', html)
    assert row.group(1) == "North Cape, Heath, Dune"
    assert re.search(r'<tr data-players="3"><th scope="row">3</th><td>15</td><td>3 ', html)
    assert "Conquer The North and The South" in html
    assert "Destroy all armies of the colour on the card (if that colour is yours or gone: " \
           "Occupy 7 territories with at least 2 armies on each)" in html
    assert "Occupy 7 territories with at least 2 armies on each" in html
    assert 'href="/games/?map=test_islands#create-game"' in html
    # the drawing: every shape, a lane the map drew and one drawn straight between labels
    assert 'd="M140 20H260V120H140Z"' in html
    assert 'data-border="fjord dune"><path d="M200 70L400 70"/>' in html


@pytest.mark.django_db
def test_a_map_page_speaks_the_readers_language(client, islands):
    html = client.get("/maps/test_islands/", HTTP_ACCEPT_LANGUAGE="cs").content.decode()

    assert "<h1>Testovací ostrovy</h1>" in html and "Stolová hora" in html and "Sever" in html
    html = client.get("/maps/test_islands/", HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert "<h1>Wyspy testowe</h1>" in html and "Płaskowyż" in html


@pytest.mark.django_db
def test_the_classic_map_page_draws_its_42_territories(client):
    html = client.get("/maps/classic/").content.decode()

    assert html.count('<g class="territory" data-territory=') == 42
    assert "continent-outline c-north_america" in html and "Australia <strong>+2</strong>" in html


@pytest.mark.django_db
def test_an_unknown_map_is_not_found(client):
    for url in ("/maps/atlantis/", "/maps/atlantis/thumbnail.svg", "/maps/%3Cb%3E/"):
        assert client.get(url).status_code == 404


@pytest.mark.django_db
def test_the_thumbnail_is_a_small_cached_svg_filled_by_continent(client, islands):
    response = client.get("/maps/test_islands/thumbnail.svg")
    svg = response.content.decode()

    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    assert "max-age=86400" in response["Cache-Control"] and "public" in response["Cache-Control"]
    assert response["ETag"] == f'"{islands.hash}"'
    assert "default-src 'none'" in response["Content-Security-Policy"]
    assert 'width="240" height="160"' in svg
    fills = re.findall(r'<g data-continent="(\w+)" fill="(#\w+)"', svg)
    assert [c for c, _ in fills] == ["north", "south", "east"]
    assert len({fill for _, fill in fills}) == 3
    assert svg.count("<path data-territory=") == 10
    again = client.get("/maps/test_islands/thumbnail.svg", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304


@pytest.mark.django_db
def test_the_api_lists_each_maps_thumbnail(client, islands):
    listed = {m["id"]: m for m in client.get("/api/v1/maps/").json()}

    assert listed["test_islands"]["thumbnail"] == "http://testserver/maps/test_islands/thumbnail.svg"
    assert listed["classic"]["thumbnail"].endswith("/maps/classic/thumbnail.svg")
    assert client.get("/maps/classic/thumbnail.svg")["ETag"] == f'"{classic().hash}"'


def test_a_thumbnail_leaves_out_the_detail_it_cannot_show():
    # A ring of 8 points 0.1 off a square's sides: at a grain of 1 unit, the square.
    wobbly = "M0 0 5 0.1 10 0 10.1 5 10 10 5 9.9 0 10 0.1 5Z"
    assert simplified(wobbly, 1) == "M0 0 10 0 10 10 0 10Z"
    # At a finer grain than its wobble, every point stays (rounded to a tenth of the grain).
    assert simplified(wobbly, 0.05) == "M0 0 5 0.1 10 0 10.1 5 10 10 5 9.9 0 10 0.1 5Z"
    # An islet under the grain goes, the rest of the shape stays; a shape all of islets stays.
    assert simplified("M0 0 40 0 40 40 0 40ZM60 60 60.5 60 60.5 60.5Z", 2) == "M0 0 40 0 40 40 0 40Z"
    assert simplified("M60 60 60.5 60 60.5 60.5Z", 2) == "M60 60 60.5 60 60.5 60.5Z"
    # Commas between the numbers are read too; path data other than polygons (a curve, a
    # number without its pair) is drawn as it is.
    assert simplified("M0,0 10,0 10,10Z", 1) == "M0 0 10 0 10 10Z"
    for other in ("M0 0C1 1 2 2 3 3Z", "M0 0 1 1 2Z"):
        assert simplified(other, 1) == other


def test_the_world_maps_thumbnail_is_light_and_keeps_every_territory(client, db):
    board = board_of_map("world")
    svg = client.get("/maps/world/thumbnail.svg").content.decode()
    full = sum(len(path) for path in drawing_of(board).shapes.values())

    assert len(svg) < full / 4  # 49 KB of 297 KB of shapes
    assert svg.count("<path data-territory=") == len(board.territories)
    assert all(f'data-territory="{t}" d="M' in svg for t in board.territories)
