"""Web push through the real parts: a Celery worker on a real Redis pushes "your move" and
"a game has started" to a push service on loopback (tests/notifications/push_service.py),
beside the mail it sends through a real SMTP exchange."""

from __future__ import annotations

import pytest

from games.models import Game, Seat
from games.store.states import load_state
from notifications import push
from tests.games_in_states import new_game
from tests.notifications.push_service import PushService, new_vapid_key
from tests.notifications.real_parts import (
    Celery,
    publishing_to,
    smtp_server,
    wait_until,
)
from tests.people import signed_up

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_worker_pushes_the_players_move_and_the_start(redis, settings):
    key = new_vapid_key()
    settings.CONQUEST_VAPID_PRIVATE_KEY, settings.CONQUEST_PUSH = key, True
    settings.CONQUEST_PUSH_HOSTS = ["127.0.0.1"]
    with smtp_server() as (mailbox, smtp_port), publishing_to(redis.url), \
            PushService(push.public_key(), settings.CONQUEST_VAPID_SUBJECT) as service:
        celery = Celery(redis.url, smtp_port, CONQUEST_VAPID_PRIVATE_KEY=key, CONQUEST_PUSH="1",
                        CONQUEST_PUSH_HOSTS="127.0.0.1")
        alice, bob = signed_up("alice"), signed_up("bob")
        for name, client in (("alice", alice), ("bob", bob)):
            answer = client.post("/api/v1/push/", service.browser(name).subscription(),
                                 format="json")
            assert answer.status_code == 201, answer.content
        try:
            celery.start_worker()
            game_id = new_game(alice, bob, placement_batch=3)
            game = Game.objects.get(pk=game_id)
            mover = Seat.objects.get(game=game, seat=load_state(game).current).user.username
            assert wait_until(lambda: any(m["title"] == "Your move" for m in service.to(mover)),
                              20), celery.log("worker")
            assert wait_until(lambda: all(
                any(m["title"] == "A game has started" for m in service.to(name))
                for name in ("alice", "bob")), 10), celery.log("worker")
        finally:
            celery.stop()
    assert service.problems == []
    (turn,) = [m for m in service.to(mover) if m["title"] == "Your move"]
    assert turn["url"] == f"/games/{game_id}/" and turn["body"] == "Test game"
    other = "bob" if mover == "alice" else "alice"
    assert not [m for m in service.to(other) if m["title"] == "Your move"]
    assert mailbox.messages  # and the mail went too
