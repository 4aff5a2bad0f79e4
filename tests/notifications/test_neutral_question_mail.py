"""The turn mail asks the placer of the neutral's armies, until they answer (here or on the
game page), "place them yourself, or automatically from now on?", with a signed link for
each answer; the link's page takes the answer in one click."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client

from accounts.models import Preferences
from games.store.states import load_state
from notifications import delivery
from notifications import mail as mails
from notifications.models import Notification
from tests.notifications.support import act, place_setup, rows, started, user_at

pytestmark = pytest.mark.usefixtures("holding_api_tokens")

QUESTION = "Place the neutral's armies yourself, or automatically from now on?"


def _reinforced(alice, bob):
    game = started(alice, bob, placement_batch=50)
    place_setup(game)
    state = load_state(game)
    mover = state.current
    act(game, user_at(game, mover), {"type": "place", "placements": {
        state.territories_of(mover)[0]: state.reinforcements}})
    game.refresh_from_db()
    return game, user_at(game, 1 - mover)


def _turn_mail(game):
    row = rows(game, kind=Notification.TURN)[-1]
    assert delivery.send_one(row.pk) == "sent"
    return mail.outbox[-1]


def _links(body: str) -> dict[str, str]:
    return {name: re.search(rf"{name}: (http\S+)", body)[1].replace("http://testserver", "")
            for name in ("I place them myself", "Automatically from now on")}


def test_it_asks_in_the_turn_mail_with_a_link_for_each_answer(alice, bob):
    game, placer = _reinforced(alice, bob)

    message = _turn_mail(game)

    assert QUESTION in message.body
    links = _links(message.body)
    assert all("/mail/neutral/" in url for url in links.values())
    (html, _), = message.alternatives
    assert QUESTION.replace("'", "&#x27;") in html or QUESTION in html


def test_its_automatic_link_sets_the_choice_and_places_what_waits(alice, bob):
    game, placer = _reinforced(alice, bob)
    url = _links(_turn_mail(game).body)["Automatically from now on"]
    client = Client()

    assert client.get(url).status_code == 200
    assert load_state(game).phase == "neutral_place"  # opening the link changes nothing
    assert client.post(url).status_code == 200

    assert Preferences.objects.get(user=placer).neutral_placement == Preferences.BORDERS
    assert load_state(game).phase != "neutral_place"


def test_its_myself_link_keeps_the_rule_and_the_question_is_not_asked_again(alice, bob):
    game, placer = _reinforced(alice, bob)
    url = _links(_turn_mail(game).body)["I place them myself"]

    Client().post(url)

    preferences = Preferences.objects.get(user=placer)
    assert preferences.neutral_placement == Preferences.ASK_ME
    assert preferences.neutral_question_answered
    assert load_state(game).phase == "neutral_place"
    body = mails.render(rows(game, kind=Notification.TURN)[-1]).body  # the same mail again
    assert QUESTION not in body and "/accounts/profile/" in body


def test_a_forged_link_is_refused(alice, bob):
    assert Client().get("/mail/neutral/not-a-token/").status_code == 400


def test_it_asks_in_czech_and_polish(alice, bob):
    game, placer = _reinforced(alice, bob)
    row = rows(game, kind=Notification.TURN)[-1]

    bodies = {}
    for language in ("cs", "pl"):
        Preferences.objects.update_or_create(user=placer, defaults={"language": language})
        bodies[language] = mails.render(row).body

    assert "Rozmisťovat armády neutrální armády sami, nebo od teď automaticky?" in bodies["cs"]
    assert "Od teď automaticky: http" in bodies["cs"]
    assert "Rozmieszczać armie neutralne samemu, czy od teraz automatycznie?" in bodies["pl"]
    assert "Od teraz automatycznie: http" in bodies["pl"]
