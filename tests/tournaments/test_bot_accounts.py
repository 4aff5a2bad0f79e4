"""Tournaments and bot accounts (docs/bots/contract.md "Bot accounts"): one that allows bots takes
them, seats them at its tables and plays them like anyone; others refuse them; and an
account signed up as a person for a tournament refusing bots cannot become one meanwhile."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from accounts.models import BotAccount
from games.errors import ServiceError
from lib.reactions import rewired, wired
from lobby import bot_accounts
from tests import people
from tests.games.api_support import assert_error
from tests.people import api_client_for, client_for
from tests.tournaments.support import API, close_signup, create, tables
from tournaments import services
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db


def make_bot(user):
    bot_accounts.convert(user)
    return user


def test_a_tournament_refuses_bot_accounts_by_default(db):
    alice, bob = people.players(2)
    tournament = create(alice)
    make_bot(bob)

    answer = api_client_for(bob).post(f"{API}{tournament['id']}/join/")

    assert_error(answer, 403, "bots_not_allowed")
    assert not Entry.objects.filter(user=bob).exists()
    assert tournament["bots_allowed"] is False


def test_a_tournament_that_allows_bots_seats_them_at_its_tables(db):
    alice, bob, dave, erin = people.players(4)
    tournament = create(alice, bots_allowed=True, seats=2, advance=1)
    assert tournament["bots_allowed"] is True
    make_bot(dave)
    for user in (alice, bob, dave, erin):
        assert api_client_for(user).post(f"{API}{tournament['id']}/join/").status_code in (200, 201)

    close_signup(tournament["id"])

    seated = {seat.user_id: seat for table in tables(tournament["id"], 1)
              for seat in table.game.seats.all()}
    assert dave.pk in seated and seated[dave.pk].bot is None
    assert all(table.game.bots_allowed for table in tables(tournament["id"], 1))


def test_bots_allowed_must_be_a_boolean(db):
    alice, = people.players(1)

    answer = api_client_for(alice).post(API, {"name": "Cup", "bots_allowed": "yes"}, format="json")

    assert_error(answer, 400, "bad_request")


def test_an_entrant_of_a_tournament_refusing_bots_cannot_become_one(db):
    alice, bob = people.players(2)
    tournament = create(alice)
    assert api_client_for(bob).post(f"{API}{tournament['id']}/join/").status_code in (200, 201)

    with pytest.raises(ServiceError) as refused:
        bot_accounts.convert(bob)

    assert refused.value.code == "has_played"
    assert not BotAccount.objects.filter(user=bob).exists()


# A conversion held inside its transaction (after its own checks passed) while a sign-up
# for a tournament refusing bots runs: the sign-up must wait for it and then see the bot.
HELD, RELEASE = threading.Event(), threading.Event()


def hold_the_conversion(user):
    HELD.set()
    RELEASE.wait(10)
    return None


@pytest.mark.django_db(transaction=True)
def test_a_sign_up_racing_a_conversion_never_enters_a_bot():
    with rewired(BOT_ACCOUNT_CHECKS=[*wired("BOT_ACCOUNT_CHECKS"), hold_the_conversion]):
        _racing_sign_up_never_enters_a_bot()


def _racing_sign_up_never_enters_a_bot():
    alice, bob = people.players(2)
    tournament = Tournament.objects.get(pk=create(alice)["id"])
    HELD.clear()
    RELEASE.clear()
    results = {}

    def run(name, act):
        try:
            results[name] = act()
        except Exception as problem:  # noqa: BLE001 - a refusal is an outcome here
            results[name] = problem
        finally:
            connection.close()

    converting = threading.Thread(target=run, args=("convert", lambda: make_bot(
        get_user_model().objects.get(pk=bob.pk))))
    converting.start()
    assert HELD.wait(10)
    signing_up = threading.Thread(target=run, args=("sign_up", lambda: services.sign_up(
        tournament, get_user_model().objects.get(pk=bob.pk))))
    signing_up.start()
    signing_up.join(1)  # done at once unless it waits for the conversion
    RELEASE.set()
    converting.join(10)
    signing_up.join(10)

    bot = BotAccount.objects.filter(user=bob).exists()
    entered = Entry.objects.filter(user=bob, tournament=tournament).exists()
    assert not (bot and entered), results
    assert bot or entered, results


def test_a_bot_account_signs_up_through_the_api_not_the_page(db):
    """Bot accounts play only through the API (docs/bots/contract.md), as the lobby's forms refuse them."""
    alice, dave = people.players(2)
    tournament = create(alice, bots_allowed=True)
    make_bot(dave)

    answer = client_for(dave).post(f"/tournaments/{tournament['id']}/join/", follow=True)

    assert not Entry.objects.filter(user=dave).exists()
    assert "This is a bot account" in answer.content.decode()
    assert api_client_for(dave).post(f"{API}{tournament['id']}/join/").status_code in (200, 201)


def test_a_moderator_puts_no_bot_account_in_a_players_place():
    """Even a tournament that allows bots takes only the bot accounts that signed up."""
    alice, bob, dave = people.players(3)
    tournament = create(alice, bots_allowed=True, seats=2, advance=1)
    for user in (alice, bob):
        assert api_client_for(user).post(f"{API}{tournament['id']}/join/").status_code in (200, 201)
    make_bot(dave)
    mona = people.moderator("mona")

    answer = api_client_for(mona).post(f"{API}{tournament['id']}/replace/",
                                   {"leaving": "bob", "joining": "dave"}, format="json")

    assert_error(answer, 403, "not_your_bot")
    assert sorted(Entry.objects.filter(tournament_id=tournament["id"])
                  .values_list("user__username", flat=True)) == ["alice", "bob"]
