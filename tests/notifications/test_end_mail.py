"""The end of a game by mail (issue 28, item 10): one mail that says both who left and that
the game is over, the reader's result, and their rating change, which the mail waits for
(ratings are recorded by a worker after the game-ending commit)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from bots import outlook
from games.models import Game
from notifications import delivery
from notifications.models import Notification
from ratings import analysis, recording
from ratings.models import PlayerResult
from tests.notifications.support import act, rows, started
from tests.ratings.support import finished_game, players


@pytest.fixture
def established(settings):
    """Ratings move from the first game (the newcomers' rule would hold them at nothing)."""
    settings.CONQUEST_RATING_ESTABLISHED_GAMES = 0


def with_address(*names):
    User = get_user_model()
    for name in names:
        User.objects.filter(username=name).update(email=f"{name}@example.com")


def test_a_resignation_that_ends_the_game_sends_one_mail_that_says_both(alice, bob):
    game = started(alice, bob)

    act(game, bob, {"type": "resign"})

    assert rows(game, kind=Notification.DROPPED) == []
    ends = rows(game, kind=Notification.FINISHED)
    assert sorted(row.user.username for row in ends) == ["alice", "bob"]
    recording.record_pending()
    for row in ends:
        assert delivery.send_one(row.pk) == "sent"
    to_alice, to_bob = sorted(mail.outbox, key=lambda m: m.to)
    for message in (to_alice, to_bob):
        assert message.subject == "Moscow 1812 is over"
        assert "Blue (bob) resigned" in message.body
        assert "The game is over. The winner is Red (alice)." in message.body
        assert "Blue (bob) resigned" in message.alternatives[0][0]
    assert "You won." in to_alice.body and "You lost (2nd of 2)." in to_bob.body
    assert "Offer a rematch on the game's page" in to_alice.body


def test_a_resignation_that_leaves_the_game_running_still_says_so(alice, bob, charlie):
    game = started(alice, bob, charlie)

    act(game, charlie, {"type": "resign"})

    assert len(rows(game, kind=Notification.DROPPED)) == 3
    assert rows(game, kind=Notification.FINISHED) == []


def test_the_end_mail_waits_for_the_ratings_and_tells_the_change(db, established):
    alice, bob = players("alice", "bob")
    with_address("alice", "bob")
    game = finished_game([alice, bob])
    ends = rows(game, kind=Notification.FINISHED)
    assert len(ends) == 2

    assert {delivery.send_one(row.pk) for row in ends} == {
        "held: the game's ratings are not recorded yet"}
    assert mail.outbox == []

    recording.record_pending()
    assert {delivery.send_one(row.pk) for row in ends} == {"sent"}
    for message in mail.outbox:
        result = PlayerResult.objects.get(game=game, user__email=message.to[0])
        change = result.rating - result.rating_before
        assert change != 0
        sign = "+" if change > 0 else "\u2212"
        assert (f"Your rating: {result.rating_before} \u2192 {result.rating} "
                f"({sign}{abs(change)}).") in message.body


def test_the_end_mail_goes_without_the_rating_when_it_waited_long_enough(alice, bob, clock,
                                                                        settings):
    game = started(alice, bob)
    act(game, bob, {"type": "resign"})
    (row, _) = rows(game, kind=Notification.FINISHED)
    assert delivery.send_one(row.pk).startswith("held")

    clock.advance(seconds=settings.CONQUEST_END_MAIL_WAIT_SECONDS + 1)

    assert delivery.send_one(row.pk) == "sent"
    assert "Your rating" not in mail.outbox[0].body


def test_an_unrated_game_says_the_rating_did_not_move(alice, bob):
    game = started(alice, bob)
    Game.objects.filter(pk=game.pk).update(rated=False)
    act(game, bob, {"type": "resign"})
    recording.record_pending()

    for row in rows(game, kind=Notification.FINISHED):
        assert delivery.send_one(row.pk) == "sent"
    # It says why, as the game's page does.
    assert all("This game was not rated: its creator chose so." in m.body for m in mail.outbox)


def test_an_elimination_that_leaves_the_game_running_still_mails_the_loser(alice, bob,
                                                                          charlie):
    from types import SimpleNamespace

    from engine import events as ev
    from games.store.seats import read_seats
    from games.store.states import load_state
    from notifications import outbox

    game = started(alice, bob, charlie)
    state = load_state(game)
    eliminated = SimpleNamespace(type=ev.PLAYER_ELIMINATED, data={"seat": 2, "by": 0},
                                 seq=state.version + 1)
    finished = SimpleNamespace(type=ev.GAME_FINISHED, data={"winner": 0}, seq=state.version + 2)

    seats = read_seats(game)
    running = outbox.rows_for(game, seats, [eliminated], state, state)
    ending = outbox.rows_for(game, seats, [eliminated, finished], state, state)

    assert [(r.kind, r.user.username) for r in running] == [(Notification.ELIMINATED, "charlie")]
    assert {r.kind for r in ending} == {Notification.FINISHED}


def test_the_end_mail_links_the_charts_and_tells_the_turning_point_once_analysed(
        db, settings, monkeypatch):
    settings.CONQUEST_ANALYSIS_PLAYOUTS = 8
    monkeypatch.setattr(outlook, "PLAYOUT_DECISIONS", 200)
    alice, bob, dave = players("alice", "bob", "dave")
    with_address("alice", "bob", "dave")
    game = finished_game([alice, bob, dave], leave=[dave, bob])
    recording.record_pending()
    first, *others = rows(game, kind=Notification.FINISHED)
    assert delivery.send_one(first.pk) == "sent"
    assert "The game in charts" in mail.outbox[0].body
    assert "The turning point:" not in mail.outbox[0].body  # not analysed yet

    while analysis.do_analyse(game.pk):
        pass
    for row in others:
        assert delivery.send_one(row.pk) == "sent"

    row = analysis.done(game.pk)
    biggest = max(row.turning_points, key=lambda p: p["swing"])
    for message in mail.outbox[1:]:
        assert f"The turning point: Turn {biggest['turn']}: " in message.body
        assert "#story" in message.body
        assert "#story" in message.alternatives[0][0]
