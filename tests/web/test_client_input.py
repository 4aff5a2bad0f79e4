"""Client input that Python's own parsers take too widely ("²".isdigit() is true, month 13,
the year 9999) gets a 4xx with a message, never a 500, and changes nothing."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from accounts import tokens
from games.models import Event
from games.store.states import load_state
from notifications.models import Vacation
from tests.people import client_for, with_password
from tests.web.support import post_play, started_game
from tests.web.test_board_page import attack_with_a_strong_source, selected_value


@pytest.fixture
def game(alice, bob):
    return started_game([alice, bob], setup="random")


def api_client(someone) -> Client:
    token = tokens.issue(someone)
    return Client(HTTP_AUTHORIZATION=f"Token {token}")


@pytest.mark.parametrize("at", ["%C2%B2", "%D9%A1", "9" * 5000, "-1", "1.5"])
def test_it_shows_the_page_for_a_history_position_it_cannot_read(as_alice, game, at):
    answer = as_alice.get(f"/games/{game.pk}/?at={at}", follow=True)

    # The page of the present, at an address that names no move it does not show.
    assert answer.status_code == 200
    assert answer.redirect_chain == [(f"/games/{game.pk}/", 302)]


@pytest.mark.parametrize("at", ["%C2%B2", "9" * 5000])
def test_it_refuses_a_history_position_it_cannot_read_in_the_api(alice, game, at):
    answer = api_client(alice).get(f"/api/v1/games/{game.pk}/?at={at}")

    assert answer.status_code == 400 and answer.json()["error"] == "bad_request"


@pytest.mark.parametrize("version", ["²", "9" * 5000, "", "-3"])
def test_it_refuses_a_play_form_with_a_version_it_cannot_read(as_alice, game, version):
    count = Event.objects.filter(game=game).count()

    answer = post_play(as_alice, game, {"type": "end_turn"}, version=version)

    assert answer.status_code in (400, 409)
    assert "reload" in answer.content.decode()
    assert Event.objects.filter(game=game).count() == count


@pytest.mark.parametrize("hours", ["²", "12, ²", "9" * 5000])
def test_it_refuses_reminder_hours_it_cannot_read(as_alice, hours):
    answer = as_alice.post("/accounts/profile/", {
        "email": "alice@example.com", "time_zone": "UTC", "language": "en",
        "turn_mail": "each", "reminder_hours": hours, "digest_hour": "8"})

    assert answer.status_code == 400
    assert "whole number of hours" in answer.content.decode()


@pytest.mark.parametrize("first, last", [("9999-12-30", "9999-12-31"),
                                         ("2026-13-45", "2026-13-46")])
def test_it_refuses_impossible_vacation_days_in_the_form(as_alice, alice, first, last):
    answer = as_alice.post("/accounts/vacations/", {"first_day": first, "last_day": last})

    assert answer.status_code == 400
    assert not Vacation.objects.filter(user=alice).exists()


@pytest.mark.parametrize("starts, ends", [
    ("9999-12-30T00:00:00Z", "9999-12-31T00:00:00Z"),
    ("2026-13-45T00:00:00Z", "2026-13-46T00:00:00Z"),
    ("", ""),
])
def test_it_refuses_impossible_vacation_times_in_the_api(alice, starts, ends):
    answer = api_client(alice).post("/api/v1/vacations/", json.dumps(
        {"starts": starts, "ends": ends}), content_type="application/json")

    assert answer.status_code == 400 and answer.json()["error"] in ("bad_request", "bad_vacation")
    assert not Vacation.objects.filter(user=alice).exists()


def test_it_reads_only_json_on_the_vacations_endpoint(alice):
    answer = api_client(alice).post("/api/v1/vacations/", {
        "starts": "2030-01-01T00:00:00Z", "ends": "2030-01-02T00:00:00Z"})

    assert answer.status_code in (400, 415)
    assert "error" in answer.json()
    assert not Vacation.objects.filter(user=alice).exists()


@pytest.mark.parametrize("mine", ["2", "yes", "true", "²"])
def test_it_wants_mine_to_be_0_or_1(alice, mine):
    answer = api_client(alice).get(f"/api/v1/games/?mine={mine}")

    assert answer.status_code == 400 and "mine must be 0 or 1" in answer.json()["detail"]


def test_it_answers_404_for_a_vacation_id_beyond_any_integer(alice):
    answer = api_client(alice).delete(f"/api/v1/vacations/{'9' * 40}/")

    assert answer.status_code == 404


def test_it_answers_404_for_a_game_id_beyond_any_integer(db):
    someone = with_password("dora")
    assert client_for(someone).get(f"/games/{'9' * 40}/").status_code == 404
    assert api_client(someone).get(f"/api/v1/games/{'9' * 40}/").status_code == 404


@pytest.mark.parametrize("dice", ["%C2%B2", "%D9%A3", "9" * 5000])
def test_it_forgets_a_kept_choice_of_dice_it_cannot_read(alice, bob, dice):
    game, seat, source, target = attack_with_a_strong_source([alice, bob])

    answer = client_for([alice, bob][seat]).get(
        f"/games/{game.pk}/?sel={source}&to={target}&dice={dice}")

    assert answer.status_code == 200
    assert selected_value(answer.content.decode(), "attack-dice") == ""


@pytest.mark.parametrize("armies", ["١", "²", "1_0", "+1", "9" * 5000])
def test_it_refuses_armies_spelled_in_anything_but_ascii_digits(alice, bob, armies):
    game = started_game([alice, bob], setup="deal", placement_batch=3)
    state = load_state(game)
    mover = [alice, bob][state.current]
    mine = next(t for t, owner in state.owner.items() if owner == state.current)
    count = Event.objects.filter(game=game).count()

    answer = post_play(client_for(mover), game, {"type": "place", f"place-{mine}": armies})

    assert answer.status_code == 400
    assert "is not a whole number" in answer.content.decode()
    assert Event.objects.filter(game=game).count() == count
