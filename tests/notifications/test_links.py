"""notifications/links.py and views.py: the signed open-game link, one-click unsubscribe and
the per-seat signed reply address."""

from __future__ import annotations

import hashlib
import hmac
import time
from functools import partial

import pytest
from django.core import signing
from django.test import Client
from django.utils.crypto import salted_hmac

from accounts.models import Preferences, preferences_for
from notifications import links
from tests.people import user


def path_of(url: str) -> str:
    assert url.startswith("http://127.0.0.1:8000/")
    return url.removeprefix("http://127.0.0.1:8000")


def signed_in_as(client: Client):
    return client.session.get("_auth_user_id")


@pytest.fixture
def person(db):
    """alice and bob (tests/conftest.py) chose "sign me in from mail links", here."""
    return partial(user, mail_link_sign_in=True)


# ---- mailed links sign nobody in unless the player chose so ----------------------------
def test_a_mailed_link_carries_no_sign_in_by_default(client, db):
    erin = user("erin")

    url = links.open_game_url(erin, 42)
    answer = client.get(path_of(url))

    assert path_of(url) == "/mail/game/42/"
    assert answer.status_code == 302
    assert answer["Location"] == "/accounts/login/?next=/games/42/"
    assert signed_in_as(client) is None


def test_a_plain_mailed_link_opens_the_game_for_the_signed_in_reader(client, db):
    erin = user("erin")
    client.force_login(erin)

    answer = client.get(path_of(links.open_game_url(erin, 42)))

    assert answer["Location"] == "/games/42/"


def test_a_link_mailed_before_the_player_turned_sign_in_off_signs_nobody_in(client, alice):
    url = links.open_game_url(alice, 42)
    Preferences.objects.filter(user=alice).update(mail_link_sign_in=False)

    answer = client.get(path_of(url))

    assert answer["Location"] == "/accounts/login/?next=/games/42/"
    assert signed_in_as(client) is None


def test_the_profile_offers_sign_in_from_mail_links_off_by_default(client, db):
    erin = user("erin")
    client.force_login(erin)

    page = client.get("/accounts/profile/").content.decode()

    assert 'name="mail_link_sign_in"' in page
    assert not preferences_for(erin).mail_link_sign_in


def test_an_unsubscribe_link_works_without_sign_in_whatever_the_choice(db):
    erin = user("erin")

    answer = Client().post(path_of(links.unsubscribe_url(erin.pk)))

    assert answer.status_code == 200
    assert preferences_for(erin).unsubscribed


def test_it_signs_in_and_opens_the_game(client, alice):
    answer = client.get(path_of(links.open_game_url(alice, 42)))

    assert answer.status_code == 302
    assert answer["Location"] == "/games/42/"
    assert signed_in_as(client) == str(alice.pk)


def test_it_switches_to_the_links_player(client, alice, bob):
    client.force_login(bob)

    answer = client.get(path_of(links.open_game_url(alice, 7)))

    assert answer["Location"] == "/games/7/"
    assert signed_in_as(client) == str(alice.pk)


def test_it_keeps_the_session_of_the_player_already_signed_in(client, alice):
    client.force_login(alice)
    session_key = client.session.session_key

    client.get(path_of(links.open_game_url(alice, 7)))

    assert client.session.session_key == session_key


@pytest.mark.parametrize("tamper", [
    lambda token: token[:-1] + ("A" if token[-1] != "A" else "B"),
    lambda token: "x" + token,
    lambda token: token.split(":")[0] + ":" + token.split(":", 1)[1][::-1],
    lambda token: "not-a-token",
])
def test_it_refuses_a_tampered_open_link(client, alice, tamper):
    token = path_of(links.open_game_url(alice, 42)).split("/")[-2]

    answer = client.get(f"/mail/open/{tamper(token)}/")

    assert answer.status_code == 400
    assert signed_in_as(client) is None


def test_it_refuses_an_open_link_for_another_game_or_player(client, alice, bob):
    # The payload is signed: swapping in another player's id breaks the signature.
    token = signing.dumps({"u": bob.pk, "g": 42}, salt="another purpose", compress=True)

    assert client.get(f"/mail/open/{token}/").status_code == 400
    assert signed_in_as(client) is None


def test_it_refuses_an_expired_open_link(client, alice, monkeypatch, settings):
    hours_ago = settings.CONQUEST_OPEN_LINK_HOURS + 1
    monkeypatch.setattr(signing.TimestampSigner, "timestamp",
                        lambda self: signing.b62_encode(int(time.time()) - hours_ago * 3600))
    url = links.open_game_url(alice, 42)
    monkeypatch.undo()

    answer = client.get(path_of(url))

    assert answer.status_code == 400
    assert b"expired" in answer.content
    assert signed_in_as(client) is None


