"""Web push and speed games in a real browser: the profile's opt-in registers the service
worker and sends this browser's subscription to the site (and takes it back); the worker
shows a push it is handed; a speed game's deadline counts down live on the game page."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game
from notifications import push
from notifications.models import PushSubscription
from tests.games_in_states import open_game
from tests.notifications.push_service import Browser, new_vapid_key
from tests.people import with_password
from tests.web.e2e.support import signed_in

pytestmark = pytest.mark.django_db(transaction=True)

# Headless chromium reaches no push service of its own here: the page's PushManager hands
# out the subscription of a browser the test made (what a browser's push service would),
# everything else (permission, service worker, the site's API, CSRF) is the browser's own.
FAKE_SUBSCRIBE = """
(() => {
  const made = %s;
  let current = null;
  const subscription = {
    endpoint: made.endpoint, toJSON: () => made,
    unsubscribe: () => { current = null; return Promise.resolve(true); }
  };
  PushManager.prototype.subscribe = function (options) {
    window.__subscribeKey = options && options.applicationServerKey &&
      btoa(String.fromCharCode.apply(null, new Uint8Array(options.applicationServerKey)));
    current = subscription;
    return Promise.resolve(subscription);
  };
  PushManager.prototype.getSubscription = function () { return Promise.resolve(current); };
})();
"""


@pytest.fixture
def vapid(settings):
    settings.CONQUEST_VAPID_PRIVATE_KEY = new_vapid_key()
    settings.CONQUEST_PUSH = True
    settings.CONQUEST_PUSH_HOSTS = ["127.0.0.1"]


def wait_for(page, condition, tries: int = 120):  # up to 30 s: a loaded CI machine
    for _ in range(tries):  # (no wait_for_function: the site's CSP forbids eval)
        if condition():
            return True
        page.wait_for_timeout(250)
    return condition()


def test_a_player_turns_push_on_and_off_in_this_browser(browser, live_server, contexts, vapid):
    alice = with_password("alice")
    made = Browser("phone", "http://127.0.0.1:9/push/phone").subscription()
    page = signed_in(browser, live_server.url, "alice", contexts)
    page.context.grant_permissions(["notifications"], origin=live_server.url)
    page.context.add_init_script(FAKE_SUBSCRIBE % json.dumps(made))
    problems = []
    page.on("pageerror", lambda error: problems.append(str(error)))

    page.goto(f"{live_server.url}/accounts/profile/")
    on, off = page.locator("#push [data-push=on]"), page.locator("#push [data-push=off]")
    assert wait_for(page, on.is_visible)
    state = page.locator("#push .push-state")
    assert wait_for(page, lambda: state.inner_text() == (
        "This browser does not show your notifications."))
    # The service worker is registered for the whole site.
    assert wait_for(page, lambda: page.evaluate(
        "navigator.serviceWorker.getRegistration('/').then(r => !!(r && r.active))"))
    assert page.evaluate("navigator.serviceWorker.getRegistration('/')"
                         ".then(r => r.scope)") == f"{live_server.url}/"

    on.click()
    assert wait_for(page, off.is_visible)
    assert wait_for(page, lambda: state.inner_text() == "This browser shows your notifications.")
    assert wait_for(page, lambda: PushSubscription.objects.count() == 1)
    (kept,) = PushSubscription.objects.all()
    assert kept.user_id == alice.pk and kept.endpoint == made["endpoint"]
    assert kept.p256dh == made["keys"]["p256dh"] and "Chrome" in kept.user_agent
    # It subscribed with the site's VAPID public key.
    sent_key = page.evaluate("window.__subscribeKey")
    assert sent_key.replace("+", "-").replace("/", "_").rstrip("=") == push.public_key()

    off.click()
    assert wait_for(page, on.is_visible)
    # (The page's own state follows the answer; the database is read from this process.)
    assert wait_for(page, lambda: PushSubscription.objects.count() == 0)
    assert problems == []


def test_the_service_worker_shows_a_push_and_names_its_game(browser, live_server, contexts,
                                                            vapid):
    page = signed_in(browser, live_server.url, "alice", contexts)
    page.context.grant_permissions(["notifications"], origin=live_server.url)
    session = page.context.new_cdp_session(page)
    registrations, versions = [], []
    session.on("ServiceWorker.workerRegistrationUpdated",
               lambda event: registrations.extend(event["registrations"]))
    session.on("ServiceWorker.workerVersionUpdated",
               lambda event: versions.extend(event["versions"]))
    session.send("ServiceWorker.enable")
    page.goto(f"{live_server.url}/accounts/profile/")
    assert wait_for(page, lambda: page.evaluate(
        "navigator.serviceWorker.getRegistration('/').then(r => !!(r && r.active))"))
    assert wait_for(page, lambda: any(r["scopeURL"] == f"{live_server.url}/"
                                      for r in registrations))
    # The newest word on the site's registration (an event may tell of an earlier state).
    registration = [r for r in registrations if r["scopeURL"] == f"{live_server.url}/"
                    and not r.get("isDeleted")][-1]["registrationId"]
    # `active` is already true while the worker activates; chromium hands a push only to an
    # activated one.
    assert wait_for(page, lambda: any(v["registrationId"] == registration
                                      and v["status"] == "activated" for v in versions))

    shown = "navigator.serviceWorker.getRegistration('/').then(r => r.getNotifications())" \
            ".then(list => list.map(n => [n.title, n.body, n.tag, n.data.url]))"

    def push(data: dict, until) -> bool:
        """Hand the worker a push (as the browser's push service would) until it shows:
        the DevTools call answers before the push is handed, and says nothing if chromium
        drops it. A push shown twice replaces itself (its tag)."""
        for _ in range(3):
            session.send("ServiceWorker.deliverPushMessage", {
                "origin": live_server.url, "registrationId": registration,
                "data": json.dumps(data)})
            if wait_for(page, until, tries=40):
                return True
        return False

    message = {"title": "Your move", "body": "Friday night", "url": "/games/7/",
               "tag": "game-7", "kind": "turn"}
    assert push(message, lambda: page.evaluate(shown))
    assert page.evaluate(shown) == [["Your move", "Friday night", "game-7",
                                     f"{live_server.url}/games/7/"]]

    # A url of another site is never opened from a click: the site's root instead.
    assert push({**message, "url": "https://evil.example/", "tag": "x"},
                lambda: len(page.evaluate(shown)) == 2)
    assert [n[3] for n in page.evaluate(shown) if n[2] == "x"] == [f"{live_server.url}/"]


def test_a_speed_games_deadline_counts_down_live(browser, live_server, contexts):
    alice = with_password("alice")
    game = open_game(alice, 2, "Blitz", rules={"placement_batch": 100}, bots=["easy"], speed=True)
    game.refresh_from_db()
    assert game.status == Game.ACTIVE and game.deadline_seconds == 180
    page = signed_in(browser, live_server.url, "alice", contexts, at=f"/games/{game.pk}/")
    countdown = page.locator("#game [data-countdown]").first

    def seconds_left() -> int:
        hours, minutes, seconds = (int(part) for part in countdown.inner_text().split(":"))
        return hours * 3600 + minutes * 60 + seconds

    assert wait_for(page, lambda: ":" in countdown.inner_text())
    first = seconds_left()
    assert 150 <= first <= 180
    assert wait_for(page, lambda: seconds_left() <= first - 2)
    assert "urgent" not in (countdown.get_attribute("class") or "")
    # The last minute stands out.
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() + timedelta(seconds=30))
    page.goto(f"{live_server.url}/games/{game.pk}/")
    countdown = page.locator("#game [data-countdown]").first
    assert wait_for(page, lambda: "urgent" in (countdown.get_attribute("class") or ""))
    assert seconds_left() <= 30
