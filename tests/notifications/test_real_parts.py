"""Integration and fault tests with real parts: a Celery worker on a real Redis, mail
through a real SMTP exchange on loopback, a broker that goes down, a worker that dies."""

from __future__ import annotations

import threading
import time

import pytest
from django.contrib.auth.models import User

from games.models import Event, Game
from games.store.states import load_state
from notifications.models import Notification
from tests.games_in_states import new_game
from tests.notifications.real_parts import (
    Celery,
    publishing_to,
    smtp_server,
    wait_until,
)
from tests.people import signed_up

pytestmark = pytest.mark.django_db(transaction=True)


def turn_mails_to(mailbox, address: str) -> list:
    return [m for m in mailbox.messages if m["To"] == address and "move" in m["Subject"]]


def first_placement(game_id: int) -> tuple[str, dict]:
    """Who must place first, and a legal placement of their batch."""
    game = Game.objects.get(pk=game_id)
    state = load_state(game)
    seat = state.current
    territory = state.territories_of(seat)[0]
    return seat, {"type": "place", "placements": {territory: state.reinforcements},
                  "expected_version": state.version}


def test_it_mails_the_next_player_through_a_real_worker_and_smtp(redis):
    with smtp_server() as (mailbox, smtp_port), publishing_to(redis.url):
        celery = Celery(redis.url, smtp_port)
        alice, bob = signed_up("alice"), signed_up("bob")  # and confirmed: no mail for that
        try:
            celery.start_worker()
            game_id = new_game(alice, bob, placement_batch=3)
            assert wait_until(lambda: len(mailbox.messages) >= 3, 15), celery.log("worker")
            seat, move = first_placement(game_id)
            clients = {0: alice, 1: bob}
            other = User.objects.get(seats__game_id=game_id, seats__seat=1 - seat)
            before = len(turn_mails_to(mailbox, other.email))
            started = time.monotonic()
            answer = clients[seat].post(f"/api/v1/games/{game_id}/commands/", move,
                                        format="json")
            assert answer.status_code == 201, answer.content
            assert wait_until(lambda: len(turn_mails_to(mailbox, other.email)) > before, 10), (
                celery.log("worker"))
            elapsed = time.monotonic() - started
        finally:
            celery.stop()
    mail = turn_mails_to(mailbox, other.email)[-1]
    assert elapsed < 10
    assert "Test game" in mail["Subject"]
    assert mail["List-Unsubscribe"] and mail["Reply-To"].startswith("play+")
    text = next(p for p in mail.walk() if p.get_content_type() == "text/plain")
    body = text.get_payload(decode=True).decode()
    assert "Deadline:" in body and f"/mail/game/{game_id}/" in body
    assert Notification.objects.filter(sent_at__isnull=True, digest=False).count() == 0


def test_it_sends_once_when_the_worker_dies_mid_delivery(redis):
    with smtp_server() as (mailbox, smtp_port), publishing_to(redis.url):
        celery = Celery(redis.url, smtp_port, CONQUEST_MAIL_LEASE_SECONDS=2,
                        CONQUEST_OUTBOX_GRACE_SECONDS=1)
        alice, bob = signed_up("alice"), signed_up("bob")
        try:
            celery.start_worker()
            mailbox.stall.set()  # the first SMTP session hangs before any data is sent
            game_id = new_game(alice, bob)
            assert wait_until(mailbox.stalled.is_set, 15), celery.log("worker")
            # A worker claims a task's rows together: every one of them stays claimed.
            stuck = list(Notification.objects.filter(claimed_at__isnull=False,
                                                     sent_at__isnull=True))
            assert stuck
            celery.kill("worker")  # mid-delivery: the rows stay claimed, nothing was sent
            # The one whose mail was on its way: the worker cannot know whether the server
            # took it. The rest never reached the server.
            in_flight = [row for row in stuck if Notification.objects.get(pk=row.pk).maybe_sent]
            assert len(in_flight) == 1
            celery.start_worker()
            time.sleep(2.5)  # the dead worker's lease runs out
            from notifications.tasks import sweep_outbox
            sweep_outbox.delay()
            wanted = [f"<notification-{row.pk}@localhost>" for row in stuck
                      if row not in in_flight]
            assert wait_until(lambda: all(mailbox.with_header("Message-ID", one)
                                          for one in wanted), 15), celery.log("worker")
            time.sleep(1)
            sweep_outbox.delay()  # a second sweep finds nothing left to send
            time.sleep(1.5)
        finally:
            celery.stop()
    assert all(len(mailbox.with_header("Message-ID", one)) == 1 for one in wanted)
    game_mails = Notification.objects.filter(game_id=game_id)
    assert all(n.sent_at for n in game_mails)
    unknown = Notification.objects.get(pk=in_flight[0].pk)
    assert unknown.maybe_sent and not unknown.skipped and "not sent again" in unknown.last_error
    assert not mailbox.with_header("Message-ID", unknown.message_id)  # (it stalled at RCPT)
    sent_ids = [m["Message-ID"] for m in mailbox.messages]
    assert len(sent_ids) == len(set(sent_ids)) == game_mails.count() - 1


