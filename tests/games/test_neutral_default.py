"""The two-player neutral's half placed for players who never chose (issue 58): on by
default for a player of the site, kept off for one who chose to place it, and off for an
API client until it chooses, so the contract's `neutral_place` and `place_neutral` still
come to a program that never set the preference."""

from __future__ import annotations

import random

from django.utils import translation

from accounts.models import Preferences
from games.models import Game
from tests.games.api_support import play, send
from tests.games_in_states import new_game
from tests.people import api_client_for, client_for, token_client_for, user

PREFERENCES = "/api/v1/preferences/"


def people():
    """Two users of the site (this folder's alice and bob are API clients holding tokens)."""
    return user("dora"), user("eve")


def _to_reinforcement(mover_client, placer_client):
    """A two-player game with the neutral at a reinforce phase; (game id,
    state, the mover's client, the placer's client)."""
    game_id = new_game(mover_client, placer_client, initial_placement="simultaneous")
    clients = {0: mover_client, 1: placer_client}
    state = play(game_id, clients, random.Random(7), until=lambda s: s.phase == "reinforce"
                 and not s.trade_owed(s.current))
    return game_id, state, clients[state.current], clients[1 - state.current]


def _place_all(client, game_id, state):
    own = state.territories_of(state.current)[0]
    answer = send(client, game_id, {"type": "place", "placements": {own: state.reinforcements}})
    assert answer.status_code == 201, answer.content
    return Game.objects.get(pk=game_id)


def test_a_player_who_never_chose_has_the_neutrals_half_placed_and_nobody_waits(db):
    alice, bob = people()
    game_id, state, mover, placer = _to_reinforcement(api_client_for(alice),
                                                      api_client_for(bob))
    assert placer.get(PREFERENCES).json() == {"neutral_placement": "borders"}

    game = _place_all(mover, game_id, state)

    assert game.phase == "attack" and game.current_seat == state.current


def test_a_player_who_chose_to_place_it_keeps_the_choice(db):
    alice, bob = people()
    for someone in (alice, bob):
        assert api_client_for(someone).patch(PREFERENCES, {"neutral_placement": "ask"},
                                          format="json").status_code == 200
    game_id, state, mover, placer = _to_reinforcement(api_client_for(alice),
                                                      api_client_for(bob))

    game = _place_all(mover, game_id, state)

    assert game.phase == "neutral_place" and game.current_seat == 1 - state.current
    assert placer.get(PREFERENCES).json() == {"neutral_placement": "ask"}


def test_an_api_client_that_never_chose_places_it_by_hand_as_the_contract_says(db):
    alice, bob = people()
    game_id, state, mover, placer = _to_reinforcement(token_client_for(alice),
                                                      token_client_for(bob))
    assert placer.get(PREFERENCES).json() == {"neutral_placement": "ask"}

    game = _place_all(mover, game_id, state)

    assert game.phase == "neutral_place" and game.current_seat == 1 - state.current
    view = placer.get(f"/api/v1/games/{game_id}/").json()
    owed = view["pending"]["reinforcements"]
    neutral = next(t for t, spot in view["territories"].items() if spot["owner"] == "neutral")
    answer = send(placer, game_id, {"type": "place_neutral", "placements": {neutral: owed}})
    assert answer.status_code == 201, answer.content
    assert Game.objects.get(pk=game_id).phase == "attack"
    assert not Preferences.objects.filter(user__in=[alice, bob],
                                          neutral_question_answered=True).exists()


def test_the_game_page_offers_the_choice_from_the_start_in_one_sentence(db):
    alice, bob = people()
    game_id = new_game(api_client_for(alice), api_client_for(bob),
                       initial_placement="simultaneous")
    for language, sentence in (
            ("en", "so nobody waits a turn for it."),
            ("cs", "takže nikdo nečeká celý tah."),
            ("pl", "więc nikt nie czeka całej tury.")):
        with translation.override(language):
            client = client_for(bob)
            client.cookies["django_language"] = language
            page = client.get(f"/games/{game_id}/").content.decode()
        assert 'id="neutral-question"' in page and sentence in page
        assert 'value="ask"' in page
    # Answered ("I place them myself"): kept, and not offered again.
    assert client_for(bob).post(f"/games/{game_id}/neutral-question/",
                                {"choice": "ask"}).status_code == 302
    assert 'id="neutral-question"' not in client_for(bob).get(f"/games/{game_id}/").content.decode()
    assert Preferences.objects.get(user=bob).neutral_placement == Preferences.ASK_ME
