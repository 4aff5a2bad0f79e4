"""notifications/presence.py: no "your move" mail while its reader is on the game's page,
and one mail after they leave without moving; no other mail about the game while they are
there, nor after, if the page showed them what it says."""

from __future__ import annotations

from django.core import mail
from django.test import Client

from games.store.states import load_state
from notifications import delivery, presence
from notifications.models import Notification, Presence
from tests.notifications.support import act, rows, send_everything, user_at


def on_the_page(user, game) -> Client:
    client = Client()
    client.force_login(user)
    assert client.get(f"/games/{game.pk}/live/").status_code in (200, 204)
    return client


def turn_row(game):
    """The turn mail to the player whose move it is, and that player."""
    state = load_state(game)
    player = user_at(game, state.current)
    return rows(game, kind=Notification.TURN, user=player)[-1], player


def test_it_holds_a_turn_mail_while_the_player_is_on_the_page(game):
    row, player = turn_row(game)
    on_the_page(player, game)

    assert delivery.send_one(row.pk).startswith("held")
    assert delivery.send_many([row.pk]) == 0

    row.refresh_from_db()
    assert mail.outbox == []
    assert row.sent_at is None and row.claimed_at is None
    assert row.attempts == 0  # a long visit does not use up the tries
    assert row.pk not in presence.waiting([]) and presence.waiting([row]) != {}


def test_it_mails_once_when_the_player_leaves_without_moving(game, clock, settings):
    row, player = turn_row(game)
    on_the_page(player, game)
    assert delivery.send_many([row.pk]) == 0

    # Off the page, they count as on the site for a while yet (test_mail_while_playing.py).
    clock.advance(seconds=settings.CONQUEST_PRESENCE_SECONDS + 1)
    assert delivery.send_many([row.pk]) == 0
    clock.advance(seconds=settings.CONQUEST_ON_SITE_SECONDS)

    assert row.pk in delivery.unsent()
    delivery.send_many(delivery.unsent())
    assert delivery.send_many([row.pk]) == 0
    turn_mails = [m for m in mail.outbox if m.subject.startswith("Your move")]
    assert [m.to for m in turn_mails] == [[player.email]]


def test_it_keeps_holding_while_the_page_keeps_polling(game, clock, settings):
    row, player = turn_row(game)
    client = on_the_page(player, game)
    for _ in range(3):
        clock.advance(seconds=settings.CONQUEST_PRESENCE_SECONDS - 5)
        client.get(f"/games/{game.pk}/live/")
        assert delivery.send_many([row.pk]) == 0

    assert mail.outbox == []


def test_it_sends_no_mail_at_all_when_the_player_moves_while_there(game, clock, settings):
    row, player = turn_row(game)
    on_the_page(player, game)
    assert delivery.send_many([row.pk]) == 0
    state = load_state(game)
    own = state.territories_of(state.current)[0]
    act(game, player, {"type": "place", "placements": {own: state.reinforcements}})
    game.refresh_from_db()
    if load_state(game).current == state.current:  # still theirs: end the turn
        act(game, player, {"type": "end_attack"})
        act(game, player, {"type": "end_turn"})

    clock.advance(seconds=settings.CONQUEST_PRESENCE_SECONDS + 1)
    delivery.send_many([row.pk])

    row.refresh_from_db()
    assert row.sent_at is not None and row.skipped
    assert player.email not in [m.to[0] for m in mail.outbox]


def test_it_mails_the_player_when_someone_else_is_on_the_page(game):
    row, player = turn_row(game)
    opponent = next(u for u in (user_at(game, 0), user_at(game, 1)) if u != player)
    on_the_page(opponent, game)

    assert delivery.send_one(row.pk) == "sent"


def test_an_anonymous_visitor_leaves_no_presence(game):
    Client().get(f"/games/{game.pk}/live/")

    assert not Presence.objects.exists()


def test_the_page_marks_the_games_notifications_read(game):
    row, player = turn_row(game)
    assert row.read_at is None

    on_the_page(player, game)

    row.refresh_from_db()
    assert row.read_at is not None


def test_a_poll_that_brings_the_players_turn_marks_its_entry_read(game):
    state = load_state(game)
    waiting = user_at(game, 1 - state.current)
    client = on_the_page(waiting, game)
    own = state.territories_of(state.current)[0]
    act(game, user_at(game, state.current), {"type": "place", "placements": {own: 1}})
    row = rows(game, kind=Notification.TURN, user=waiting)[-1]
    assert row.read_at is None

    client.get(f"/games/{game.pk}/live/?v=old")  # within REFRESH of the last write

    row.refresh_from_db()
    assert row.read_at is not None


def test_it_holds_the_started_mail_while_its_reader_is_on_the_games_page(game, clock, settings):
    """ "has started" came while its player had the game's page open (issue 58)."""
    row = rows(game, kind=Notification.STARTED)[0]
    on_the_page(row.user, game)

    assert delivery.send_many([row.pk]) == 0
    clock.advance(seconds=settings.CONQUEST_PRESENCE_SECONDS + settings.CONQUEST_ON_SITE_SECONDS
                  + 1)

    # They saw the started game on its page: no mail at all, once they are gone either.
    delivery.send_many(delivery.unsent())
    row.refresh_from_db()
    assert row.sent_at is not None and row.skipped
    assert not [m for m in mail.outbox if m.to == [row.user.email] and "started" in m.subject]


def test_the_end_mail_waits_on_the_page_and_goes_only_if_they_left_before_the_end(
        game, clock, settings, alice, bob):
    away = settings.CONQUEST_PRESENCE_SECONDS + settings.CONQUEST_ON_SITE_SECONDS + 1
    watching = on_the_page(alice, game)
    on_the_page(bob, game)
    act(game, bob, {"type": "resign"})
    game.refresh_from_db()
    send_everything()
    assert mail.outbox == []  # both on the page: nothing yet
    # alice's page shows the end (the poll brings it); bob left before it.
    assert watching.get(f"/games/{game.pk}/live/").status_code == 200
    clock.advance(seconds=away)

    mails = send_everything()

    (alice_end,) = rows(game, kind=Notification.FINISHED, user=alice)
    (bob_end,) = rows(game, kind=Notification.FINISHED, user=bob)
    assert alice_end.skipped and alice_end.sent_at is not None
    assert not bob_end.skipped and [m.to for m in mails] == [[bob.email]]
