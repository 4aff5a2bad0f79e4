"""Mail goes only to a confirmed address; changing it asks for the password and takes
effect when the link mailed to the new address is followed."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from accounts import email as addresses
from accounts.models import Account
from notifications.models import Notification
from tests.games_in_states import new_game
from tests.notifications.support import send_everything
from tests.people import signed_up, user

PASSWORD = "alice-long-secret-1"
PROFILE = {"time_zone": "UTC", "language": "en", "turn_mail": "each",
           "reminder_hours": "12, 1", "digest_hour": "8", "game_mail": "on"}


def link_in(message) -> str:
    return urlsplit(re.search(r"http\S+/accounts/confirm/\S+/", message.body)[0]).path


def signed_in(name: str) -> Client:
    browser = Client()
    browser.force_login(user(name))
    return browser


def test_a_new_account_gets_only_the_confirmation_mail_until_it_confirms(db):
    alice, bob = signed_up("alice", confirm=False), signed_up("bob", confirm=False)

    new_game(alice, bob)
    mails = send_everything()

    assert [m.to for m in mails] == [["alice@example.com"], ["bob@example.com"]]
    assert all(m.subject == "Confirm your address for Conquest" for m in mails)
    skipped = Notification.objects.exclude(kind=Notification.CONFIRM_EMAIL)
    assert skipped.exists() and all(n.skipped for n in skipped)


def test_following_the_link_confirms_and_mail_flows(db):
    alice, bob = signed_up("alice", confirm=False), signed_up("bob", confirm=False)
    links = {m.to[0]: link_in(m) for m in send_everything()}

    page = Client().get(links["alice@example.com"])
    assert page.status_code == 200 and "Confirm" in page.content.decode()
    assert not addresses.confirmed(user("alice"))  # a GET (a mail scanner) confirms nothing
    for link in links.values():
        assert Client().post(link).status_code == 302
    new_game(alice, bob)

    assert addresses.confirmed(user("alice")) and addresses.confirmed(user("bob"))
    assert {m.to[0] for m in send_everything()} == {"alice@example.com", "bob@example.com"}


def test_the_sign_up_page_starts_unconfirmed_and_mails_the_link(db):
    browser = Client()
    browser.post("/accounts/signup/", {
        "username": "dora", "email": "dora@example.com",
        "password1": "dora-long-secret-1", "password2": "dora-long-secret-1"})

    assert not addresses.confirmed(user("dora"))
    [mail] = send_everything()
    assert mail.to == ["dora@example.com"] and "/accounts/confirm/" in mail.body
    assert "not confirmed yet" in browser.get("/accounts/profile/").content.decode()


def test_accounts_the_operator_made_count_as_confirmed(db):
    made = get_user_model().objects.create_user("olga", "olga@example.com", "x")

    assert addresses.confirmed(made)
    assert not Account.objects.filter(user=made).exists()


def test_it_asks_for_the_password_to_change_the_address(db):
    signed_up("alice")

    answer = signed_in("alice").post("/accounts/profile/", dict(
        PROFILE, email="mallory@example.net"))

    assert answer.status_code == 400
    assert "Type your password" in answer.content.decode()
    assert user("alice").email == "alice@example.com"
    assert not Notification.objects.filter(payload__email="mallory@example.net").exists()


def test_a_wrong_password_changes_nothing(db):
    signed_up("alice")

    answer = signed_in("alice").post("/accounts/profile/", dict(
        PROFILE, email="mallory@example.net", current_password="wrong-password"))

    assert answer.status_code == 400
    assert user("alice").email == "alice@example.com"


def test_the_new_address_takes_effect_only_through_its_link(db):
    signed_up("alice")
    browser = signed_in("alice")

    saved = browser.post("/accounts/profile/", dict(
        PROFILE, email="alice@example.org", current_password=PASSWORD))

    assert saved.status_code == 302
    assert user("alice").email == "alice@example.com"
    [mail] = send_everything()
    assert mail.to == ["alice@example.org"]
    assert Client().post(link_in(mail)).status_code == 302
    assert user("alice").email == "alice@example.org"
    assert addresses.confirmed(user("alice"))
    # The link is spent: it was bound to the address it replaced.
    assert Client().post(link_in(mail)).status_code == 400


def test_a_password_change_voids_a_pending_link(db):
    signed_up("alice")
    signed_in("alice").post("/accounts/profile/", dict(
        PROFILE, email="alice@example.org", current_password=PASSWORD))
    [mail] = send_everything()
    alice = user("alice")
    alice.set_password("another-long-secret-2")
    alice.save()

    assert Client().post(link_in(mail)).status_code == 400
    assert user("alice").email == "alice@example.com"


def test_it_refuses_an_address_another_account_took_meanwhile(db):
    signed_up("alice")
    signed_in("alice").post("/accounts/profile/", dict(
        PROFILE, email="shared@example.org", current_password=PASSWORD))
    [mail] = send_everything()
    APIClient().post("/api/v1/accounts/", {"username": "bob", "email": "shared@example.org",
                                           "password": "bob-long-secret-1"}, format="json")

    answer = Client().post(link_in(mail))

    assert answer.status_code == 400 and "Another account" in answer.content.decode()
    assert user("alice").email == "alice@example.com"


def test_a_forged_link_is_refused(db):
    signed_up("alice")

    answer = Client().post("/accounts/confirm/not-a-signed-token/")

    assert answer.status_code == 400


def test_it_mails_a_new_link_on_request_at_most_once_an_hour(db):
    signed_up("alice", confirm=False)
    send_everything()
    browser = signed_in("alice")

    for _ in range(3):
        assert browser.post("/accounts/confirm/resend/").status_code == 302

    # One per hour: the sign-up's link and these three fall in one hour (or two).
    assert Notification.objects.filter(kind=Notification.CONFIRM_EMAIL).count() <= 2


def change_address(browser: Client, password: str, **headers):
    return browser.post("/accounts/profile/", dict(
        PROFILE, email="mallory@example.net", current_password=password), **headers)


def asked_to_confirm_mallory() -> bool:
    return Notification.objects.filter(payload__email="mallory@example.net").exists()


def test_the_password_of_an_address_change_is_locked_after_as_many_failures_as_sign_in(
        db, settings):
    signed_up("alice")
    browser = signed_in("alice")

    wrong = [change_address(browser, f"guess-{n}").status_code for n in range(20)]
    right = change_address(browser, PASSWORD)

    limit = settings.AXES_FAILURE_LIMIT
    assert set(wrong[:limit - 1]) == {400} and set(wrong[limit - 1:]) == {429}
    assert right.status_code == 429
    assert user("alice").email == "alice@example.com" and not asked_to_confirm_mallory()


def test_it_locks_the_account_whatever_addresses_the_guesses_come_from(db, settings):
    signed_up("alice")
    browser = signed_in("alice")

    for n in range(settings.AXES_FAILURE_LIMIT):
        change_address(browser, f"guess-{n}", REMOTE_ADDR=f"192.0.2.{n + 1}")
    right = change_address(browser, PASSWORD, REMOTE_ADDR="198.51.100.1")

    assert right.status_code == 429
    assert user("alice").email == "alice@example.com" and not asked_to_confirm_mallory()


def test_its_failures_count_as_sign_in_failures(db, settings):
    signed_up("alice")
    browser = signed_in("alice")
    for n in range(settings.AXES_FAILURE_LIMIT):
        change_address(browser, f"guess-{n}")

    sign_in = Client().post("/accounts/login/", {"username": "alice", "password": PASSWORD})

    assert sign_in.status_code == 429


def test_the_right_password_before_the_limit_changes_the_address(db, settings):
    signed_up("alice")
    browser = signed_in("alice")
    for n in range(settings.AXES_FAILURE_LIMIT - 2):
        change_address(browser, f"guess-{n}")

    right = change_address(browser, PASSWORD)

    assert right.status_code == 302 and asked_to_confirm_mallory()
