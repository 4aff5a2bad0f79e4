"""/api/v1/push/ (a browser opts in and out), /sw.js, /manifest.webmanifest, the profile's
opt-in, the VAPID key's system check and the embedded default's key in var/."""

from __future__ import annotations

import json
import stat

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from notifications import push
from notifications.checks import push_has_its_keys
from notifications.models import PushSubscription
from tests.notifications.push_service import Browser, new_vapid_key
from tests.people import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def vapid(settings):
    settings.CONQUEST_VAPID_PRIVATE_KEY = new_vapid_key()
    settings.CONQUEST_PUSH = True
    settings.CONQUEST_PUSH_HOSTS = ["127.0.0.1", ".push.services.mozilla.com"]


def post(client, body):
    return client.post("/api/v1/push/", body, content_type="application/json")


def test_it_keeps_a_browser_per_user_and_forgets_it(vapid, alice):
    client = client_for(alice)
    browser = Browser("phone", "https://updates.push.services.mozilla.com/wpush/v2/abc")
    answer = post(client, browser.subscription())
    assert answer.status_code == 201
    assert answer.json() == {"enabled": True, "public_key": push.public_key(), "browsers": 1}
    assert post(client, browser.subscription()).json()["browsers"] == 1  # the same browser

    answer = client.delete("/api/v1/push/", {"endpoint": browser.endpoint},
                           content_type="application/json")
    assert answer.status_code == 200 and answer.json()["browsers"] == 0
    answer = client.delete("/api/v1/push/", {"endpoint": browser.endpoint},
                           content_type="application/json")
    assert answer.status_code == 404 and answer.json()["error"] == "not_found"


def test_the_browser_goes_to_the_account_that_subscribed_it_last(vapid, alice, bob):
    browser = Browser("shared", "http://127.0.0.1:9/push/shared")
    post(client_for(alice), browser.subscription())
    post(client_for(bob), browser.subscription())
    assert list(PushSubscription.objects.values_list("user__username", flat=True)) == ["bob"]
    # Alice cannot forget bob's browser.
    answer = client_for(alice).delete("/api/v1/push/", {"endpoint": browser.endpoint},
                                     content_type="application/json")
    assert answer.status_code == 404 and PushSubscription.objects.count() == 1


@pytest.mark.parametrize("endpoint, code", [
    ("https://evil.example.com/push", "push_service_refused"),  # not a push service
    ("http://updates.push.services.mozilla.com/x", "bad_request"),  # not https
    ("https://user@updates.push.services.mozilla.com/x", "push_service_refused"),
    ("http://10.0.0.1/push", "bad_request"),
    ("javascript:alert(1)", "bad_request"),
    ("https://[::1/push", "bad_request"),
    ("https://updates.push.services.mozilla.com:99999/x", "bad_request"),
    (7, "bad_request"),
    # urlsplit reads an allowed push service's host in these; requests (urllib3, as
    # browsers do) ends the host at the backslash and would POST to this machine.
    ("https://127.0.0.1\\.push.services.mozilla.com/x", "bad_request"),
    ("https://10.0.0.1\\@updates.push.services.mozilla.com/x", "bad_request"),
    # urlsplit drops tabs and newlines anywhere; what is kept must be what is posted to.
    ("https://evil\t.push.services.mozilla.com/x", "bad_request"),
    ("https://updates.push.services.mozilla.com/x\ny", "bad_request"),
    ("https://updates.push.services.mozilla.com/x y", "bad_request"),
    ("https://updates.push.services.mozilla.com%2f@10.0.0.1/x", "push_service_refused"),
])
def test_it_refuses_an_endpoint_it_may_not_post_to(vapid, alice, endpoint, code):
    body = Browser("x", "https://a").subscription()
    body["endpoint"] = endpoint
    answer = post(client_for(alice), body)
    assert answer.status_code == 400 and answer.json()["error"] == code
    assert PushSubscription.objects.count() == 0


@pytest.mark.parametrize("endpoint, status", [
    ("https://fcm.googleapis.com/fcm/send/abc", 201),  # Chrome's
    ("https://updates.push.services.mozilla.com/wpush/v2/abc", 201),
    ("https://web.push.apple.com/abc", 201),
    ("https://wns2-par02p.notify.windows.com/w/?token=abc", 201),
    # Any host of Google's APIs (a storage bucket's, say) is no push service: the server
    # would POST wherever someone's bucket or function listens.
    ("https://storage.googleapis.com/someone-s-bucket/x", 400),
    ("https://www.googleapis.com/x", 400),
])
def test_by_default_only_the_browsers_push_services_are_posted_to(settings, alice, endpoint,
                                                                   status):
    settings.CONQUEST_VAPID_PRIVATE_KEY = new_vapid_key()
    settings.CONQUEST_PUSH = True
    body = Browser("x", "https://a").subscription()
    body["endpoint"] = endpoint
    assert post(client_for(alice), body).status_code == status
    assert PushSubscription.objects.count() == (status == 201)


