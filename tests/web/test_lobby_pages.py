"""The lobby lists the newest open games a page at a time (web/views/lobby.py
OPEN_GAMES_SHOWN): "More open games" shows the next ones, keeping the filters, and a page
that cannot be is said, with the newest listed."""

from __future__ import annotations

import re

import pytest

from tests.games_in_states import open_game
from web.views.lobby import OPEN_GAMES_SHOWN

pytestmark = pytest.mark.django_db


def listed(html: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'action="/games/(\d+)/join/"', html)]


def link(html: str, words: str) -> str:
    return re.search(rf'<a href="([^"]*)"[^>]*>{words}</a>', html)[1].replace("&amp;", "&")


@pytest.fixture
def tables(alice):
    return [open_game(alice, 2 + n % 2, f"Table {n}").pk
            for n in range(OPEN_GAMES_SHOWN + 5)]


def test_the_newest_come_first_and_the_rest_on_the_next_page(as_bob, tables):
    first = as_bob.get("/games/").content.decode()
    newest = sorted(tables, reverse=True)

    assert listed(first) == newest[:OPEN_GAMES_SHOWN]
    assert "Newest open games" not in first
    following = as_bob.get("/games/" + link(first, "More open games")).content.decode()
    assert listed(following) == newest[OPEN_GAMES_SHOWN:]
    assert "More open games" not in following
    assert link(following, "Newest open games") == "?"


def test_the_next_page_keeps_the_filters(as_bob, tables):
    first = as_bob.get("/games/?seats=2").content.decode()
    two_seats = sorted((pk for n, pk in enumerate(tables) if n % 2 == 0), reverse=True)

    assert listed(first) == two_seats  # fewer than a page
    assert "More open games" not in first
    page = as_bob.get(f"/games/?seats=2&before={two_seats[4]}").content.decode()
    assert listed(page) == two_seats[5:]
    assert link(page, "Newest open games") == "?seats=2"


@pytest.mark.parametrize("before", ["nope", "-3", "0", "1.5", "%C2%B2", "9" * 40])
def test_a_page_that_cannot_be_is_said_and_the_newest_listed(as_bob, tables, before):
    answer = as_bob.get(f"/games/?before={before}")
    html = answer.content.decode()

    assert answer.status_code == 400
    assert "There is no such page of open games" in html
    assert listed(html) == sorted(tables, reverse=True)[:OPEN_GAMES_SHOWN]
