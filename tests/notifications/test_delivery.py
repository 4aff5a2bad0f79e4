"""notifications/delivery.py: claims, leases, failures recorded and retried, and what each
player's preferences let through."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend

from accounts.models import Preferences
from games.store.states import load_state
from notifications import delivery, links, reminders, tasks
from notifications.models import Notification
from tests import people
from tests.notifications.support import act, mails_to, place_setup, rows, started, user_at
from tests.people import user


def started_row(game, user) -> Notification:
    return rows(game, kind=Notification.STARTED, user=user)[0]


def refresh(row: Notification) -> Notification:
    row.refresh_from_db()
    return row


def test_it_sends_a_batch_over_one_connection_and_each_row_once(game, alice, bob,
                                                                  monkeypatch):
    opened = []
    real_init = EmailBackend.__init__

    def counting_init(self, *args, **kwargs):
        opened.append(self)
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(EmailBackend, "__init__", counting_init)
    batch = [started_row(game, alice).pk, started_row(game, bob).pk]

    assert delivery.send_many(batch) == 2
    assert delivery.send_many(batch) == 0

    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.com", "bob@example.com"]
    assert len(opened) == 1  # one for the batch, not one a mail (none with nothing to send)


@pytest.fixture
def broken_mail(monkeypatch):
    """The mail server refuses every message."""
    def refuse(self, messages):
        raise ConnectionRefusedError("mail server is down")
    monkeypatch.setattr(EmailBackend, "send_messages", refuse)
    return monkeypatch


def test_it_sends_a_row_once(game, alice, clock):
    row = started_row(game, alice)

    assert delivery.send_one(row.pk) == "sent"
    assert delivery.send_one(row.pk) == "another worker got there first"

    assert [m.to for m in mail.outbox] == [["alice@example.com"]]
    row = refresh(row)
    assert row.sent_at == clock.now and not row.skipped and row.attempts == 1
    assert row.message_id == f"<notification-{row.pk}@localhost>"


def test_it_lets_only_one_worker_hold_a_claim(game, alice):
    row = started_row(game, alice)

    held = delivery.claim(row.pk)
    assert held
    assert not delivery.claim(row.pk)
    assert delivery.send_one(row.pk) == "another worker got there first"
    assert mail.outbox == []
    assert refresh(row).claimed_by == held


def test_it_gives_every_claim_its_own_id_even_in_one_process(game, alice, clock, settings):
    row = started_row(game, alice)
    first = delivery.claim(row.pk)  # a pool child that then hung
    clock.advance(seconds=settings.CONQUEST_MAIL_LEASE_SECONDS + 1)
    second = delivery.claim(row.pk)  # its sibling, same parent, takes over

    assert first and second and first != second
    # The first one failing late must not release the second one's claim.
    from notifications.models import Notification
    assert Notification.objects.filter(pk=row.pk, claimed_by=first).update(claimed_at=None) == 0
    assert refresh(row).claimed_by == second and refresh(row).claimed_at is not None


def test_it_takes_over_a_claim_whose_lease_ran_out(game, alice, clock, settings):
    row = started_row(game, alice)
    assert delivery.claim(row.pk)  # a worker that then died

    clock.advance(seconds=settings.CONQUEST_MAIL_LEASE_SECONDS - 1)
    assert delivery.send_one(row.pk) == "another worker got there first"
    clock.advance(seconds=2)
    assert delivery.send_one(row.pk) == "sent"

    assert len(mail.outbox) == 1
    assert refresh(row).attempts == 2


def test_it_never_claims_a_sent_row(game, alice, clock, settings):
    row = started_row(game, alice)
    delivery.send_one(row.pk)
    clock.advance(seconds=settings.CONQUEST_MAIL_LEASE_SECONDS * 10)

    assert not delivery.claim(row.pk)
    assert row.pk not in delivery.unsent()


def test_it_records_a_failure_and_leaves_the_row_for_the_sweep(game, alice, clock, settings,
                                                                broken_mail):
    row = started_row(game, alice)

    assert delivery.send_one(row.pk) == "failed"

    row = refresh(row)
    assert row.sent_at is None and row.claimed_at is None and row.attempts == 1
    assert row.last_error == "ConnectionRefusedError: mail server is down"
    clock.advance(seconds=settings.CONQUEST_OUTBOX_GRACE_SECONDS + 1)
    assert row.pk in delivery.unsent()


def test_it_retries_a_failed_row_until_it_goes(game, alice, clock, settings, broken_mail):
    row = started_row(game, alice)
    delivery.send_one(row.pk)
    delivery.send_one(row.pk)
    broken_mail.undo()
    clock.advance(seconds=settings.CONQUEST_OUTBOX_GRACE_SECONDS + 1)

    sent = tasks.sweep_outbox()

    assert sent == len(rows(game))  # every row of the game, the failed one included
    row = refresh(row)
    assert row.sent_at is not None and row.attempts == 3
    assert [m.to for m in mail.outbox].count(["alice@example.com"]) == len(
        rows(game, user=row.user))


def test_it_leaves_fresh_rows_to_the_fast_path(game, clock, settings):
    assert delivery.unsent() == []

    clock.advance(seconds=settings.CONQUEST_OUTBOX_GRACE_SECONDS + 1)

    assert sorted(delivery.unsent()) == sorted(row.pk for row in rows(game))


def test_it_sweeps_a_row_claimed_by_a_worker_that_died(game, alice, clock, settings):
    row = started_row(game, alice)
    delivery.claim(row.pk)
    others = {r.pk for r in rows(game)} - {row.pk}
    for pk in others:
        delivery.send_one(pk)

    clock.advance(seconds=settings.CONQUEST_MAIL_LEASE_SECONDS - 1)
    assert delivery.unsent() == []
    clock.advance(seconds=2)
    assert delivery.unsent() == [row.pk]


def test_it_sends_the_oldest_rows_first(game, clock, settings):
    clock.advance(seconds=settings.CONQUEST_OUTBOX_GRACE_SECONDS + 1)

    assert delivery.unsent() == sorted(row.pk for row in rows(game))
    assert delivery.unsent(limit=1) == [min(row.pk for row in rows(game))]


def test_it_sends_nothing_to_an_unsubscribed_player(alice, bob, clock):
    Preferences.objects.create(user=bob, unsubscribed=True)
    game = started(alice, bob)

    results = {row.user.username: delivery.send_one(row.pk) for row in rows(game)}

    assert results["bob"] == "skipped"
    assert all(m.to == ["alice@example.com"] for m in mail.outbox)
    for row in rows(game, user=bob):
        assert row.sent_at is not None and row.skipped
        assert delivery.send_one(row.pk) == "another worker got there first"


def test_it_skips_turn_mail_but_sends_game_mail_to_a_player_who_wants_none(alice, bob):
    Preferences.objects.create(user=bob, turn_mail=Preferences.NO_TURN_MAIL)
    game = started(alice, bob, initial_placement="simultaneous")

    turn, begun = rows(game, kind=Notification.TURN, user=bob)[0], started_row(game, bob)
    reminder = Notification.objects.create(user=bob, game=game, kind=Notification.REMINDER,
                                           key="reminder:test", payload={"hours": 1})

    assert delivery.send_one(turn.pk) == "skipped"
    assert delivery.send_one(reminder.pk) == "skipped"
    assert delivery.send_one(begun.pk) == "sent"
    assert [m.to for m in mail.outbox] == [["bob@example.com"]]


def test_it_skips_game_mail_for_a_player_who_wants_none(alice, bob):
    Preferences.objects.create(user=bob, game_mail=False)
    game = started(alice, bob, initial_placement="simultaneous")

    assert delivery.send_one(started_row(game, bob).pk) == "skipped"
    assert delivery.send_one(rows(game, kind=Notification.TURN, user=bob)[0].pk) == "sent"


def test_it_skips_a_player_without_a_mail_address(alice, bob):
    bob.email = ""
    bob.save()
    game = started(alice, bob)

    assert delivery.send_one(started_row(game, bob).pk) == "skipped"
    assert mail.outbox == []


def test_it_keeps_a_digest_readers_turn_rows_for_the_digest(alice, bob, clock, settings):
    Preferences.objects.create(user=bob, turn_mail=Preferences.DIGEST)
    game = started(alice, bob, initial_placement="simultaneous")
    turn = rows(game, kind=Notification.TURN, user=bob)[0]

    assert delivery.send_one(turn.pk) == "waits for the digest"
    clock.advance(seconds=settings.CONQUEST_MAIL_LEASE_SECONDS * 2)
    assert turn.pk not in delivery.unsent()
    assert refresh(turn).claimed_at is None
    assert delivery.send_one(started_row(game, bob).pk) == "sent"  # game mail is not folded


def open_links(text: str) -> set[tuple[int, int]]:
    tokens = re.findall(r"/mail/open/([^/\s]+)/", text)
    return {links.read_open_token(token)[:2] for token in tokens}


@pytest.fixture
def dave(db):
    """Reads one digest a day, at noon in Prague."""
    return user("dave", turn_mail=Preferences.DIGEST, time_zone="Europe/Prague",
                  digest_hour=12, mail_link_sign_in=True)


def test_it_sends_the_digest_at_the_readers_local_hour(alice, dave, clock):
    clock.set(datetime(2026, 6, 10, 9, 55, tzinfo=UTC))  # 11:55 in Prague
    games = [started(dave, alice, initial_placement="simultaneous"),
             started(alice, dave, initial_placement="simultaneous")]
    assert reminders.digest_users_due() == []
    assert tasks.send_digests() == 0

    clock.set(datetime(2026, 6, 10, 10, 5, tzinfo=UTC))  # 12:05 in Prague
    assert reminders.digest_users_due() == [dave.pk]
    assert tasks.send_digests() == 1

    digest = mails_to(mail.outbox, dave)
    assert len(digest) == 1
    assert digest[0].subject == "Your games waiting for you"
    assert open_links(digest[0].body) == {(dave.pk, game.pk) for game in games}
    folded = rows(kind=Notification.TURN, user=dave)
    assert len(folded) == 2
    assert all(row.sent_at and row.skipped for row in folded)
    assert all(row.last_error == "folded into the daily digest" for row in folded)


def test_it_sends_one_digest_a_day(alice, dave, clock):
    clock.set(datetime(2026, 6, 10, 10, 5, tzinfo=UTC))
    started(dave, alice, initial_placement="simultaneous")
    tasks.send_digests()

    clock.advance(minutes=10)
    assert tasks.send_digests() == 0
    assert len(mails_to(mail.outbox, dave)) == 1


def test_it_keeps_a_turn_that_comes_after_the_days_digest_for_the_next(alice, dave, clock):
    clock.set(datetime(2026, 6, 10, 10, 5, tzinfo=UTC))
    started(dave, alice, initial_placement="simultaneous")
    tasks.send_digests()

    clock.advance(minutes=5)
    later = started(alice, dave, initial_placement="simultaneous")
    clock.advance(minutes=5)  # the digest task runs again within the digest hour
    tasks.send_digests()

    waiting = rows(later, kind=Notification.TURN, user=dave)[0]
    assert waiting.sent_at is None
    clock.advance(days=1)
    assert tasks.send_digests() == 1
    assert open_links(mails_to(mail.outbox, dave)[-1].body) == {(dave.pk, later.pk)}
    assert refresh(waiting).sent_at is not None


def test_it_sends_no_digest_when_nothing_waits(dave, clock):
    clock.set(datetime(2026, 6, 10, 10, 5, tzinfo=UTC))

    assert reminders.digest_users_due() == [dave.pk]
    assert reminders.write_digest(dave.pk) is None
    assert tasks.send_digests() == 0


def test_it_sends_no_digest_of_games_that_are_over(alice, dave, clock):
    clock.set(datetime(2026, 6, 10, 10, 5, tzinfo=UTC))
    game = started(dave, alice, initial_placement="simultaneous")
    act(game, alice, {"type": "resign"})

    assert tasks.send_digests() == 0

    assert mails_to(mail.outbox, dave) == []
    turn = rows(game, kind=Notification.TURN, user=dave)[0]
    assert turn.sent_at is not None and turn.skipped
    assert not Notification.objects.filter(kind=Notification.DIGEST).exists()


def test_it_sends_no_digest_to_an_unsubscribed_reader(alice, dave, clock):
    clock.set(datetime(2026, 6, 10, 10, 5, tzinfo=UTC))
    started(dave, alice, initial_placement="simultaneous")
    Preferences.objects.filter(user=dave).update(unsubscribed=True)

    assert reminders.digest_users_due() == []
    assert tasks.send_digests() == 0
    assert mails_to(mail.outbox, dave) == []



@pytest.mark.django_db
def test_it_gives_up_on_a_mail_that_keeps_failing(settings):
    settings.CONQUEST_MAIL_MAX_ATTEMPTS = 2
    user = people.user("gives-up", password="x")
    row = Notification.objects.create(user=user, kind=Notification.DIGEST, key="digest:x",
                                      payload={"games": []}, attempts=2)

    assert delivery.send_one(row.pk) == "gave up"

    row.refresh_from_db()
    assert row.sent_at and row.skipped and not mail.outbox


@pytest.mark.django_db
def test_it_drops_a_reminder_whose_deadline_moved_on(django_user_model):
    from games.models import Game
    from tests.games_in_states import new_game
    from tests.people import signed_up

    alice, bob = signed_up("rem-a"), signed_up("rem-b")
    game = Game.objects.get(pk=new_game(alice, bob))
    user = django_user_model.objects.get(username="rem-a")
    row = Notification.objects.create(
        user=user, game=game, kind=Notification.REMINDER, key="reminder:old",
        payload={"hours": 1, "deadline": "2000-01-01T00:00:00+00:00"})

    assert delivery.send_one(row.pk) == "skipped"
    assert not [m for m in mail.outbox if "Reminder" in m.subject]



def unsent_turn_rows(game) -> list[Notification]:
    return [r for r in rows(game, kind=Notification.TURN) if r.sent_at is None]


def quiet_turn(game) -> None:
    """The player whose turn it is places everything on one territory and passes."""
    state = load_state(game)
    seat = state.current
    user = user_at(game, seat)
    act(game, user, {"type": "place",
                     "placements": {state.territories_of(seat)[0]: state.reinforcements}})
    act(game, user, {"type": "end_attack"})
    act(game, user, {"type": "end_turn"})
    game.refresh_from_db()


def test_it_skips_a_turn_mail_whose_turn_passed_before_it_went_out(alice, bob, charlie, clock):
    """A fast game moves on before a backlog drains: the stale "your move" mails are not
    sent, and the admin sees why."""
    game = started(alice, bob, charlie, initial_placement="simultaneous")
    place_setup(game)
    game.refresh_from_db()
    Notification.objects.filter(game=game).update(sent_at=clock.now)  # that mail went out
    quiet_turn(game)
    second = game.current_seat
    quiet_turn(game)
    third = game.current_seat
    waiting = {r.payload["seat"]: r for r in unsent_turn_rows(game)}
    assert set(waiting) == {second, third}

    assert delivery.send_one(waiting[second].pk) == "skipped"
    assert delivery.send_one(waiting[third].pk) == "sent"
    passed = refresh(waiting[second])
    assert passed.skipped and passed.last_error == "the turn passed before it went out"
    assert [m.to for m in mail.outbox] == [[user_at(game, third).email]]


def test_it_skips_a_turn_mail_a_newer_one_replaces(alice, bob, clock):
    game = started(alice, bob, initial_placement="simultaneous", neutral=False)
    place_setup(game)
    game.refresh_from_db()
    Notification.objects.filter(game=game).update(sent_at=clock.now)
    first = game.current_seat
    quiet_turn(game)
    quiet_turn(game)  # back to the first player: their mail of this turn is the one to send
    mine = sorted((r for r in unsent_turn_rows(game) if r.payload["seat"] == first),
                  key=lambda r: r.event_seq)
    assert len(mine) == 1  # (the first turn's mail went out with the setup ones)
    quiet_turn(game)
    quiet_turn(game)
    mine = sorted((r for r in unsent_turn_rows(game) if r.payload["seat"] == first),
                  key=lambda r: r.event_seq)
    assert len(mine) == 2

    assert delivery.send_one(mine[0].pk) == "skipped"
    assert refresh(mine[0]).last_error == "a newer turn mail replaces it"
    assert delivery.send_one(mine[1].pk) == "sent"


def test_it_skips_turn_mail_once_the_game_is_over(game, alice, clock):
    waiting = unsent_turn_rows(game)
    assert waiting
    act(game, alice, {"type": "resign"})  # two players: the other one wins
    game.refresh_from_db()
    assert game.is_over

    assert [delivery.send_one(row.pk) for row in waiting] == ["skipped"] * len(waiting)
    assert {refresh(row).last_error for row in waiting} == {
        "the game ended before it went out"}


def test_a_row_a_dead_worker_may_have_sent_is_sent_or_unknown_not_skipped(game, alice, clock,
                                                                          settings):
    waiting = unsent_turn_rows(game)
    for row in waiting:  # a worker that then died, perhaps after sending
        assert delivery.begin_send(row.pk, delivery.claim(row.pk))
    act(game, alice, {"type": "resign"})
    clock.advance(seconds=settings.CONQUEST_MAIL_LEASE_SECONDS + 1)

    assert [delivery.send_one(row.pk) for row in waiting] == ["sent or unknown"] * len(waiting)
    for row in map(refresh, waiting):
        assert row.sent_at == clock.now and row.maybe_sent and not row.skipped
        assert row.message_id == f"<notification-{row.pk}@localhost>"
        assert row.last_error == ("sent or unknown: it may have been sent by a worker that "
                                  "died or lost its claim before recording it; not sent "
                                  "again: the game ended before it went out")
    assert mail.outbox == []


def test_a_batch_settles_what_a_dead_worker_may_have_sent_as_sent_or_unknown(game, alice, bob,
                                                                             clock, settings):
    turn = unsent_turn_rows(game)
    started_rows = [started_row(game, alice), started_row(game, bob)]
    for row in turn + started_rows:
        assert delivery.begin_send(row.pk, delivery.claim(row.pk))
    act(game, alice, {"type": "resign"})
    clock.advance(seconds=settings.CONQUEST_MAIL_LEASE_SECONDS + 1)

    sent = delivery.send_many([row.pk for row in turn + started_rows])

    assert sent == 0 and mail.outbox == []  # still worth sending or not: never sent twice
    for row in map(refresh, turn + started_rows):
        assert row.sent_at and row.maybe_sent and not row.skipped
        assert row.message_id == f"<notification-{row.pk}@localhost>"
    assert all(r.last_error.endswith("not sent again") for r in map(refresh, started_rows))


def test_a_failed_send_is_not_taken_for_one_that_may_have_gone_out(game, alice, clock,
                                                                   settings, broken_mail):
    waiting = unsent_turn_rows(game)
    assert [delivery.send_one(row.pk) for row in waiting] == ["failed"] * len(waiting)
    act(game, alice, {"type": "resign"})

    assert {delivery.send_one(row.pk) for row in waiting} == {"skipped"}
    assert all(r.skipped and not r.maybe_sent and not r.message_id for r in map(refresh, waiting))


def test_the_admin_lists_it_as_sent_or_unknown_never_as_skipped(game, alice, clock, settings,
                                                                admin_client):
    row = unsent_turn_rows(game)[0]
    delivery.begin_send(row.pk, delivery.claim(row.pk))
    act(game, alice, {"type": "resign"})
    clock.advance(seconds=settings.CONQUEST_MAIL_LEASE_SECONDS + 1)
    delivery.send_one(row.pk)
    link = f"/admin/notifications/notification/{row.pk}/change/"

    unknown = admin_client.get("/admin/notifications/notification/?delivery=unknown")
    skipped = admin_client.get("/admin/notifications/notification/?delivery=skipped")
    sent = admin_client.get("/admin/notifications/notification/?delivery=sent")

    assert link in unknown.content.decode() and "sent or unknown" in unknown.content.decode()
    assert link not in skipped.content.decode() and link not in sent.content.decode()
    assert "sent or unknown" in admin_client.get(link).content.decode()


class Killed(BaseException):
    """The worker's process killed (SIGKILL, the OOM killer) at that point of its work."""


