"""Games against the computer are named so that they tell apart (the map, the opponents'
levels, a number of their own) and read in the reader's language wherever a game's name
is shown: the name is stored in English, and shown through words.vocabulary.game_title."""

from __future__ import annotations

from django.utils import translation

from games.models import Game
from words.vocabulary import game_title


def play(client, **form) -> Game:
    assert client.post("/games/against-the-computer/", form).status_code == 302
    return Game.objects.order_by("-pk").first()


def test_each_game_against_the_computer_has_a_name_of_its_own(as_alice):
    first = play(as_alice, level="hard", opponents="2")
    second = play(as_alice, level="easy", opponents="1", map="europe")
    third = play(as_alice, level="hard", opponents="2")

    assert first.name == "alice against the computer · Classic · 2 × hard · no. 1"
    assert second.name == "alice against the computer · Europe · easy · no. 2"
    assert third.name == "alice against the computer · Classic · 2 × hard · no. 3"
    lobby = as_alice.get("/games/").content.decode()
    for game in (first, second, third):
        assert f'<a href="/games/{game.pk}/">{game.name}</a>' in lobby


def test_the_name_reads_in_the_readers_language(as_alice):
    game = play(as_alice, level="normal", opponents="1", map="world")

    with translation.override("cs"):
        assert game_title(game.name) == "alice proti počítači · Svět · střední · č. 1"
    with translation.override("pl"):
        assert game_title(game.name) == "alice kontra komputer · Świat · średni · nr 1"

    as_alice.post("/i18n/setlang/", {"language": "pl", "next": "/"})
    lobby = as_alice.get("/games/").content.decode()
    page = as_alice.get(f"/games/{game.pk}/").content.decode()
    for shown in (lobby, page):
        assert "alice kontra komputer · Świat · średni · nr 1" in shown
        assert "against the computer" not in shown


def test_a_name_from_before_reads_in_the_readers_language_too():
    with translation.override("cs"):
        assert game_title("alice against the computer") == "alice proti počítači"
        assert game_title("Moscow 1812") == "Moscow 1812"
