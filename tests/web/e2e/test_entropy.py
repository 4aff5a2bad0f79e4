"""The players' entropy in a real browser: the create and join forms come filled from the
browser's crypto, show the value, and send it; without JavaScript the field stays empty and
the game is made all the same."""

from __future__ import annotations

import re

import pytest

from games.models import Game, Seat
from tests.web.e2e.support import signed_in

pytestmark = pytest.mark.django_db(transaction=True)

HEX32 = re.compile(r"[0-9a-f]{32}")


def test_the_forms_fill_in_entropy_from_the_browser_and_send_it(browser, live_server,
                                                                 contexts):
    alice = signed_in(browser, live_server.url, "alice", contexts)
    created = alice.locator("#create-game input[name=entropy]")
    shown = created.input_value()
    assert HEX32.fullmatch(shown)
    alice.fill("#id_name", "Dice we both chose")
    alice.locator("#create-game button[type=submit]").click()
    alice.wait_for_url(re.compile(r"/games/\d+/$"))
    assert shown in alice.locator(".message.success").inner_text()  # said back, to keep
    game = Game.objects.get()
    assert game.seats.get(seat=0).entropy == shown

    bob = signed_in(browser, live_server.url, "bob", contexts, at=f"/games/{game.pk}/")
    joined = bob.locator(f'form[action="/games/{game.pk}/join/"] input[name=entropy]')
    theirs = joined.input_value()
    assert HEX32.fullmatch(theirs) and theirs != shown
    bob.locator(f'form[action="/games/{game.pk}/join/"] button[type=submit]').click()
    bob.wait_for_load_state()
    assert Seat.objects.get(game=game, seat=1).entropy == theirs


def test_without_javascript_the_field_is_empty_and_the_game_is_made(browser, live_server,
                                                                   contexts):
    alice = signed_in(browser, live_server.url, "alice", contexts, javascript=False)
    assert alice.locator("#create-game input[name=entropy]").input_value() == ""
    alice.fill("#id_name", "No script")
    alice.locator("#create-game button[type=submit]").click()
    alice.wait_for_url(re.compile(r"/games/\d+/$"))
    assert Game.objects.get().seats.get(seat=0).entropy is None
