"""The organiser chooses the games' rules, deadline and clock as the lobby does (its presets
and fields, web.forms.game_settings.GameSettingsForm), and by default tournament games get the lobby's
fast setup: every starting army placed at once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game
from tests import people
from tests.games.api_support import assert_error
from tests.people import api_client_for, client_for
from tests.tournaments.support import API, close_signup, create, tables
from tests.tournaments.support import form as tournament_form
from tournaments import checks
from tournaments.models import Tournament
from web.forms.game_settings import ASYNC_SETUP

pytestmark = pytest.mark.django_db


def form(**fields) -> dict:
    """The whole form, every rule field filled in as the page sends it."""
    return tournament_form(**{
        "seats": "2", "preset": "classic", "setup": "deal",
        "initial_placement": "simultaneous", "placement_batch": "1",
        "card_values": "escalating", "fixed_infantry": "4", "fixed_cavalry": "6",
        "fixed_artillery": "8", "fixed_mixed": "10", "card_territory_bonus": "once",
        "occupy_minimum": "dice", "fortify": "adjacent", "objective": "domination",
        "capitals_to_win": "table", "neutral": "on", "neutral_reinforcement": "opponent",
        "max_missed_turns": "3", **fields})


def test_the_form_offers_the_lobbys_presets_rules_and_clock():
    alice, = people.players(1)

    page = client_for(alice).get("/tournaments/").content.decode()

    assert 'name="preset" value="classic"' in page and 'value="czech"' in page
    assert 'name="preset" value="custom"' in page
    assert 'value="teams"' not in page and 'name="team_size"' not in page
    assert 'name="initial_placement"' in page and 'name="quiet_from"' in page
    assert 'id="preset-rules"' in page and "data-presets" in page


def test_the_forms_default_is_the_lobbys_fast_setup_and_the_games_play_it():
    players = people.players(2)
    client = client_for(players[0])

    answer = client.post("/tournaments/", form(deadline_seconds="3600"))

    made = Tournament.objects.get()
    assert answer.status_code == 302
    assert made.rules["initial_placement"] == "simultaneous"
    assert made.deadline_seconds == 3600
    for player in players:
        client_for(player).post(f"/tournaments/{made.pk}/join/")
    close_signup(made.pk)
    game = tables(made.pk, 1)[0].game
    assert game.rules["initial_placement"] == "simultaneous"
    assert game.deadline_seconds == 3600


@pytest.mark.parametrize("fields, expected", [
    ({"preset": "polish"}, {"preset": "polish"}),
    ({"preset": "fog"}, {"fog": True, "initial_placement": "simultaneous"}),
    ({"preset": "rulebook"}, {"initial_placement": "turns", "placement_batch": 1}),
    ({"preset": "custom", "initial_placement": "turns", "placement_batch": "3", "fog": "on",
      "fortify": "connected"},
     {"initial_placement": "turns", "placement_batch": 3, "fog": True,
      "fortify": "connected"}),
])
def test_the_organiser_chooses_the_rules_as_in_the_lobby(fields, expected):
    alice, = people.players(1)

    answer = client_for(alice).post("/tournaments/", form(**fields))

    assert answer.status_code == 302, answer.content.decode()[:2000]
    rules = Tournament.objects.get().rules
    assert {key: rules[key] for key in expected} == expected


def test_the_games_clock_rests_as_the_organiser_chose():
    players = people.players(2)
    answer = client_for(players[0]).post("/tournaments/", form(
        clock_time_zone="Europe/Prague", quiet_from="22", quiet_until="7",
        pause_weekends="on"))
    assert answer.status_code == 302
    made = Tournament.objects.get()
    for player in players:
        client_for(player).post(f"/tournaments/{made.pk}/join/")

    close_signup(made.pk)

    game = Game.objects.get(pk=tables(made.pk, 1)[0].game_id)
    assert (game.clock_time_zone, game.quiet_from, game.quiet_until, game.pause_weekends) == (
        "Europe/Prague", 22, 7, True)


@pytest.mark.parametrize("fields, message", [
    ({"preset": "teams"}, "Select a valid choice"),
    ({"preset": "custom", "objective": "missions", "neutral": "", "fog": "on",
      "setup": "nonsense"}, "Select a valid choice"),
    ({"quiet_from": "22", "quiet_until": "22"}, "another hour"),
])
def test_a_bad_choice_gets_a_message_and_makes_nothing(fields, message):
    alice, = people.players(1)

    answer = client_for(alice).post("/tournaments/", form(**fields))

    assert answer.status_code == 400 and message in answer.content.decode()
    assert not Tournament.objects.exists()


def test_the_api_defaults_to_the_fast_setup_unless_told():
    alice, = people.players(1)
    assert checks.FAST_SETUP == ASYNC_SETUP  # the lobby's, kept in step

    assert create(alice, rules={})["rules"]["initial_placement"] == "simultaneous"
    assert create(alice, rules={"initial_placement": "turns"})["rules"][
        "initial_placement"] == "turns"
    # A rulebook is played as written.
    assert create(alice, rules={"preset": "polish"})["rules"]["initial_placement"] == "turns"
    made = create(alice, clock={"time_zone": "Asia/Tokyo", "weekends": True})
    assert made["clock"] == {"time_zone": "Asia/Tokyo", "weekends": True}


@pytest.mark.parametrize("clock", ["night", {"quiet_from": 25, "quiet_until": 3},
                                   {"colour": "red"}])
def test_the_api_refuses_a_bad_clock(clock):
    alice, = people.players(1)
    body = {"name": "Cup", "clock": clock,
            "signup_closes": (timezone.now() + timedelta(days=1)).isoformat()}

    assert_error(api_client_for(alice).post(API, body, format="json"), 400, "bad_clock")
    assert not Tournament.objects.exists()


def test_a_czech_tournament_is_refused_since_a_table_may_seat_two():
    """The Czech rulebook is "for three to six players"; a round's table may seat two."""
    alice, = people.players(1)
    body = {"name": "Cup", "seats": 4, "rules": {"preset": "czech"},
            "signup_closes": (timezone.now() + timedelta(days=1)).isoformat()}

    answer = api_client_for(alice).post(API, body, format="json")

    assert_error(answer, 400, "bad_rules")
    assert "three to six players" in answer.json()["detail"]
    assert not Tournament.objects.exists()
