"""Words on the pages that a newcomer reads as they are: what "every starting army in one
go" means, a finished game's panel that no longer says "Your move", and dates whose month
Czech and Polish write in full ("29. listopadu", not "29 Lis")."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.template import Context, Template
from django.test import Client
from django.utils import timezone, translation

from tests.games_in_states import finished_game
from tests.people import client_for, with_password
from tests.web.support import started_game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language, words", [
    ("en", "First you place all your starting armies on one form"),
    ("cs", "Nejdřív rozmístíte všechny své počáteční armády v jednom formuláři"),
    ("pl", "Najpierw rozstawiasz wszystkie swoje armie początkowe w jednym formularzu"),
])
def test_the_computer_game_s_help_says_what_placing_in_one_go_means(language, words):
    client = client_for(with_password("alice"))
    client.post("/i18n/setlang/", {"language": language, "next": "/"})
    page = client.get("/games/").content.decode()
    assert words in page
    assert "every starting army placed in one go" not in page


@pytest.mark.parametrize("language, heading, words", [
    ("en", "Game over", "The game is over: its result is at the top of the page"),
    ("cs", "Konec hry", "Hra skončila: výsledek je nahoře na stránce"),
    ("pl", "Koniec gry", "Gra się skończyła: wynik jest na górze strony"),
])
def test_a_finished_game_s_panel_says_it_is_over_not_your_move(language, heading, words):
    alice = with_password("alice")
    game = finished_game([alice, with_password("bob")], turns=1, setup="random")
    client = client_for(alice)
    client.post("/i18n/setlang/", {"language": language, "next": "/"})
    page = client.get(f"/games/{game.pk}/").content.decode()
    panel = page[page.index('<section class="play"'):page.index("</section>", page.index('<section class="play"'))]
    assert f'<h2 id="play-title">{heading}</h2>' in panel
    assert words in panel
    assert "Nothing for you to do" not in panel and "Your move" not in panel


def test_a_watcher_of_a_finished_game_still_reads_watching():
    game = finished_game([with_password("alice"), with_password("bob")], turns=1, setup="random")
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert '<h2 id="play-title">Watching</h2>' in page


@pytest.mark.parametrize("language, long, short", [
    ("en", "29 Nov 2026, 14:03", "29 Nov 14:03"),
    ("cs", "29. listopadu 2026, 14:03", "29. listopadu 14:03"),
    ("pl", "29 listopada 2026, 14:03", "29 listopada 14:03"),
])
def test_dates_name_the_month_as_the_reader_s_language_writes_it(language, long, short):
    moment = datetime(2026, 11, 29, 14, 3, tzinfo=UTC)
    template = Template("{% load manners %}{{ moment|when }}|{{ moment|when:'short' }}")
    with translation.override(language), timezone.override("UTC"):
        assert template.render(Context({"moment": moment})) == f"{long}|{short}"


@pytest.mark.parametrize("language, shape", [
    ("cs", r"\d{1,2}\. [a-zčěřšžýáíéúů]{4,} \d{2}:\d{2}"),
    ("pl", r"\d{1,2} [a-ząćęłńóśźż]{4,} \d{2}:\d{2}"),
])
def test_the_game_log_writes_the_month_in_full_in_czech_and_polish(language, shape):
    alice, bob = with_password("alice"), with_password("bob")
    game = started_game([alice, bob], setup="random")
    client = client_for(alice)
    client.post("/i18n/setlang/", {"language": language, "next": "/"})
    page = client.get(f"/games/{game.pk}/").content.decode()
    log = page[page.index('id="log"'):]
    times = re.findall(r"<time datetime=\"[^\"]+\">([^<]+)</time>", log)
    assert times and all(re.fullmatch(shape, t) for t in times), times[:3]
