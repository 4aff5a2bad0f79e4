"""Games against the computer are named so that they tell apart (the map, the opponents'
levels, a number of their own) and read in the reader's language wherever a game's name
is shown: the title is kept as data (Game.title), its English words as the name, and shown
through words.titles.game_title."""

from __future__ import annotations

from django.utils import translation

from games.models import Game
from tests.games_in_states import open_game
from words.titles import game_title


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
    assert second.title == {"kind": "computer", "user": "alice", "map": "europe",
                            "map_name": "Europe", "levels": ["easy"], "number": 2}
    lobby = as_alice.get("/games/").content.decode()
    for game in (first, second, third):
        assert f'<a href="/games/{game.pk}/">{game.name}</a>' in lobby


def test_the_name_reads_in_the_readers_language(as_alice):
    game = play(as_alice, level="normal", opponents="1", map="world")

    with translation.override("cs"):
        assert game_title(game) == "alice proti počítači · Svět · střední · č. 1"
    with translation.override("pl"):
        assert game_title(game) == "alice kontra komputer · Świat · średni · nr 1"

    as_alice.post("/i18n/setlang/", {"language": "pl", "next": "/"})
    lobby = as_alice.get("/games/").content.decode()
    page = as_alice.get(f"/games/{game.pk}/").content.decode()
    for shown in (lobby, page):
        assert "alice kontra komputer · Świat · średni · nr 1" in shown
        assert "against the computer" not in shown


def test_a_game_named_like_one_is_shown_by_its_name_and_not_counted(as_alice, alice):
    named = open_game(alice, 2, "alice against the computer · Classic · hard · no. 7",
                      bots=["hard"])

    assert named.title == {}
    with translation.override("cs"):
        assert game_title(named) == "alice against the computer · Classic · hard · no. 7"
    # Only the games made in one click count: this one is no. 1, not no. 2.
    assert play(as_alice, level="hard", opponents="1").title["number"] == 1


def test_the_titles_kinds_read_in_czech_in_lists_too():
    """The words of each kind of title in Czech, also from a list's row (a mapping): a
    game from before the map and levels were named, and levels of several kinds."""
    before = {"name": "bob against the computer", "title": {"kind": "computer", "user": "bob"}}
    mixed = {"name": "in English", "title": {
        "kind": "computer", "user": "bob", "map": "imported-7", "map_name": "Isles",
        "levels": ["hard", "easy", "hard"], "number": 12}}
    with translation.override("cs"):
        assert game_title(before) == "bob proti počítači"
        assert game_title(mixed) == "bob proti počítači · Isles · lehký, 2 × těžký · č. 12"
        assert game_title({"name": "Moscow 1812", "title": {}}) == "Moscow 1812"
