"""GET /api/v1/odds/: the exact odds of an attack for bot writers and the mail."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.games.api_support import API, assert_error

ODDS = f"{API}/odds/"


def test_it_answers_one_roll_and_repeat_for_anyone(db):
    answer = APIClient().get(ODDS, {"attackers": 2, "defenders": 1})

    assert answer.status_code == 200, answer.content
    odds = answer.json()
    assert odds["attackers"] == 2 and odds["defenders"] == 1 and odds["dice"] == 3
    assert odds["defense"] == "max"
    assert odds["one_roll"]["conquer"] == pytest.approx(15 / 36)
    assert odds["repeat"]["conquer"] == pytest.approx(15 / 36)
    assert odds["repeat"]["attacker_losses"] == pytest.approx(21 / 36)
    assert odds["repeat"]["move_in"]["chances"] == [[1, pytest.approx(1.0)]]


def test_it_counts_the_classic_three_against_two(db):
    odds = APIClient().get(ODDS, {"attackers": 4, "defenders": 2}).json()

    outcomes = {(o["attacker_losses"], o["defender_losses"]): o["chance"]
                for o in odds["one_roll"]["outcomes"]}
    assert outcomes == pytest.approx(
        {(0, 2): 2890 / 7776, (1, 1): 2611 / 7776, (2, 0): 2275 / 7776})
    assert odds["one_roll"]["conquer"] == pytest.approx(2890 / 7776)
    assert odds["repeat"]["conquer"] == pytest.approx(0.656, abs=0.001)


def test_it_honours_the_dice_and_the_defenders_standing_order(db):
    client = APIClient()
    full = client.get(ODDS, {"attackers": 10, "defenders": 5}).json()
    one_die = client.get(ODDS, {"attackers": 10, "defenders": 5, "dice": 1}).json()
    weak = client.get(ODDS, {"attackers": 10, "defenders": 5, "defense": "one"}).json()

    assert one_die["dice"] == 1
    assert one_die["repeat"]["conquer"] < full["repeat"]["conquer"] < weak["repeat"]["conquer"]


def test_the_neutral_defends_with_every_die_unless_the_opponent_chooses(db):
    client = APIClient()
    pair = {"attackers": 6, "defenders": 4, "defense": "one", "neutral": "true"}
    by_rule = client.get(ODDS, pair).json()
    chosen = client.get(ODDS, {**pair, "neutral_dice": "opponent"}).json()

    assert by_rule["defense"] == "max" and chosen["defense"] == "one"
    # Capitals change no dice: the option is taken and the odds stay.
    capitals = client.get(ODDS, {**pair, "objective": "capitals"}).json()
    assert capitals["repeat"] == by_rule["repeat"]


@pytest.mark.parametrize("query", [
    {"defenders": 3},
    {"attackers": 1, "defenders": 3},
    {"attackers": 1001, "defenders": 3},
    {"attackers": 5, "defenders": 0},
    {"attackers": "５", "defenders": 3},
    {"attackers": 5, "defenders": 3, "dice": 4},
    {"attackers": 5, "defenders": 3, "defense": "all"},
    {"attackers": 5, "defenders": 3, "neutral": "maybe"},
    {"attackers": 5, "defenders": 3, "neutral_dice": "min"},
    {"attackers": 5, "defenders": 3, "objective": "chess"},
    {"attackers": 5, "defenders": 3, "luck": "good"},
])
def test_it_refuses_what_is_not_a_battle(db, query):
    answer = APIClient().get(ODDS, query)

    assert_error(answer, 400, "bad_request")


def test_it_is_in_the_schema(db):
    schema = APIClient().get(f"{API}/schema/", {"format": "json"})

    assert "/api/v1/odds/" in schema.json()["paths"]


def test_it_limits_each_client_address(db, settings):
    settings.CONQUEST_THROTTLE_RATES = {**settings.CONQUEST_THROTTLE_RATES, "odds_ip": "3/minute"}
    pair = {"attackers": 900, "defenders": 880, "dice": 1, "defense": "one"}
    answers = [APIClient().get(ODDS, pair) for _ in range(4)]
    elsewhere = APIClient(REMOTE_ADDR="198.51.100.7").get(ODDS, pair)

    assert [a.status_code for a in answers[:3]] == [200] * 3
    assert_error(answers[3], 429, "throttled")
    assert int(answers[3]["Retry-After"]) > 0
    assert elsewhere.status_code == 200
