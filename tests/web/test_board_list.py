"""The board as a list (/games/{id}/board/), for screen readers: every territory with its
owner, armies and neighbours, fogged ones with neither owner nor armies; reachable from the
game page (its first tab stop skips to the move, the next one to this list)."""

from __future__ import annotations

import re

from engine.board import NEIGHBOURS, TERRITORIES
from games.store.states import load_state
from tests.engine import fog_referee
from tests.people import client_for, with_password
from tests.web.support import started_game
from words.vocabulary import territory_name


def rows(page: str) -> dict[str, list[str]]:
    """territory id -> [territory, owner, armies, neighbours] as the list shows them."""
    found = {}
    for territory, body in re.findall(r'<tr data-territory="(\w+)"[^>]*>(.*?)</tr>', page, re.S):
        cells = [re.sub(r"<[^>]+>", "", c).strip()
                 for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", body, re.S)]
        found[territory] = cells
    return found


def test_the_list_shows_every_territory_with_owner_armies_and_neighbours(db):
    alice, bob, carol = with_password("alice"), with_password("bob"), with_password("carol")
    game = started_game([alice, bob, carol], setup="random")
    state = load_state(game)
    page = client_for(alice).get(f"/games/{game.pk}/board/").content.decode()
    listed = rows(page)
    assert set(listed) == set(TERRITORIES)
    names = {0: "Red (alice)", 1: "Blue (bob)", 2: "Green (carol)"}
    for territory, (name, owner, armies, neighbours) in listed.items():
        assert name == territory_name(territory)
        assert owner.startswith(names[state.owner[territory]])
        assert ("(yours)" in owner) == (state.owner[territory] == 0)
        assert armies == str(state.armies[territory])
        assert neighbours.split(", ") == [territory_name(n) for n in NEIGHBOURS[territory]]


def test_the_list_keeps_the_fog(db):
    four = [with_password("alice"), with_password("bob"), with_password("carol"), with_password("dave")]
    game = started_game(four, setup="random", team_size=2, fog=True)
    state = load_state(game)
    sees = fog_referee.allowed(state.owner, 0, 4, 2)
    listed = rows(client_for(four[0]).get(f"/games/{game.pk}/board/").content.decode())
    for territory, (_, owner, armies, _) in listed.items():
        if territory in sees:
            assert armies == str(state.armies[territory]) and "team" in owner, territory
        else:
            assert (owner, armies) == ("out of sight", "?"), territory
    spectator = rows(client_for(with_password("eve")).get(f"/games/{game.pk}/board/").content.decode())
    assert all(cells[1:3] == ["out of sight", "?"] for cells in spectator.values())


def test_the_list_follows_the_history(db):
    alice, bob = with_password("alice"), with_password("bob")
    game = started_game([alice, bob], setup="random")
    first = load_state(game, 2)
    listed = rows(client_for(alice).get(f"/games/{game.pk}/board/?at=2").content.decode())
    assert all(cells[2] == str(first.armies[t]) for t, cells in listed.items())


def test_the_game_page_skips_to_the_move_and_links_the_list(db):
    alice, bob = with_password("alice"), with_password("bob")
    game = started_game([alice, bob], setup="random")
    page = client_for(alice).get(f"/games/{game.pk}/").content.decode()
    body = page[page.index("<body"):]
    links = re.findall(r'<a class="skip" href="([^"]+)">([^<]+)</a>', body)
    assert links[0][0] == "#play"
    assert links[1] == (f"/games/{game.pk}/board/", "The board as a list")
    assert body.index('class="skip"') < body.index("<header")
    assert 'id="play"' in page and "{#" not in page and "Shown by board_zoom.js" not in page
