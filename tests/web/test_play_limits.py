"""The play form counts against the API's command limits (one count per account, accepted or
refused): past them it answers 429 "too fast" with Retry-After and draws no game."""

from __future__ import annotations

import pytest

from tests.games.api_support import send
from tests.people import api_client_for
from tests.web.support import events, post_play, started_game

REFUSED = {"type": "end_turn", "version": "1"}  # a stale form: refused, and counted


@pytest.fixture
def limited(settings):
    def limit(scope: str, rate: str):
        settings.CONQUEST_THROTTLE_RATES = {**settings.CONQUEST_THROTTLE_RATES, scope: rate}
    return limit


def test_it_answers_429_too_fast_once_an_account_sent_too_many(alice, bob, as_alice, limited):
    limited("command_user", "5/minute")
    game = started_game([alice, bob])
    answers = [post_play(as_alice, game, {"type": "set_defense", "policy": "sideways"})
               for _ in range(5)]
    before = events(game)

    refused = post_play(as_alice, game, {"type": "set_defense", "policy": "one"})

    assert [a.status_code for a in answers] == [400] * 5  # refused ones count too
    html = refused.content.decode()
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too fast: wait" in html and 'role="alert"' in html
    assert 'id="board"' not in html and 'id="play"' not in html  # no game drawn
    assert events(game) == before


def test_the_api_and_the_form_share_one_count(alice, bob, as_alice, limited):
    limited("command_user", "4/minute")
    game = started_game([alice, bob])
    api = api_client_for(alice)
    for _ in range(2):
        assert send(api, game.pk, {"type": "set_defense", "policy": "one"}).status_code == 201
        assert post_play(as_alice, game, {"type": "set_defense", "policy": "max"}).status_code \
            == 302

    assert post_play(as_alice, game, {"type": "set_defense", "policy": "one"}).status_code \
        == 429
    assert send(api, game.pk, {"type": "set_defense", "policy": "one"}).status_code == 429


def test_under_htmx_it_puts_the_sentence_above_the_forms(alice, bob, as_alice, limited):
    limited("command_user", "0/minute")
    game = started_game([alice, bob])

    refused = post_play(as_alice, game, {"type": "set_defense", "policy": "one"},
                        HTTP_HX_REQUEST="true")

    assert refused.status_code == 429
    assert (refused["HX-Retarget"], refused["HX-Reswap"]) == ("#play", "afterbegin")
    assert refused.content.decode().startswith('<p class="error too-fast" role="alert">Too fast')


def test_it_says_so_in_the_players_language(alice, bob, as_alice, limited):
    limited("command_user", "0/minute")
    game = started_game([alice, bob])

    refused = post_play(as_alice, game, {"type": "set_defense", "policy": "one"},
                        HTTP_ACCEPT_LANGUAGE="cs")

    assert refused.status_code == 429
    assert "Příliš rychle" in refused.content.decode()
