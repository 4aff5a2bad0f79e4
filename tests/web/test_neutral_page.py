"""The game page in a two-player game while the neutral's half is owed: the placer reads
that the armies are the neutral's (whose reinforcement they halve) with a link to have them
placed automatically; the mover reads whom the turn waits for. With the standing choice the
mover's own placement on the page goes straight on to the attack."""

from __future__ import annotations

import re

import pytest

from accounts.models import Preferences
from games.store.states import load_state
from tests.people import client_for
from tests.play import play_until
from tests.web.support import post_play, started_game

pytestmark = pytest.mark.usefixtures("neutral_by_hand")


def _waiting_for_neutral(alice, bob):
    game = started_game([alice, bob], setup="random", neutral=True)
    state = play_until(game, [alice, bob], lambda s: s.phase == "neutral_place")
    return game, state


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_placer_reads_the_armies_are_the_neutrals(alice, bob):
    game, state = _waiting_for_neutral(alice, bob)
    placer, mover = [alice, bob][state.current], [alice, bob][state.turn_seat]
    colour = ("Red", "Blue")[state.turn_seat]

    page = client_for(placer).get(f"/games/{game.pk}/").content.decode()

    assert (f"These armies are not yours: the neutral gets half of {colour} "
            f"({mover.username})'s reinforcement") in _text(page).replace("&#x27;", "'")
    assert 'href="/accounts/profile/#field-neutral_placement"' in page


def test_the_mover_reads_whom_the_turn_waits_for(alice, bob):
    game, state = _waiting_for_neutral(alice, bob)
    placer, mover = [alice, bob][state.current], [alice, bob][state.turn_seat]
    colour = ("Red", "Blue")[state.current]

    page = _text(client_for(mover).get(f"/games/{game.pk}/").content.decode())

    assert (f"Waiting for {colour} ({placer.username}) to place the neutral's "
            f"reinforcements (half of yours") in page.replace("&#x27;", "'")
    assert "Waiting for the other players." not in page


def test_with_the_standing_choice_the_mover_goes_straight_on(alice, bob):
    game = started_game([alice, bob], setup="random", neutral=True)
    state = play_until(game, [alice, bob], lambda s: s.phase == "reinforce"
                       and not s.trade_owed(s.current))
    placer = [alice, bob][1 - state.current]
    Preferences.objects.update_or_create(user=placer,
                                         defaults={"neutral_placement": Preferences.BORDERS})
    mine = state.territories_of(state.current)[0]

    answer = post_play(client_for([alice, bob][state.current]), game,
                       {"type": "place", f"place-{mine}": str(state.reinforcements)})

    assert answer.status_code in (200, 302)
    after = load_state(game)
    assert after.phase == "attack" and after.current == state.current
    page = client_for([alice, bob][state.current]).get(f"/games/{game.pk}/").content.decode()
    assert 'id="form-attack"' in page or 'data-form="attack"' in page


def test_the_neutrals_armies_are_explained_in_czech_and_polish(alice, bob):
    game, state = _waiting_for_neutral(alice, bob)
    placer = [alice, bob][state.current]
    for language, words in (("cs", "Tyto armády nejsou vaše"), ("pl", "To nie są twoje armie")):
        Preferences.objects.update_or_create(user=placer, defaults={"language": language})
        page = client_for(placer).get(f"/games/{game.pk}/").content.decode()
        assert words in page, language


def test_choosing_it_on_the_profile_places_the_half_already_waiting(alice, bob):
    game, state = _waiting_for_neutral(alice, bob)
    placer = [alice, bob][state.current]

    saved = client_for(placer).post("/accounts/profile/", {
        "email": placer.email, "time_zone": "UTC", "language": "en", "turn_mail": "each",
        "reminder_hours": "12", "digest_hour": "8", "neutral_placement": "borders"},
        follow=True)

    assert "The neutral&#x27;s armies waiting for you are placed." in saved.content.decode()
    after = load_state(game)
    assert after.phase == "attack" and after.current == state.turn_seat