def test_a_mail_a_killed_worker_handed_to_the_server_is_never_sent_again(game, alice, bob,
                                                                          clock, settings,
                                                                          monkeypatch):
    """The cluster's doubled mails: a worker sends the first mail of its batch and is
    killed before stamping it; once the lease runs out the sweep (or a re-queue) takes the
    batch over. The mail that went out is settled as "sent or unknown"; the one that never
    reached the server goes out, once."""
    first, second = started_row(game, alice), started_row(game, bob)
    real_send = EmailBackend.send_messages

    def accepted_then_killed(self, messages):
        real_send(self, messages)
        raise Killed

    monkeypatch.setattr(EmailBackend, "send_messages", accepted_then_killed)
    with pytest.raises(Killed):
        delivery.send_many([first.pk, second.pk])
    monkeypatch.setattr(EmailBackend, "send_messages", real_send)
    assert [m.to for m in mail.outbox] == [["alice@example.com"]]
    clock.advance(seconds=settings.CONQUEST_MAIL_LEASE_SECONDS + 1)

    assert delivery.send_many([first.pk, second.pk]) == 1
    assert {first.pk, second.pk}.isdisjoint(delivery.unsent())

    ids = [m.extra_headers["Message-ID"] for m in mail.outbox]
    assert sorted(ids) == sorted({f"<notification-{first.pk}@localhost>",
                                  f"<notification-{second.pk}@localhost>"})
    first, second = refresh(first), refresh(second)
    assert first.sent_at and first.maybe_sent and not first.skipped
    assert first.message_id == ids[0] and "not sent again" in first.last_error
    assert second.sent_at and not second.maybe_sent and second.message_id == ids[1]


