"""Tournaments and bot accounts (CONTRACT.md "Bot accounts"): one that allows bots takes
them, seats them at its tables and plays them like anyone; others refuse them; and an
account signed up as a person for a tournament refusing bots cannot become one meanwhile."""

from __future__ import annotations

import pytest

from accounts.models import BotAccount
from games import bot_accounts
from games.errors import ServiceError
from tests.games.api_support import assert_error
from tests.tournaments.support import API, client_for, close_signup, create, tables, users
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


def make_bot(user):
    bot_accounts.convert(user)
    return user


def test_a_tournament_refuses_bot_accounts_by_default(db):
    alice, bob = users(2)
    tournament = create(alice)
    make_bot(bob)

    answer = client_for(bob).post(f"{API}{tournament['id']}/join/")

    assert_error(answer, 403, "bots_not_allowed")
    assert not Entry.objects.filter(user=bob).exists()
    assert tournament["bots_allowed"] is False


def test_a_tournament_that_allows_bots_seats_them_at_its_tables(db):
    alice, bob, dave, erin = users(4)
    tournament = create(alice, bots_allowed=True, seats=2, advance=1)
    assert tournament["bots_allowed"] is True
    make_bot(dave)
    for user in (alice, bob, dave, erin):
        assert client_for(user).post(f"{API}{tournament['id']}/join/").status_code in (200, 201)

    close_signup(tournament["id"])

    seated = {seat.user_id: seat for table in tables(tournament["id"], 1)
              for seat in table.game.seats.all()}
    assert dave.pk in seated and seated[dave.pk].bot is None
    assert all(table.game.bots_allowed for table in tables(tournament["id"], 1))


def test_bots_allowed_must_be_a_boolean(db):
    alice, = users(1)

    answer = client_for(alice).post(API, {"name": "Cup", "bots_allowed": "yes"}, format="json")

    assert_error(answer, 400, "bad_request")


def test_an_entrant_of_a_tournament_refusing_bots_cannot_become_one(db):
    alice, bob = users(2)
    tournament = create(alice)
    assert client_for(bob).post(f"{API}{tournament['id']}/join/").status_code in (200, 201)

    with pytest.raises(ServiceError) as refused:
        bot_accounts.convert(bob)

    assert refused.value.code == "has_played"
    assert not BotAccount.objects.filter(user=bob).exists()
