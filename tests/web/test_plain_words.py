"""Words on the pages that a newcomer reads as they are: what "every starting army in one
go" means, and a finished game's panel that no longer says "Your move"."""

from __future__ import annotations

import pytest
from django.test import Client

from games import write
from tests.play import play_until
from tests.web.support import client_for, started_game, user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language, words", [
    ("en", "First you place all your starting armies on one form"),
    ("cs", "Nejdřív rozmístíte všechny své počáteční armády v jednom formuláři"),
    ("pl", "Najpierw rozstawiasz wszystkie swoje armie początkowe w jednym formularzu"),
])
def test_the_computer_game_s_help_says_what_placing_in_one_go_means(language, words):
    client = client_for(user("alice"))
    client.post("/i18n/setlang/", {"language": language, "next": "/"})
    page = client.get("/games/").content.decode()
    assert words in page
    assert "every starting army placed in one go" not in page


def finished_game():
    alice, bob = user("alice"), user("bob")
    game = started_game([alice, bob], setup="random")
    play_until(game, [alice, bob], lambda s: s.phase == "attack" and s.turn >= 2)
    write.submit(write.player(bob), game, {"type": "resign"})
    return game, alice


@pytest.mark.parametrize("language, heading, words", [
    ("en", "Game over", "The game is over: its result is at the top of the page"),
    ("cs", "Konec hry", "Hra skončila: výsledek je nahoře na stránce"),
    ("pl", "Koniec gry", "Gra się skończyła: wynik jest na górze strony"),
])
def test_a_finished_game_s_panel_says_it_is_over_not_your_move(language, heading, words):
    game, alice = finished_game()
    client = client_for(alice)
    client.post("/i18n/setlang/", {"language": language, "next": "/"})
    page = client.get(f"/games/{game.pk}/").content.decode()
    panel = page[page.index('<section class="play"'):page.index("</section>", page.index('<section class="play"'))]
    assert f'<h2 id="play-title">{heading}</h2>' in panel
    assert words in panel
    assert "Nothing for you to do" not in panel and "Your move" not in panel


def test_a_watcher_of_a_finished_game_still_reads_watching():
    game, _ = finished_game()
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert '<h2 id="play-title">Watching</h2>' in page
