"""Changing the password asks for the old one, counted as a sign-in: a stolen session cannot
guess it without end."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.test import Client

from tests.people import signed_up

CHANGE = "/accounts/password_change/"
PASSWORD = "alice-long-secret-1"
NEW = "a-brand-new-secret-9"


def signed_in_alice() -> Client:
    signed_up("alice")
    browser = Client()
    browser.force_login(get_user_model().objects.get(username="alice"))
    return browser


def change(browser: Client, old: str, **headers):
    return browser.post(CHANGE, {"old_password": old, "new_password1": NEW,
                                 "new_password2": NEW}, **headers)


def test_it_changes_the_password_with_the_old_one(db):
    browser = signed_in_alice()

    answer = change(browser, PASSWORD)

    assert answer.status_code == 302
    assert get_user_model().objects.get(username="alice").check_password(NEW)


def test_the_old_password_is_locked_after_as_many_failures_as_sign_in(db, settings):
    browser = signed_in_alice()

    wrong = [change(browser, f"guess-{n}").status_code for n in range(20)]
    right = change(browser, PASSWORD)

    limit = settings.AXES_FAILURE_LIMIT
    assert set(wrong[:limit - 1]) == {200} and set(wrong[limit - 1:]) == {429}
    assert right.status_code == 429
    assert get_user_model().objects.get(username="alice").check_password(PASSWORD)


def test_it_locks_the_account_whatever_addresses_the_guesses_come_from(db, settings):
    browser = signed_in_alice()

    for n in range(settings.AXES_FAILURE_LIMIT):
        change(browser, f"guess-{n}", REMOTE_ADDR=f"192.0.2.{n + 1}")
    right = change(browser, PASSWORD, REMOTE_ADDR="198.51.100.1")

    assert right.status_code == 429
    assert get_user_model().objects.get(username="alice").check_password(PASSWORD)


def signed_in_staff_alice() -> Client:
    browser = signed_in_alice()
    get_user_model().objects.filter(username="alice").update(is_staff=True)
    return browser


def test_the_admin_changes_the_password_with_the_old_one(db):
    browser = signed_in_staff_alice()

    answer = browser.post("/admin/password_change/", {
        "old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW})

    assert answer.status_code == 302
    assert answer["Location"] == "/admin/password_change/done/"
    assert get_user_model().objects.get(username="alice").check_password(NEW)


def test_the_admin_counts_the_old_password_as_a_sign_in_too(db, settings):
    browser = signed_in_staff_alice()

    wrong = [browser.post("/admin/password_change/", {
        "old_password": f"guess-{n}", "new_password1": NEW, "new_password2": NEW}).status_code
        for n in range(settings.AXES_FAILURE_LIMIT + 2)]
    right = browser.post("/admin/password_change/", {
        "old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW})

    assert wrong[0] == 200 and wrong[-1] == 429
    assert right.status_code == 429
    assert get_user_model().objects.get(username="alice").check_password(PASSWORD)


def test_the_admin_password_change_still_asks_for_a_staff_sign_in(db):
    signed_up("alice")
    anonymous = Client().get("/admin/password_change/")

    assert anonymous.status_code == 302 and "/admin/login/" in anonymous["Location"]
