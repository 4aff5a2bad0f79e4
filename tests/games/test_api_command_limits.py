"""POST /api/v1/games/{id}/commands/: commands are limited per account and per address (429
with Retry-After, counted whether the command is accepted or refused)."""

from __future__ import annotations

import pytest

from config.settings import CONQUEST_THROTTLE_RATES as SHIPPED_RATES  # not the tests' own
from tests.games.api_support import assert_error, send, unchanged
from tests.games_in_states import new_game


@pytest.fixture
def limited(settings):
    def limit(scope: str, rate: str):
        settings.CONQUEST_THROTTLE_RATES = {**settings.CONQUEST_THROTTLE_RATES, scope: rate}
    return limit


def test_it_answers_429_with_retry_after_once_an_account_sent_too_many(person, limited):
    limited("command_user", "5/minute")
    alice, bob = person("alice"), person("bob")
    game_id = new_game(alice, bob)

    answers = [send(alice, game_id, {"type": "end_turn", "foo": 1}) for _ in range(6)]

    assert [a.status_code for a in answers[:5]] == [400] * 5  # refused ones count too
    refused = assert_error(answers[5], 429, "throttled")
    assert int(answers[5]["Retry-After"]) > 0 and "seconds" in refused["detail"]
    assert send(bob, game_id, {"type": "end_turn"}).status_code != 429  # another account


def test_the_accounts_of_one_address_share_its_limit(person, limited):
    limited("command_ip", "4/minute")
    alice, bob = person("alice"), person("bob")
    game_id = new_game(alice, bob)
    for client in (alice, bob, alice, bob):
        assert send(client, game_id, {"type": "set_defense", "policy": "one"}).status_code == 201

    with unchanged(game_id):
        answer = send(bob, game_id, {"type": "set_defense", "policy": "max"})

    assert_error(answer, 429, "throttled")
    assert answer["Retry-After"]


def test_the_shipped_limits_are_those_the_readme_gives():
    assert (SHIPPED_RATES["command_user"], SHIPPED_RATES["command_ip"]) == (
        "300/minute", "600/minute")




def third_command(person, **headers) -> dict:
    """The refusal of alice's third command in a row."""
    alice, bob = person("alice"), person("bob")
    game_id = new_game(alice, bob)
    for _ in range(2):
        send(alice, game_id, {"type": "set_defense", "policy": "one"})
    return assert_error(send(alice, game_id, {"type": "end_turn"}, **headers), 429,
                        "throttled")


def test_the_429_names_the_limit_that_was_hit_and_its_rate(person, limited):
    limited("command_user", "2/minute")

    refused = third_command(person)

    assert (refused["limit"], refused["rate"]) == ("command_user", "2/minute")
    assert refused["retry_after"] > 0 and "command_user" in refused["detail"]


def test_of_two_limits_hit_the_429_names_the_one_that_waits_longest(person, limited):
    limited("command_user", "2/minute")
    limited("command_ip", "2/hour")

    refused = third_command(person)

    assert (refused["limit"], refused["rate"]) == ("command_ip", "2/hour")


def test_the_429_says_it_in_the_callers_language(person, limited):
    limited("command_user", "2/minute")

    refused = third_command(person, HTTP_ACCEPT_LANGUAGE="cs")

    assert "limit command_user (2/minute)" in refused["detail"] and "zkuste" in refused["detail"]