def test_it_accepts_an_open_link_an_hour_before_it_expires(client, alice, monkeypatch,
                                                          settings):
    hours_ago = settings.CONQUEST_OPEN_LINK_HOURS - 1
    monkeypatch.setattr(signing.TimestampSigner, "timestamp",
                        lambda self: signing.b62_encode(int(time.time()) - hours_ago * 3600))
    url = links.open_game_url(alice, 42)
    monkeypatch.undo()

    assert client.get(path_of(url)).status_code == 302


def test_it_refuses_an_unsubscribe_token_as_an_open_link(client, alice):
    token = path_of(links.unsubscribe_url(alice.pk)).split("/")[-2]

    assert client.get(f"/mail/open/{token}/").status_code == 400
    assert signed_in_as(client) is None


def test_it_refuses_the_open_link_of_a_deactivated_player(client, alice):
    url = links.open_game_url(alice, 42)
    alice.is_active = False
    alice.save()

    assert client.get(path_of(url))["Location"].startswith("/accounts/login/")
    assert signed_in_as(client) is None


def test_it_shows_a_form_and_changes_nothing_on_an_unsubscribe_get(client, alice):
    answer = client.get(path_of(links.unsubscribe_url(alice.pk)))

    assert answer.status_code == 200
    assert b"<form method=\"post\"" in answer.content
    assert not Preferences.objects.filter(user=alice, unsubscribed=True).exists()


def test_it_unsubscribes_on_posting_the_form(alice):
    client = Client(enforce_csrf_checks=True)  # the form comes from a mail: no CSRF cookie

    answer = client.post(path_of(links.unsubscribe_url(alice.pk)))

    assert answer.status_code == 200
    assert b"You are unsubscribed" in answer.content
    assert preferences_for(alice).unsubscribed


def test_it_unsubscribes_with_an_rfc_8058_one_click_post(alice):
    client = Client(enforce_csrf_checks=True)

    answer = client.post(path_of(links.unsubscribe_url(alice.pk)),
                         "List-Unsubscribe=One-Click",
                         content_type="application/x-www-form-urlencoded")

    assert answer.status_code == 200
    assert answer.content == b"unsubscribed"
    assert preferences_for(alice).unsubscribed


def test_it_keeps_other_preferences_when_unsubscribing(client, db):
    dave = user("dave", time_zone="Europe/Prague", language="cs", reminder_hours=[3])

    client.post(path_of(links.unsubscribe_url(dave.pk)))

    preferences = preferences_for(dave)
    assert preferences.unsubscribed
    assert (preferences.time_zone, preferences.language, preferences.reminder_hours) == (
        "Europe/Prague", "cs", [3])


def test_it_unsubscribes_only_the_tokens_player(client, alice, bob):
    client.post(path_of(links.unsubscribe_url(alice.pk)))

    assert preferences_for(alice).unsubscribed
    assert not preferences_for(bob).unsubscribed


@pytest.mark.parametrize("method", ["get", "post"])
def test_it_refuses_a_tampered_unsubscribe_link(client, alice, bob, method):
    token = path_of(links.unsubscribe_url(alice.pk)).split("/")[-2]
    forged = signing.dumps(bob.pk, salt="not the unsubscribe salt")

    for bad in (token[:-2] + "zz", forged, "123"):
        answer = getattr(client, method)(f"/mail/unsubscribe/{bad}/")
        assert answer.status_code == 400
    assert not Preferences.objects.filter(unsubscribed=True).exists()


def test_it_refuses_the_unsubscribe_link_of_a_deleted_player(client, db):
    dave = user("dave")
    url = links.unsubscribe_url(dave.pk)
    dave.delete()

    assert client.post(path_of(url)).status_code == 400


def test_it_reads_back_its_own_reply_address():
    holders = {(12, 1): 5}
    address = links.reply_address(12, 1, 5, 7)

    assert address.startswith("play+12-1-7-") and address.endswith("@localhost")
    assert links.read_reply_address(address, lambda g, s: holders.get((g, s))) == (12, 1, 5, 7)
    assert links.read_reply_address(f"Conquest <{address.upper()}>",
                                    lambda g, s: holders.get((g, s))) == (12, 1, 5, 7)


