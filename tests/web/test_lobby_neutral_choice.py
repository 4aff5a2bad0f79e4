"""The lobby's two-player game with the neutral offers, with a line saying why, whether the
other player places the neutral's armies (the turn waits for them) or they are placed at
once on the mover's borders (nobody waits)."""

from __future__ import annotations

from games.models import Game
from tests.web.test_lobby import BASE

TWO = {**BASE, "players": "2", "preset": "two_neutral"}


def test_it_offers_the_choice_with_its_reason(as_alice):
    page = as_alice.get("/games/").content.decode().replace("&#x27;", "'")

    assert 'id="field-neutral_choice"' in page
    assert "Two players with neutral: the neutral's armies" in page
    assert "placed automatically on the mover's borders" in page
    assert "each turn stops in the middle until they have placed them" in page


def test_it_creates_the_game_that_places_them_on_the_borders(as_alice):
    as_alice.post("/games/new/", {**TWO, "neutral_choice": "borders"})

    rules = Game.objects.get().rules
    assert (rules["neutral"], rules["neutral_reinforcement"]) == (True, "borders")


def test_it_keeps_the_rulebooks_wait_by_default(as_alice):
    as_alice.post("/games/new/", TWO)

    assert Game.objects.get().rules["neutral_reinforcement"] == "opponent"


def test_the_choice_leaves_other_presets_alone(as_alice):
    as_alice.post("/games/new/", {**BASE, "preset": "classic", "neutral_choice": "borders"})

    assert Game.objects.get().rules["neutral_reinforcement"] == "opponent"


def test_it_offers_the_choice_in_czech_and_polish(as_alice):
    as_alice.post("/i18n/setlang/", {"language": "cs", "next": "/"})
    czech = as_alice.get("/games/").content.decode()
    as_alice.post("/i18n/setlang/", {"language": "pl", "next": "/"})
    polish = as_alice.get("/games/").content.decode()

    assert "Dva hráči s neutrální armádou: armády neutrální armády" in czech
    assert "rozmístěny automaticky na hranice hráče na tahu" in czech
    assert "Dwóch graczy z armią neutralną: armie neutralne" in polish
    assert "rozmieszczane automatycznie na granicach gracza, który ma ruch" in polish
