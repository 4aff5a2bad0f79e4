"""The game page's history: a finished game says how it ended at every move shown, and the
history view steps through the moves with links that work without JavaScript."""

from __future__ import annotations

import re

from games import service
from games.models import Game
from tests.people import client_for, with_password
from tests.play import play_until
from tests.web.support import started_game


def header(page: str) -> str:
    return re.search(r'<p class="state">(.*?)</p>', page, re.S).group(1)


def test_it_names_the_winner_of_a_finished_game_at_a_past_move(alice, bob, client):
    game = started_game([alice, bob], setup="random")
    play_until(game, [alice, bob], lambda s: s.turn >= 2)
    service.submit(service.player(bob), game, {"type": "resign"})
    game.refresh_from_db()
    assert game.status == Game.FINISHED

    past = header(client.get(f"/games/{game.pk}/?at=5").content.decode())
    now = header(client.get(f"/games/{game.pk}/").content.decode())

    for shown in (past, now):
        assert "Red (alice) won" in shown, shown
        assert "every other player is out" in shown
        assert "()" not in shown


def test_it_names_the_winning_team_at_a_past_move(db):
    four = [with_password("alice"), with_password("bob"), with_password("carol"), with_password("dave")]
    game = started_game(four, setup="random", team_size=2)
    service.submit(service.player(four[1]), game, {"type": "resign"})
    service.submit(service.player(four[3]), game, {"type": "resign"})
    game.refresh_from_db()

    page = client_for(four[2]).get(f"/games/{game.pk}/?at=3").content.decode()

    assert "Team 1 (Red (alice), Green (carol)) won" in header(page)
    assert "after move 3 of" in page


def step_links(page: str) -> dict[str, str]:
    nav = re.search(r'<nav class="steps".*?</nav>', page, re.S).group(0)
    return dict((step, href.replace("&amp;", "&")) for href, step in
                re.findall(r'<a href="([^"]*)"[^>]*data-step="([a-z]+)"', nav))


def test_it_offers_step_links_that_agree_with_the_move_shown(alice, bob, client):
    game = started_game([alice, bob], setup="random")
    play_until(game, [alice, bob], lambda s: s.turn >= 2)
    game.refresh_from_db()
    base = f"/games/{game.pk}/"

    middle = client.get(f"{base}?at=7").content.decode()
    first = client.get(f"{base}?at=1").content.decode()
    live = client.get(base).content.decode()

    assert step_links(middle) == {"first": f"{base}?at=1#board", "back": f"{base}?at=6#board",
                                  "forward": f"{base}?at=8#board", "last": f"{base}#board"}
    assert 'value="7"' in re.search(r'<input type="range"[^>]*>', middle).group(0)
    # At the first move there is no going back; live, no going forward.
    assert set(step_links(first)) == {"forward", "last"}
    assert set(step_links(live)) == {"first", "back"}
    assert step_links(live)["back"] == f"{base}?at={game.version - 1}#board"
    # The slider keeps no value of its own over a reload: the page's move wins.
    assert re.search(r'<form class="history"[^>]*autocomplete="off"', middle)


def test_an_address_past_the_present_leads_to_the_present(alice, bob, client):
    game = started_game([alice, bob], setup="random")
    play_until(game, [alice, bob], lambda s: s.version >= 8)
    game.refresh_from_db()
    base = f"/games/{game.pk}/"

    for at in (str(game.version), "999", "0", "x"):
        answer = client.get(f"{base}?at={at}&log=all")
        assert answer.status_code == 302 and answer["Location"] == f"{base}?log=all", at
    assert client.get(f"{base}?at={game.version - 1}").status_code == 200