def test_it_refuses_a_reply_address_with_a_wrong_signature():
    holders = {(12, 1): 5, (12, 0): 4, (13, 1): 5}
    address = links.reply_address(12, 1, 5)
    signature = address.split("-")[3].split("@")[0]

    def read(text):
        return links.read_reply_address(text, lambda g, s: holders.get((g, s)))

    assert read(address.replace(signature, "0" * 20)) is None
    assert read(address.replace("play+12-1-", "play+12-0-")) is None  # another seat
    assert read(address.replace("play+12-1-", "play+13-1-")) is None  # another game
    assert read(address.replace("play+12-1-", "play+12-2-")) is None  # nobody's seat
    assert read(address.replace("play+12-1-0-", "play+12-1-1-")) is None  # another turn
    old_style = f"play+12-1-{signature}@localhost"  # before turns were signed
    assert read(old_style) is None
    assert read("play@localhost") is None
    assert read("") is None


def test_it_refuses_the_address_of_a_seat_that_changed_hands():
    # Signed for player 5; the seat is now player 6's.
    address = links.reply_address(12, 1, 5)

    assert links.read_reply_address(address, lambda g, s: 6) is None


def signature_of(address: str) -> str:
    return address.split("@")[0].split("-")[-1]


def test_a_reply_address_is_signed_with_a_key_derived_for_reply_addresses_alone(settings):
    address = links.reply_address(12, 1, 5, 7)

    derived = salted_hmac("conquest.mail.reply-address", "12:1:5:7",
                          algorithm="sha256").hexdigest()[:20]
    assert signature_of(address) == derived
    # Not the key itself, which also signs sessions, passwords' reset links, cookies.
    raw = hmac.new(settings.SECRET_KEY.encode(), b"reply:v2:12:1:5:7", hashlib.sha256)
    assert signature_of(address) != raw.hexdigest()[:20]


def test_an_address_mailed_before_the_key_was_rotated_still_moves(settings):
    settings.SECRET_KEY, settings.SECRET_KEY_FALLBACKS = "the-key-of-last-year" * 3, []
    address = links.reply_address(12, 1, 5, 7)
    settings.SECRET_KEY = "the-key-of-this-year" * 3

    assert links.read_reply_address(address, lambda g, s: 5) is None
    settings.SECRET_KEY_FALLBACKS = ["the-key-of-last-year" * 3]
    assert links.read_reply_address(address, lambda g, s: 5) == (12, 1, 5, 7)
    assert signature_of(links.reply_address(12, 1, 5, 7)) != signature_of(address)


def test_an_address_signed_before_reply_addresses_had_a_key_of_their_own_still_moves(settings):
    raw = hmac.new(settings.SECRET_KEY.encode(), b"reply:v2:12:1:5:7", hashlib.sha256)
    address = f"play+12-1-7-{raw.hexdigest()[:20]}@localhost"

    assert links.read_reply_address(address, lambda g, s: 5) == (12, 1, 5, 7)
    assert links.read_reply_address(address, lambda g, s: 6) is None
    settings.SECRET_KEY = "another-key" * 5
    assert links.read_reply_address(address, lambda g, s: 5) is None


def test_the_admin_sees_reply_addresses_without_their_signature():
    address = links.reply_address(12, 1, 5, 3)

    shown = links.masked(f"x@example.com,{address}")

    assert shown == "x@example.com,play+12-1-3-…@localhost"
    assert address.split("-")[3].split("@")[0] not in shown



# ---- the open link signs in once, briefly, and never staff -----------------------------
def test_it_signs_in_with_a_link_only_once(alice):
    url = path_of(links.open_game_url(alice, 42))
    first, second = Client(), Client()

    first.get(url)
    answer = second.get(url)

    assert signed_in_as(first) == str(alice.pk)
    assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/")
    assert signed_in_as(second) is None


def test_it_refuses_a_link_after_a_password_change(client, alice):
    url = path_of(links.open_game_url(alice, 42))
    alice.set_password("a-brand-new-secret-7")
    alice.save()

    client.get(url)

    assert signed_in_as(client) is None


def test_it_never_signs_in_staff_by_link(client, alice):
    alice.is_staff = True
    alice.save()

    answer = client.get(path_of(links.open_game_url(alice, 42)))

    assert answer["Location"].startswith("/accounts/login/")
    assert signed_in_as(client) is None


def test_it_keeps_mail_link_tokens_out_of_the_access_log():
    from config.gunicorn_logging import redact
    token = "eyJ1IjoxLCJnIjo0Mn0:1vNrgL:abc"

    line = redact(f'"GET /mail/open/{token}/ HTTP/1.1" 302')

    assert token not in line and "/mail/open/…/" in line