@pytest.mark.parametrize("keys", [
    {}, {"p256dh": "abc", "auth": "abc"}, {"p256dh": 5, "auth": []},
    {"p256dh": "BA" + "A" * 84, "auth": "short"}, "keys",
    # 65 bytes that look like a key but are no point of P-256: every push would fail
    {"p256dh": "BA" + "A" * 85, "auth": "A" * 22},
])
def test_it_refuses_keys_that_are_not_a_browsers(vapid, alice, keys):
    body = {"endpoint": "http://127.0.0.1:9/push/x", "keys": keys}
    answer = post(client_for(alice), body)
    assert answer.status_code == 400 and set(answer.json()) >= {"error", "detail"}
    assert PushSubscription.objects.count() == 0


def test_it_asks_who_is_subscribing_and_refuses_with_push_off(settings, alice):
    body = Browser("x", "http://127.0.0.1:9/push/x").subscription()
    assert Client().post("/api/v1/push/", body,
                         content_type="application/json").status_code in (401, 403)
    settings.CONQUEST_PUSH = False
    answer = post(client_for(alice), body)
    assert answer.status_code == 409 and answer.json()["error"] == "push_off"
    assert client_for(alice).get("/api/v1/push/").json() == {
        "enabled": False, "public_key": None, "browsers": 0}


def test_a_session_without_its_csrf_token_cannot_subscribe(vapid, alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    answer = post(client, Browser("x", "http://127.0.0.1:9/push/x").subscription())
    assert answer.status_code == 403 and PushSubscription.objects.count() == 0


def test_the_service_worker_is_served_from_the_root(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert answer["Service-Worker-Allowed"] == "/"
    assert "no-cache" in answer["Cache-Control"]
    script = answer.content.decode()
    assert 'addEventListener("push"' in script and "notificationclick" in script
    assert "/static/icons/icon-192.png" in script


def test_the_manifest_makes_the_site_installable(client):
    answer = client.get("/manifest.webmanifest")
    assert answer["Content-Type"] == "application/manifest+json"
    manifest = json.loads(answer.content)
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/games/"
    assert manifest["name"] == "Conquest" and manifest["theme_color"].startswith("#")
    sizes = {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        path = finders.find(icon["src"].removeprefix("/static/"))
        assert path, icon
        if icon["type"] == "image/png":
            with open(path, "rb") as image:
                head = image.read(24)
            side = int(icon["sizes"].split("x")[0])
            assert head[:8] == b"\x89PNG\r\n\x1a\n"
            assert int.from_bytes(head[16:20], "big") == side


def test_every_page_links_the_manifest_and_the_csp_lets_the_worker_in(client):
    answer = client.get("/")
    html = answer.content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert 'name="theme-color"' in html
    policy = answer["Content-Security-Policy"]
    assert "worker-src 'self'" in policy and "manifest-src 'self'" in policy


def test_the_profile_offers_push_in_this_browser(vapid, alice):
    html = client_for(alice).get("/accounts/profile/").content.decode()
    assert 'id="push"' in html and f'data-key="{push.public_key()}"' in html
    assert "/static/js/push.js" in html and 'data-worker="/sw.js"' in html


def test_the_profile_says_so_when_the_site_does_not_push(settings, alice):
    settings.CONQUEST_PUSH = False
    html = client_for(alice).get("/accounts/profile/").content.decode()
    assert 'data-key=""' in html and 'data-push="on"' not in html


def test_production_refuses_push_without_a_valid_key(settings):
    settings.DEBUG, settings.CONQUEST_PUSH = False, True
    settings.CONQUEST_VAPID_PRIVATE_KEY = ""
    assert [e.id for e in push_has_its_keys(None)] == ["conquest.E002"]
    settings.CONQUEST_VAPID_PRIVATE_KEY = "not-a-key"
    assert [e.id for e in push_has_its_keys(None)] == ["conquest.E002"]
    settings.CONQUEST_VAPID_PRIVATE_KEY = new_vapid_key()
    assert push_has_its_keys(None) == []
    settings.CONQUEST_VAPID_SUBJECT = "admin@example.com"
    assert [e.id for e in push_has_its_keys(None)] == ["conquest.E003"]
    settings.CONQUEST_PUSH, settings.CONQUEST_VAPID_PRIVATE_KEY = False, ""
    settings.CONQUEST_VAPID_SUBJECT = "mailto:admin@example.com"
    assert push_has_its_keys(None) == []  # push off: nothing to refuse


def test_the_embedded_default_makes_its_key_in_var_once(settings, tmp_path):
    settings.DEBUG, settings.CONQUEST_PUSH = True, True
    settings.CONQUEST_VAPID_PRIVATE_KEY, settings.VAR_DIR = "", tmp_path
    assert push.enabled()
    first = push.public_key()
    path = tmp_path / push.KEY_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert push.public_key() == first and push.key_problem(path.read_text()) is None
    settings.DEBUG = False  # production never makes one
    assert not push.enabled()


def test_the_admin_lists_browsers_and_never_edits_their_keys(vapid, alice, admin_client):
    browser = Browser("phone", "https://updates.push.services.mozilla.com/wpush/v2/abc")
    post(client_for(alice), browser.subscription())
    subscription = PushSubscription.objects.get()
    html = admin_client.get("/admin/notifications/pushsubscription/").content.decode()
    assert "updates.push.services.mozilla.com" in html and "alice" in html
    page = admin_client.get(f"/admin/notifications/pushsubscription/{subscription.pk}/change/")
    assert page.status_code == 200 and 'name="p256dh"' not in page.content.decode()
    assert admin_client.get("/admin/notifications/pushsubscription/add/").status_code == 403
