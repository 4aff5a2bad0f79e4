"""notifications/push.py: "your move" and "game over" as web push, through a real HTTP push
service on loopback that checks the VAPID JWT and decrypts each push (tests/notifications/
push_service.py), with the mail's preferences, presence and the game's quiet hours."""

from __future__ import annotations

import json

import pytest

from accounts.models import Preferences
from games.models import Game
from games.store.states import load_state
from notifications import delivery, push, tasks
from notifications.models import Notification, PushSubscription
from tests.notifications.push_service import PushService, new_vapid_key
from tests.notifications.support import act, rows, started, user_at
from tests.people import client_for

TASK = "notifications.tasks.deliver_push"


@pytest.fixture
def vapid(settings):
    settings.CONQUEST_VAPID_PRIVATE_KEY = new_vapid_key()
    settings.CONQUEST_PUSH = True
    settings.CONQUEST_PUSH_HOSTS = ["127.0.0.1"]
    return settings.CONQUEST_VAPID_PRIVATE_KEY


@pytest.fixture
def service(vapid, settings):
    with PushService(push.public_key(), settings.CONQUEST_VAPID_SUBJECT) as running:
        yield running


@pytest.fixture
def queued(monkeypatch):
    """The tasks delivery hands to the broker, by name."""
    sent = []
    monkeypatch.setattr(push.current_app, "send_task",
                        lambda name, args=(), **options: sent.append((name, args)))
    return sent


def subscribe(user, browser) -> None:
    answer = client_for(user).post("/api/v1/push/", browser.subscription(),
                                  content_type="application/json")
    assert answer.status_code == 201, answer.content


def turn_row(game):
    state = load_state(game)
    player = user_at(game, state.current)
    return rows(game, kind=Notification.TURN, user=player)[-1], player


def test_it_pushes_your_move_to_each_subscribed_browser_once(game, service, queued, clock,
                                                             settings):
    row, player = turn_row(game)
    phone, laptop = service.browser("phone"), service.browser("laptop")
    subscribe(player, phone)
    subscribe(player, laptop)
    # Then they leave the site: while they are about, the move waits (as its mail does).
    clock.advance(seconds=settings.CONQUEST_ON_SITE_SECONDS + 1)

    delivery.send_many([row.pk])
    assert (TASK, (row.pk,)) in queued
    assert tasks.deliver_push.apply(args=(row.pk,)).get().startswith("pushed to 2")
    # A second task for the same row (the sweep's, a redelivery) pushes nothing.
    assert tasks.deliver_push.apply(args=(row.pk,)).get() == "pushed already"

    assert service.problems == []
    for name in ("phone", "laptop"):
        (message,) = service.to(name)
        assert message["title"] == "Your move"
        assert message["body"] == "Moscow 1812"
        assert message["url"] == f"/games/{game.pk}/" and message["tag"] == f"game-{game.pk}"
    assert {k.lower(): v for k, v in service.received[0].headers.items()}.get("urgency") == "high", service.received[0].headers
    row.refresh_from_db()
    assert row.pushed_at is not None


def test_it_pushes_game_over_in_the_players_language(game, service, alice, bob):
    Preferences.objects.update_or_create(user=alice, defaults={"language": "cs"})
    subscribe(alice, service.browser("alice"))
    act(game, bob, {"type": "resign"})
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    (row,) = rows(game, kind=Notification.FINISHED, user=alice)

    assert tasks.deliver_push.apply(args=(row.pk,)).get().startswith("pushed to 1")
    (message,) = service.to("alice")
    assert message["title"] == "Konec hry" and message["kind"] == "finished"
    assert "seed" not in str(message) and game.seed not in str(message)


def test_a_browser_the_push_service_calls_gone_is_deleted(game, service):
    row, player = turn_row(game)
    subscribe(player, service.browser("gone"))
    subscribe(player, service.browser("here"))
    service.answers["gone"] = 410

    assert tasks.deliver_push.apply(args=(row.pk,)).get() == "pushed to 1, 1 gone, 0 failed"
    assert [s.endpoint.rsplit("/", 1)[-1] for s in PushSubscription.objects.all()] == ["here"]


