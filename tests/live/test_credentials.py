"""live.credentials in the test process: what opened a stream still holds, or not, for
every way a credential ends, all of them answered in one batch of a few queries."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from accounts.models import ApiToken, digest
from accounts.tokens import issue, revoke
from live.credentials import Credential, holding
from lobby import invitations
from tests.games_in_states import open_game

pytestmark = pytest.mark.django_db


def session_key(user) -> tuple[Client, str]:
    client = Client()
    client.force_login(user)
    return client, client.cookies[settings.SESSION_COOKIE_NAME].value


def test_it_holds_a_token_and_a_session_until_each_ends(alice, bob):
    first, second = issue(alice), issue(alice)
    client, key = session_key(alice)
    by_first, by_second = Credential(alice.pk, token=digest(first)), \
        Credential(alice.pk, token=digest(second))
    by_session = Credential(alice.pk, session=key)
    stolen = Credential(bob.pk, token=digest(first))  # another user's token: never
    everything = {by_first, by_second, by_session, stolen}
    assert holding(everything) == {by_first, by_second, by_session}

    revoke(alice, first)
    assert holding(everything) == {by_second, by_session}
    client.logout()
    assert holding(everything) == {by_second}
    ApiToken.objects.update(last_used_at=timezone.now() - timedelta(
        days=settings.CONQUEST_API_TOKEN_IDLE_DAYS + 1))
    assert holding(everything) == set()  # idle too long: refused as the API refuses it


def test_a_new_password_ends_the_sessions_signed_in_with_the_old(alice):
    _, key = session_key(alice)
    by_session = Credential(alice.pk, session=key)
    alice.first_name = "Alice"
    alice.save()
    assert holding([by_session]) == {by_session}  # another change of the account: still

    alice.set_password("something else entirely")
    alice.save()
    assert holding([by_session]) == set()


def test_a_closed_account_holds_nothing(alice, bob):
    by_token = Credential(alice.pk, token=digest(issue(alice)))
    by_session = Credential(alice.pk, session=session_key(alice)[1])
    bobs = Credential(bob.pk, token=digest(issue(bob)))
    alice.is_active = False
    alice.save()
    assert holding([by_token, by_session, bobs]) == {bobs}


def test_a_private_games_stream_holds_while_its_caller_is_let_in(alice, bob, charlie,
                                                                 django_assert_max_num_queries):
    game = open_game(alice, 3, "Hush", private=True)
    invitations.invite(game, alice, "bob")
    invitations.invite(game, alice, "charlie")
    bobs = Credential(bob.pk, token=digest(issue(bob))).following(game.pk)
    charlies = Credential(charlie.pk, session=session_key(charlie)[1]).following(game.pk)
    alices = Credential(alice.pk, token=digest(issue(alice))).following(game.pk)

    invitations.withdraw(game, alice, "charlie")

    # Users, tokens, sessions, games, seats, invitations, moderators: one query each.
    with django_assert_max_num_queries(7):
        assert holding([alices, bobs, charlies]) == {alices, bobs}