def test_a_worker_that_outlived_its_lease_does_not_send_what_another_took_over(
        game, alice, bob, clock, settings, monkeypatch):
    """A slow worker (its lease runs out while it sends the first mail of its batch) and
    the sweep that takes the rest over meanwhile: each mail goes out once."""
    first, second = started_row(game, alice), started_row(game, bob)
    real_send = EmailBackend.send_messages
    taken_over = []

    def slow_send(self, messages):
        if not taken_over:
            taken_over.append("the sweep")
            clock.advance(seconds=settings.CONQUEST_MAIL_LEASE_SECONDS + 1)
            taken_over.append(delivery.send_many([second.pk]))  # in between
        return real_send(self, messages)

    monkeypatch.setattr(EmailBackend, "send_messages", slow_send)
    assert delivery.send_many([first.pk, second.pk]) == 1

    assert taken_over == ["the sweep", 1]
    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.com", "bob@example.com"]
    assert all(r.sent_at and not r.maybe_sent and r.message_id
               for r in map(refresh, (first, second)))


def test_a_row_whose_worker_died_before_sending_it_is_sent_not_unknown(game, alice, clock,
                                                                       settings):
    row = started_row(game, alice)
    assert delivery.claim(row.pk)  # a worker that died before it reached this mail
    clock.advance(seconds=settings.CONQUEST_MAIL_LEASE_SECONDS + 1)

    assert delivery.send_one(row.pk) == "sent"

    row = refresh(row)
    assert len(mail.outbox) == 1 and row.sent_at and not row.maybe_sent and not row.last_error
