"""Smaller things on the game page and the lobby: the "Move in" form is filled in with the
player's stated default (profile), the waiting line names whom the game waits for, and
the lobby says "Turn" as the game page does."""

from __future__ import annotations

import re

import pytest
from django.utils.translation import trans_real

from accounts.models import Preferences
from engine.board import NEIGHBOURS
from tests.people import client_for, with_password
from tests.play import play_until
from tests.web.support import started_game
from tests.web.test_czech_polish import LANGUAGE_NAMES, untranslated  # noqa: F401 - a fixture


def occupy_position(two):
    game = started_game(two, setup="random")
    state = play_until(game, two, lambda s: s.phase == "occupy"
                       and s.armies[s.occupation.source] - 1 > s.occupation.minimum + 1)
    return game, state


def move_in_value(page: str) -> int:
    tag = re.search(r'<input [^>]*id="occupy-armies"[^>]*>', page).group(0)
    return int(re.search(r'value="(\d+)"', tag).group(1))


def border_keeps(state) -> int:
    source = state.occupation.source
    enemies = [state.armies[n] for n in NEIGHBOURS[source]
               if state.owner[n] != state.current and n != state.occupation.target]
    return max([1, *enemies])


@pytest.mark.parametrize("default", ["all", "border", "minimum", None])
def test_the_move_in_form_is_filled_in_with_the_player_s_default(alice, bob, default):
    game, state = occupy_position([alice, bob])
    mover = [alice, bob][state.current]
    if default is not None:
        Preferences.objects.update_or_create(user=mover, defaults={"occupy_default": default})
    low, high = state.occupation.minimum, state.armies[state.occupation.source] - 1

    page = client_for(mover).get(f"/games/{game.pk}/").content.decode()

    expected = {"all": high, None: high, "minimum": low,
                "border": min(max(state.armies[state.occupation.source] - border_keeps(state),
                                  low), high)}[default]
    assert move_in_value(page) == expected
    said = {"all": "Filled in with all the armies you may move",
            None: "Filled in with all the armies you may move",
            "minimum": "Filled in with the minimum",
            "border": f"keeps {border_keeps(state)}, as many as its strongest enemy"}[default]
    assert said in page


def test_the_profile_sets_the_move_in_default(as_alice, alice):
    page = as_alice.get("/accounts/profile/").content.decode()
    saved = as_alice.post("/accounts/profile/", {
        "email": "alice@example.com", "time_zone": "UTC", "language": "en",
        "turn_mail": "each", "reminder_hours": "12", "digest_hour": "8",
        "occupy_default": "border"})

    assert 'name="occupy_default"' in page and "all but what the border needs" in page
    assert saved.status_code == 302
    assert Preferences.objects.get(user=alice).occupy_default == "border"
    refused = as_alice.post("/accounts/profile/", {
        "email": "alice@example.com", "time_zone": "UTC", "language": "en",
        "turn_mail": "each", "reminder_hours": "12", "digest_hour": "8",
        "occupy_default": "everything"})
    assert refused.status_code == 400 and "Select a valid choice" in refused.content.decode()
    assert Preferences.objects.get(user=alice).occupy_default == "border"


def test_the_waiting_line_names_the_players_the_game_waits_for(db):
    three = [with_password("alice"), with_password("bob"), with_password("carol")]
    game = started_game(three, setup="random")
    state = play_until(game, three, lambda s: s.phase == "attack")
    waiting = next(s for s in range(3) if s != state.current)

    page = client_for(three[waiting]).get(f"/games/{game.pk}/").content.decode()

    line = re.search(r'<p class="waiting">(.*?)</p>', page, re.S).group(1)
    colour = ["Red", "Blue", "Green"][state.current]
    assert f"Waiting for {colour} ({three[state.current].username})." in line


def test_the_waiting_line_names_who_has_not_handed_in_a_simultaneous_placement(db):
    three = [with_password("alice"), with_password("bob"), with_password("carol")]
    game = started_game(three, setup="deal", initial_placement="simultaneous")
    state = play_until(game, three, lambda s: s.phase == "setup_place"
                       and sum(p.submitted for p in s.players) == 1)
    done = next(s for s in range(3) if state.players[s].submitted)
    others = [s for s in range(3) if s != done]

    page = client_for(three[done]).get(f"/games/{game.pk}/").content.decode()

    line = re.search(r'<p class="waiting">(.*?)</p>', page, re.S).group(1)
    names = ", ".join(f"{['Red', 'Blue', 'Green'][s]} ({three[s].username})" for s in others)
    assert f"Waiting for {names}." in line


def test_the_lobby_says_turn_as_the_game_page_does(alice, bob, as_charlie):
    game = started_game([alice, bob], setup="random")
    state = play_until(game, [alice, bob], lambda s: s.turn >= 3)

    lobby = as_charlie.get("/games/").content.decode()
    page = as_charlie.get(f"/games/{game.pk}/").content.decode()

    running = lobby.split('id="running-title"', 1)[1].split("</section>", 1)[0]
    assert f"Turn {state.turn}" in running and "round" not in running
    assert f"Turn {state.turn}" in page


@pytest.mark.parametrize("language", ["cs", "pl"])
def test_the_move_in_form_and_the_history_view_are_translated(alice, bob, language,
                                                             untranslated):  # noqa: F811
    game, state = occupy_position([alice, bob])
    mover = [alice, bob][state.current]
    Preferences.objects.update_or_create(user=mover, defaults={"occupy_default": "border"})
    client = client_for(mover)
    client.post("/i18n/setlang/", {"language": language, "next": "/"})

    pages = [client.get(f"/games/{game.pk}/"), client.get(f"/games/{game.pk}/?at=3"),
             client.get("/accounts/profile/")]

    assert [page.status_code for page in pages] == [200, 200, 200]
    already = {str(v) for _, v in trans_real.translation(language)._catalog.items()}
    assert sorted(untranslated - LANGUAGE_NAMES - already) == []
    said = re.search(r'id="occupy-default">(.*?)</p>', pages[0].content.decode(), re.S).group(1)
    assert "Filled in" not in said and "/accounts/profile/" in said