def test_a_mail_accepted_before_the_worker_died_is_sent_or_unknown_never_skipped(redis):
    """The worker dies after the mail server accepted the batch but before the rows were
    stamped; by the time the lease runs out the game has ended, so the turn mail is no
    longer worth sending: it may have gone out all the same, and the row says so."""
    with smtp_server() as (mailbox, smtp_port), publishing_to(redis.url):
        celery = Celery(redis.url, smtp_port, CONQUEST_MAIL_LEASE_SECONDS=2,
                        CONQUEST_OUTBOX_GRACE_SECONDS=1)
        alice, bob = signed_up("alice"), signed_up("bob")
        try:
            celery.start_worker()
            # The turn mail and the rest of its batch accepted, then the worker hangs.
            mailbox.stall_quit_after = lambda message: "move" in message["Subject"]
            game_id = new_game(alice, bob)
            assert wait_until(mailbox.stalled.is_set, 15), celery.log("worker")
            turn = Notification.objects.get(game_id=game_id, kind="turn")
            assert turn.claimed_at and turn.sent_at is None
            celery.kill("worker")
            wanted = f"<notification-{turn.pk}@localhost>"
            assert len(mailbox.with_header("Message-ID", wanted)) == 1  # it did go out
            other = alice if turn.user_id == bob.user_id else bob
            assert other.post(f"/api/v1/games/{game_id}/commands/", {"type": "resign"},
                              format="json").status_code == 201  # the game is over
            celery.start_worker()
            time.sleep(2.5)  # the dead worker's lease runs out
            from notifications.tasks import sweep_outbox
            sweep_outbox.delay()
            assert wait_until(lambda: Notification.objects.get(pk=turn.pk).sent_at, 15), (
                celery.log("worker"))
        finally:
            celery.stop()
    turn.refresh_from_db()
    assert not turn.skipped and turn.maybe_sent
    assert turn.message_id == wanted
    assert "may have been sent" in turn.last_error
    assert len(mailbox.with_header("Message-ID", wanted)) == 1  # and was not sent again
    assert not Notification.objects.filter(game_id=game_id, kind="started", skipped=True)