def test_a_push_the_push_service_could_not_take_is_tried_again(game, service):
    row, player = turn_row(game)
    subscribe(player, service.browser("busy"))
    subscribe(player, service.browser("fine"))
    service.answers["busy"] = [503, 500, 201]

    result = tasks.deliver_push.apply(args=(row.pk,))
    # Eagerly run, the retries follow at once; only the failed browser is tried again.
    assert service.calls == {"busy": 3, "fine": 1}
    assert len(service.to("busy")) == 1 and len(service.to("fine")) == 1
    assert result.state in ("SUCCESS", "RETRY")
    assert PushSubscription.objects.count() == 2


def test_it_does_not_push_while_the_player_is_on_the_game_page(game, service, queued):
    row, player = turn_row(game)
    subscribe(player, service.browser("phone"))
    client = client_for(player)
    assert client.get(f"/games/{game.pk}/live/").status_code in (200, 204)

    delivery.send_many([row.pk])
    assert (TASK, (row.pk,)) not in queued  # the mail is held, and so is the push
    assert tasks.deliver_push.apply(args=(row.pk,)).get() == (
        "not pushed: the player is on the game's page")
    assert service.calls == {}


def test_it_follows_the_mail_preferences(game, service, alice, bob):
    row, player = turn_row(game)
    subscribe(player, service.browser("phone"))
    Preferences.objects.update_or_create(user=player,
                                         defaults={"turn_mail": Preferences.NO_TURN_MAIL})
    assert tasks.deliver_push.apply(args=(row.pk,)).get() == (
        "not pushed: the player's preferences")
    assert service.calls == {}


def test_it_stays_quiet_in_the_games_quiet_hours(alice, bob, clock, service):
    # Wednesday 10:00 UTC: inside quiet hours from 9 to 11.
    game = started(alice, bob, clock={"time_zone": "UTC", "quiet_from": 9, "quiet_until": 11})
    row, player = turn_row(game)
    subscribe(player, service.browser("phone"))
    assert tasks.deliver_push.apply(args=(row.pk,)).get() == (
        "not pushed: the game's clock rests (quiet hours)")
    # Nor the end of the game, at night.
    act(game, user_at(game, 1), {"type": "resign"})
    (over,) = rows(game, kind=Notification.FINISHED, user=user_at(game, 0))
    assert tasks.deliver_push.apply(args=(over.pk,)).get() == (
        "not pushed: the game's clock rests (quiet hours)")
    assert service.calls == {}
    clock.advance(hours=1)  # 11:00: the clock runs again
    subscribe(user_at(game, 0), service.browser("other"))
    Notification.objects.filter(pk=over.pk).update(pushed_at=None)
    assert tasks.deliver_push.apply(args=(over.pk,)).get().startswith("pushed to")


def test_an_obsolete_turn_is_not_pushed(game, service):
    row, player = turn_row(game)
    subscribe(player, service.browser("phone"))
    Game.objects.filter(pk=game.pk).update(status=Game.FINISHED)
    assert tasks.deliver_push.apply(args=(row.pk,)).get() == (
        "not pushed: the game ended before it went out")


def test_nothing_is_queued_for_players_without_a_browser(game, vapid, queued):
    row, _ = turn_row(game)
    delivery.send_many([row.pk])
    assert not [name for name, _ in queued if name == TASK]


def test_nothing_is_pushed_with_push_off(game, service, settings):
    row, player = turn_row(game)
    subscribe(player, service.browser("phone"))
    settings.CONQUEST_PUSH = False
    assert push.worth_queueing([row]) == []
    assert tasks.deliver_push.apply(args=(row.pk,)).get() == "not pushed: push is off on this site"


def test_a_push_too_long_for_the_service_is_shortened_in_its_fields_and_stays_json():
    message = {"title": "Žluťoučký kůň 🏰 pozval " * 60, "body": "🏰 Moskva 1812 " * 200,
               "url": "/games/12/", "tag": "game-12", "kind": "invitation"}

    data = push.payload(message)

    assert len(data.encode()) <= push.MAX_PAYLOAD
    shortened = json.loads(data)
    assert {k: shortened[k] for k in ("url", "tag", "kind")} == {
        "url": "/games/12/", "tag": "game-12", "kind": "invitation"}
    for field in ("title", "body"):
        assert shortened[field].endswith("…")
        assert message[field].startswith(shortened[field].removesuffix("…"))
        assert len(shortened[field]) > 100


def test_a_push_that_fits_goes_as_it_is():
    message = {"title": "Tvůj tah", "body": "Moskva 1812", "url": "/games/1/", "tag": "game-1",
               "kind": "turn"}

    assert json.loads(push.payload(message)) == message
