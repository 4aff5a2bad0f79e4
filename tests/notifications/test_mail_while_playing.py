"""No mail a player at the screen does not need: none that a game started when they started
it themselves, no "your move" while they are on the site (any page, its poll or stream,
and some minutes after), and, in a game against computer players only, none until they
have been away a good while. The presence is the one the pages report: requests of a
signed-in browser and the game page's poll."""

from __future__ import annotations

from django.core import mail
from django.test import Client

from games import computer
from games.models import Game
from games.store.states import load_state
from lobby import open_games
from notifications import delivery, presence
from notifications.models import Notification
from tests.games_in_states import open_game
from tests.notifications.support import rows, started, user_at
from tests.people import client_for, user


def on_a_page(user, path: str = "/games/") -> Client:
    """`user` opens a page of the site (the lobby unless said)."""
    client = client_for(user)
    assert client.get(path).status_code == 200
    return client


def turn_row(game):
    state = load_state(game)
    player = user_at(game, state.current)
    return rows(game, kind=Notification.TURN, user=player)[-1], player


def turn_mails_to(user) -> list:
    return [m for m in mail.outbox if m.to == [user.email] and m.subject.startswith("Your move")]


def against_computers(user) -> Game:
    """`user` against two computer players, until it is `user`'s move."""
    game = open_game(user, 3, "Against the machines", rules={"placement_batch": 100},
                     bots=["easy", "easy"])
    for _ in range(20):
        game.refresh_from_db()
        if rows(game, kind=Notification.TURN, user=user, sent_at__isnull=True):
            return game
        computer.play(game.pk)
    raise AssertionError("the computer players never handed the move over")


# ---- a game the player started --------------------------------------------------------
def test_it_mails_no_start_to_whoever_started_the_game_against_computers(alice, clock):
    game = open_game(alice, 2, "Against a bot", bots=["easy"])

    assert game.status == Game.ACTIVE
    assert rows(game, kind=Notification.STARTED) == []


def test_it_mails_the_start_to_the_others_but_not_to_whoever_pressed_start(
        alice, bob, charlie, clock):
    game = open_game(alice, 3, "Before it fills")
    open_games.join_game(game, bob)
    open_games.start_game(game, alice)

    assert [row.user for row in rows(game, kind=Notification.STARTED)] == [bob]


def test_it_mails_no_start_to_the_creator_who_adds_the_last_computer_player(alice, clock):
    game = open_game(alice, 2, "Filled by hand")
    open_games.add_bot(game, alice, "easy")

    game.refresh_from_db()
    assert game.status == Game.ACTIVE
    assert rows(game, kind=Notification.STARTED) == []


# ---- on the site, any page ------------------------------------------------------------
def test_it_holds_a_turn_mail_while_the_player_is_on_another_page_of_the_site(game):
    row, player = turn_row(game)
    on_a_page(player)

    assert delivery.send_one(row.pk).startswith("held")
    assert delivery.send_many([row.pk]) == 0
    row.refresh_from_db()
    assert row.sent_at is None and row.attempts == 0
    assert mail.outbox == []


def test_it_mails_once_the_player_has_left_the_site_for_the_grace(game, clock, settings):
    row, player = turn_row(game)
    client = on_a_page(player)
    clock.advance(seconds=settings.CONQUEST_ON_SITE_SECONDS - 30)
    client.get("/notifications/")  # still about: the grace starts again
    clock.advance(seconds=settings.CONQUEST_ON_SITE_SECONDS - 30)
    assert delivery.send_many([row.pk]) == 0

    clock.advance(seconds=31)

    assert row.pk in delivery.unsent()
    delivery.send_many(delivery.unsent())
    delivery.send_many([row.pk])
    assert len(turn_mails_to(player)) == 1


def test_another_games_page_and_its_poll_count_as_being_on_the_site(game, alice, bob, clock,
                                                                   settings):
    row, player = turn_row(game)
    other = started(alice, bob)
    client = client_for(player)
    client.get(f"/games/{other.pk}/live/")
    # The game page's stream reports the same presence as its poll.
    clock.advance(seconds=settings.CONQUEST_ON_SITE_SECONDS - 10)
    presence.seen(player, other.pk, False)
    clock.advance(seconds=settings.CONQUEST_ON_SITE_SECONDS - 10)

    assert delivery.send_one(row.pk).startswith("held")


def test_it_mails_a_player_who_was_not_on_the_site(game):
    row, player = turn_row(game)
    opponent = next(u for u in (user_at(game, 0), user_at(game, 1)) if u != player)
    on_a_page(opponent)

    assert delivery.send_one(row.pk) == "sent"


def test_a_visitor_signed_out_leaves_no_presence(game):
    Client().get("/games/")

    assert presence.last_on_site([]) == {}
    assert not presence.on_site_until({user_at(game, 0).pk, user_at(game, 1).pk})


# ---- a game against computer players --------------------------------------------------
def test_a_computer_game_mails_only_once_the_player_has_been_away_a_while(alice, clock,
                                                                          settings):
    on_a_page(alice)
    game = against_computers(alice)
    row = rows(game, kind=Notification.TURN, user=alice)[-1]
    assert row.payload.get("against_computers") is True

    clock.advance(seconds=settings.CONQUEST_ON_SITE_SECONDS + 1)  # left a moment ago
    assert delivery.send_one(row.pk).startswith("held")
    clock.advance(seconds=settings.CONQUEST_COMPUTER_GAME_AWAY_SECONDS
                  - settings.CONQUEST_ON_SITE_SECONDS - 2)
    assert delivery.send_many([row.pk]) == 0

    clock.advance(seconds=2)

    assert delivery.send_one(row.pk) == "sent"
    assert len(turn_mails_to(alice)) == 1


def test_a_computer_game_mails_at_once_a_player_never_seen_on_the_site(db, clock):
    by_mail = user("dora")
    game = against_computers(by_mail)
    row = rows(game, kind=Notification.TURN, user=by_mail)[-1]

    assert delivery.send_one(row.pk) == "sent"


def test_a_game_between_people_mails_after_the_short_grace(game, clock, settings):
    row, player = turn_row(game)
    on_a_page(player)
    assert "against_computers" not in row.payload

    clock.advance(seconds=settings.CONQUEST_ON_SITE_SECONDS + 1)

    assert delivery.send_one(row.pk) == "sent"
