"""An invitation by name is mailed to the invitee (if they take game mail), in their
language, once; not once it was withdrawn or declined, nor after the game started."""

from __future__ import annotations

from django.core import mail

from games import visibility
from games.models import Game
from lobby import invitations, open_games
from notifications import delivery
from notifications.models import Notification
from tests.games_in_states import open_game
from tests.notifications.support import mails_to, rows, send_everything
from tests.people import user


def private_game(creator, players=3) -> Game:
    return open_game(creator, players, "Among friends", private=True)


def test_the_invitee_gets_one_mail_with_the_games_link(alice, bob):
    game = private_game(alice)
    invitations.invite(game, alice, "bob")
    mails = mails_to(send_everything(), bob)
    assert len(mails) == 1
    message = mails[0]
    assert message.subject == "alice invites you to Among friends"
    assert "alice invites you to play in this game" in message.body
    assert f"/mail/game/{game.pk}/" in message.body
    assert visibility.link_token(game).split("-", 1)[1] not in message.body
    assert send_everything() == []  # once


def test_it_speaks_the_invitees_language(alice):
    pavel = user("pavel", language="cs")
    game = private_game(alice)
    invitations.invite(game, alice, "pavel")
    (message,) = mails_to(send_everything(), pavel)
    assert "alice" in message.subject and "invites you" not in message.subject


def test_no_mail_for_a_player_who_takes_no_game_mail(alice):
    quiet = user("quiet", game_mail=False)
    game = private_game(alice)
    invitations.invite(game, alice, "quiet")
    assert mails_to(send_everything(), quiet) == []
    assert rows(game, user=quiet, kind=Notification.INVITATION)[0].skipped


def test_a_withdrawn_or_declined_invitation_is_not_mailed(alice, bob, charlie):
    game = private_game(alice)
    invitations.invite(game, alice, "bob")
    invitations.invite(game, alice, "charlie")
    invitations.withdraw(game, alice, "bob")
    invitations.decline(game, charlie)
    assert send_everything() == []
    for row in rows(game, kind=Notification.INVITATION):
        assert row.skipped and "answered or withdrawn" in row.last_error


def test_no_invitation_mail_after_the_game_started(alice, bob, charlie):
    game = private_game(alice, players=2)
    invitations.invite(game, alice, "charlie")
    open_games.join_game(game, bob, token=visibility.link_token(game))
    (row,) = rows(game, kind=Notification.INVITATION)
    assert delivery.send_one(row.pk) == "skipped"
    assert mails_to(mail.outbox, charlie) == []