def test_it_moves_with_the_broker_down_and_mails_once_it_is_back(redis):
    with smtp_server() as (mailbox, smtp_port), publishing_to(redis.url):
        celery = Celery(redis.url, smtp_port, CONQUEST_OUTBOX_GRACE_SECONDS=1,
                        CONQUEST_OUTBOX_SWEEP_SECONDS=1)
        alice, bob = signed_up("alice"), signed_up("bob")
        try:
            celery.start_worker()
            celery.start_beat()
            game_id = new_game(alice, bob, placement_batch=3)
            assert wait_until(lambda: len(mailbox.messages) >= 3, 15), celery.log("worker")
            redis.stop()
            seat, move = first_placement(game_id)
            other = User.objects.get(seats__game_id=game_id, seats__seat=1 - seat)
            before = len(turn_mails_to(mailbox, other.email))
            started = time.monotonic()
            answer = (alice if seat == 0 else bob).post(
                f"/api/v1/games/{game_id}/commands/", move, format="json")
            assert answer.status_code == 201, answer.content
            assert time.monotonic() - started < 8  # the move did not wait on the broker
            assert Event.objects.filter(game_id=game_id).count() == move["expected_version"] + 1
            waiting = Notification.objects.get(kind="turn", user=other, sent_at__isnull=True)
            time.sleep(2)
            assert len(turn_mails_to(mailbox, other.email)) == before  # nothing while down
            redis.start()  # same port: worker and beat reconnect, the outbox sweep runs
            wanted = f"<notification-{waiting.pk}@localhost>"
            assert wait_until(lambda: mailbox.with_header("Message-ID", wanted), 30), (
                celery.log("worker") + celery.log("beat"))
            time.sleep(2)  # further sweeps must not send it again
        finally:
            celery.stop()
    assert len(mailbox.with_header("Message-ID", wanted)) == 1


def test_it_applies_each_timeout_once_when_two_sweeps_race():
    from datetime import timedelta

    from django.db import connections
    from django.utils import timezone

    from games.deadlines import sweep_deadlines

    alice, bob = signed_up("alice"), signed_up("bob")
    game_ids = [new_game(alice, bob, placement_batch=5) for _ in range(12)]
    Game.objects.filter(pk__in=game_ids).update(deadline=timezone.now() - timedelta(seconds=1))
    barrier = threading.Barrier(2)
    results, problems = [], []

    def sweeper():
        try:
            barrier.wait()
            results.append(sweep_deadlines())
        except Exception as problem:  # noqa: BLE001 - reported below
            problems.append(problem)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=sweeper) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not problems, problems
    assert sum(r["timed_out"] for r in results) == len(game_ids)
    for game_id in game_ids:
        assert Event.objects.filter(game_id=game_id, type="turn_timed_out").count() == 1
    again = sweep_deadlines()  # the deadlines moved on: a third sweep finds nothing due
    assert again["timed_out"] == 0


def test_a_human_plays_two_bots_through_a_real_worker_to_the_end(redis):
    """The human sends only their own moves; the worker plays the bots' within their delay,
    and mails nobody but the human."""
    import random

    from engine.moves import seats_to_act
    from tests.engine.players import bot_command

    with smtp_server() as (mailbox, smtp_port), publishing_to(redis.url):
        celery = Celery(redis.url, smtp_port, CONQUEST_BOT_DELAY_SECONDS="0.2")
        alice = signed_up("alice")
        rnd = random.Random(4)
        try:
            celery.start_worker()
            answer = alice.post("/api/v1/games/", {
                "name": "Alice against the machine", "players": 3,
                "bots": ["normal", "hard"],
                # to the end in a few rounds: whoever holds most then wins
                "rules": {"placement_batch": 100, "round_limit": 6}}, format="json")
            assert answer.status_code == 201, answer.content
            game = Game.objects.get(pk=answer.json()["id"])
            deadline = time.monotonic() + 240
            waits = []
            while time.monotonic() < deadline:
                game.refresh_from_db()  # the worker moves the game on
                state = load_state(game)
                if state.finished:
                    break
                if 0 not in seats_to_act(state) or state.players[0].out:
                    waits.append(time.monotonic())
                    time.sleep(0.05)
                    continue
                command = bot_command(state, 0, rnd) | {"expected_version": state.version}
                sent = alice.post(f"/api/v1/games/{game.pk}/commands/", command, format="json")
                assert sent.status_code in (201, 400, 409), sent.content
            game.refresh_from_db()
            assert load_state(game).finished, celery.log("worker")
        finally:
            celery.stop()
    humans = set(Event.objects.filter(game=game, actor=0).values_list("user_id", flat=True))
    assert humans <= {alice.user_id}
    assert Event.objects.filter(game=game, actor__in=[1, 2]).exists()
    assert {m["To"] for m in mailbox.messages} <= {"alice@example.com"}
