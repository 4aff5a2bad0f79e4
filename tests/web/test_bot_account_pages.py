"""A bot account on the pages (docs/bots/contract.md "Bot accounts"): it may sign in and read, but
every form that plays, joins, creates or seats refuses it with a clear message and does
nothing; its seat shows as a bot with its owner's name. By mail it is refused too."""

from __future__ import annotations

import pytest

from accounts import tokens
from games.models import Event, Game, Seat
from games.store.states import load_state
from lobby import bot_accounts, open_games
from notifications import links
from notifications.models import InboundMail
from tests.games_in_states import open_game
from tests.people import client_for, with_password
from tests.web.support import post_play
from web import mail_moves

pytestmark = pytest.mark.django_db
REFUSAL = "This is a bot account: it plays only through the API"


@pytest.fixture
def robo(alice):
    """A bot account alice runs (she proves it with one of her tokens)."""
    account = with_password("robo")
    bot_accounts.convert(account, "alice", tokens.issue(alice))
    return account


@pytest.fixture
def game_with_robo(alice, robo):
    game = open_game(alice, 2, "People and a bot", rules={"placement_batch": 100})
    open_games.add_bot(game, alice, account="robo")
    game.refresh_from_db()
    assert game.status == Game.ACTIVE
    return game


def test_its_play_form_is_refused_with_nothing_done(game_with_robo, robo):
    before = Event.objects.filter(game=game_with_robo).count()

    answer = post_play(client_for(robo), game_with_robo, {"type": "end_turn"})

    assert answer.status_code == 403
    assert REFUSAL in answer.content.decode()
    assert Event.objects.filter(game=game_with_robo).count() == before


def test_it_reads_its_game_without_forms_and_is_shown_with_its_owner(game_with_robo, robo,
                                                                      alice):
    page = client_for(robo).get(f"/games/{game_with_robo.pk}/").content.decode()

    assert REFUSAL in page
    assert 'name="type"' not in page  # no play form
    others = client_for(alice).get(f"/games/{game_with_robo.pk}/").content.decode()
    assert "bot of alice" in others
    assert 'href="/players/robo/"' in others


@pytest.mark.parametrize("path, fields", [
    ("/games/{id}/join/", {}),
    ("/games/new/", {"name": "By a bot", "players": "2"}),
    ("/games/against-the-computer/", {"level": "easy", "opponents": "1"}),
])
def test_its_lobby_forms_are_refused(alice, robo, path, fields):
    game = open_game(alice, 3, "Open", bots_allowed=True)
    games, seats = Game.objects.count(), Seat.objects.count()

    answer = client_for(robo).post(path.format(id=game.pk), fields, follow=True)

    assert REFUSAL in answer.content.decode()
    assert (Game.objects.count(), Seat.objects.count()) == (games, seats)


def test_a_mail_from_a_bot_account_plays_nothing(game_with_robo, robo):
    game = game_with_robo
    before = game.version
    address = links.reply_address(game.pk, 1, robo.pk, game.turn)

    received = mail_moves.receive(robo.email, [address], "<bot@example.com>", "end turn\n")

    assert received.status == InboundMail.REFUSED
    assert "bot account" in received.detail
    game.refresh_from_db()
    assert game.version == before and not load_state(game).finished


def test_the_creator_seats_a_bot_account_from_the_game_page(alice, robo):
    game = open_game(alice, 3, "Open")
    page = client_for(alice).get(f"/games/{game.pk}/").content.decode()
    assert '<option value="robo">robo</option>' in page

    answer = client_for(alice).post(f"/games/{game.pk}/bots/", {"account": "robo"},
                                    follow=True)

    assert "A bot account took a seat." in answer.content.decode()
    assert Seat.objects.get(game=game, seat=1).user == robo
    refused = client_for(alice).post(f"/games/{game.pk}/bots/", {"account": "nobody"},
                                     follow=True)
    assert Seat.objects.filter(game=game).count() == 2
    assert "There is no bot account of that name." in refused.content.decode()


def test_the_page_seats_no_bot_account_of_another_owner(alice, bob):
    """bob's bot account is his to seat: alice's form is refused, with nothing seated."""
    bot_accounts.convert(with_password("bobbot"), "bob", tokens.issue(bob))
    game = open_game(alice, 2, "Private", private=True, rated=True)
    page = client_for(alice).get(f"/games/{game.pk}/").content.decode()
    assert 'name="account"' not in page  # she owns none: the form offers only hers

    answer = client_for(alice).post(f"/games/{game.pk}/bots/", {"account": "bobbot"},
                                    follow=True)

    assert "Only its owner seats a bot account. The bot account bobbot is bob&#x27;s" \
        in answer.content.decode()
    assert Seat.objects.filter(game=game).count() == 1
    assert not Event.objects.filter(game=game).exists()
