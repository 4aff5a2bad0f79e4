"""The game page asks a player once, the first time the neutral's half falls to them,
whether they place the neutral's armies themselves or have them placed automatically from
now on; each answer is one click and the question is not asked again."""

from __future__ import annotations

import pytest

from accounts.models import Preferences
from games.store.states import load_state
from tests.people import client_for
from tests.play import play_until
from tests.web.support import started_game

pytestmark = pytest.mark.usefixtures("holding_api_tokens")

QUESTION = "Place the neutral's armies yourself, or automatically from now on?"


def _page(user, game) -> str:
    return client_for(user).get(f"/games/{game.pk}/").content.decode().replace("&#x27;", "'")


def _waiting_for_neutral(alice, bob):
    game = started_game([alice, bob], setup="random", neutral=True)
    state = play_until(game, [alice, bob], lambda s: s.phase == "neutral_place")
    return game, state, [alice, bob][state.current], [alice, bob][state.turn_seat]


def test_it_asks_each_player_who_never_chose_from_the_games_start(alice, bob):
    """Offered when the game starts (issue 58), to both players, until they answer."""
    game, _state, placer, mover = _waiting_for_neutral(alice, bob)

    assert QUESTION in _page(placer, game)
    assert QUESTION in _page(mover, game)


def test_it_keeps_the_rule_when_the_placer_places_themselves(alice, bob):
    game, state, placer, _mover = _waiting_for_neutral(alice, bob)
    client = client_for(placer)

    answer = client.post(f"/games/{game.pk}/neutral-question/", {"choice": "ask"})

    assert answer.status_code == 302
    preferences = Preferences.objects.get(user=placer)
    assert preferences.neutral_placement == Preferences.ASK_ME
    assert preferences.neutral_question_answered
    page = _page(placer, game)
    assert QUESTION not in page
    assert 'id="form-place_neutral"' in page
    assert load_state(game).phase == "neutral_place"


def test_it_places_automatically_from_now_on(alice, bob):
    game, state, placer, _mover = _waiting_for_neutral(alice, bob)

    client_for(placer).post(f"/games/{game.pk}/neutral-question/", {"choice": "borders"})

    assert Preferences.objects.get(user=placer).neutral_placement == Preferences.BORDERS
    assert load_state(game).phase != "neutral_place"


def test_it_is_not_asked_of_who_chose_borders_already(alice, bob):
    game, _state, placer, _mover = _waiting_for_neutral(alice, bob)
    Preferences.objects.update_or_create(user=placer,
                                         defaults={"neutral_question_answered": True})

    assert QUESTION not in _page(placer, game)



def test_it_asks_in_czech_and_polish(alice, bob):
    game, _state, placer, _mover = _waiting_for_neutral(alice, bob)
    client = client_for(placer)

    client.post("/i18n/setlang/", {"language": "cs", "next": "/"})
    czech = client.get(f"/games/{game.pk}/").content.decode()
    client.post("/i18n/setlang/", {"language": "pl", "next": "/"})
    polish = client.get(f"/games/{game.pk}/").content.decode()

    assert "Rozmisťovat armády neutrální armády sami, nebo od teď automaticky?" in czech
    assert "Od teď automaticky" in czech
    assert "Rozmieszczać armie neutralne samemu, czy od teraz automatycznie?" in polish
    assert "Od teraz automatycznie" in polish


def test_a_choice_made_on_the_profile_answers_it(alice, bob):
    game, _state, placer, _mover = _waiting_for_neutral(alice, bob)

    client_for(placer).post("/accounts/profile/", {
        "email": placer.email, "time_zone": "UTC", "language": "en", "turn_mail": "each",
        "reminder_hours": "12", "digest_hour": "8", "neutral_placement": "ask"})

    assert Preferences.objects.get(user=placer).neutral_question_answered
    assert QUESTION not in _page(placer, game)
