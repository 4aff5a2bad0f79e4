"""Web push: which outbox rows a player's browsers hear of, the VAPID keys that sign them,
and sending one row to each browser its recipient opted in (RFC 8030, 8291, 8292).

A row is pushed when its mail is due to go out (notifications.delivery queues it once the
mail's own checks pass: not obsolete, not held while its reader is on the game's page), by
a worker task, at most once per browser: the row is taken with a conditional update of
`pushed_at`. The same preferences as mail decide (turn mail each turn, game mail, message
mail); no push goes out while its reader is on the game's page, nor while the game's clock
rests (its quiet hours or weekend): the mail and the site's list still tell it then.
"""

from __future__ import annotations

import base64
import json
import logging
import os
from dataclasses import dataclass, field
from functools import lru_cache

import requests
from celery import current_app
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from py_vapid import Vapid

from accounts.models import Preferences, preferences_for
from games.clock import resting_until
from notifications import presence
from notifications.kinds import KINDS as DECLARED
from notifications.kinds import PUSHED
from notifications.models import Notification, PushSubscription
from words.notices import PUSH_TITLES
from words.titles import game_title

log = logging.getLogger(__name__)

# The kinds a push tells (notifications.kinds), its words in words/notices.py.
KINDS = PUSHED
# Push services keep at most 4 KiB; ours are far smaller.
MAX_PAYLOAD = 3000
KEY_FILE = "vapid_private_key"


def key_problem(text: str) -> str | None:
    """Why `text` is not a VAPID private key (base64url of a P-256 key's 32 raw bytes, or
    a PEM), or None."""
    if not text:
        return "no key is set"
    try:
        _vapid(text)
    except Exception as problem:  # noqa: BLE001 - any parse failure: say which
        return f"not a P-256 private key ({type(problem).__name__})"
    return None


def _embedded_key() -> str:
    """With DEBUG on and no key set: the key made in var/ on first use (kept, so that the
    browsers subscribed with its public key keep working across restarts)."""
    path = settings.VAR_DIR / KEY_FILE
    if not path.exists():
        key = ec.generate_private_key(ec.SECP256R1())
        raw = key.private_numbers().private_value.to_bytes(32, "big")
        # Written whole under a name of its own, then linked into place: another process
        # never reads half a key, and the first to link wins.
        draft = path.with_name(f"{KEY_FILE}.{os.getpid()}")
        with open(draft, "w", opener=lambda p, flags: os.open(p, flags, 0o600)) as out:
            out.write(_b64(raw))
        try:
            os.link(draft, path)
        except FileExistsError:  # another process made it first: use theirs
            pass
        finally:
            draft.unlink()
    return path.read_text().strip()


def private_key_text() -> str:
    return settings.CONQUEST_VAPID_PRIVATE_KEY or (_embedded_key() if settings.DEBUG else "")


def enabled() -> bool:
    """Whether this site pushes: on, with a usable key."""
    return bool(settings.CONQUEST_PUSH) and key_problem(private_key_text()) is None


@lru_cache(maxsize=4)
def _vapid(text: str) -> Vapid:
    return Vapid.from_pem(text.encode()) if text.startswith("-----BEGIN") else (
        Vapid.from_string(text))


def vapid() -> Vapid:
    return _vapid(private_key_text())


def public_key() -> str:
    """The applicationServerKey browsers subscribe with: the uncompressed P-256 point."""
    point = vapid().public_key.public_bytes(serialization.Encoding.X962,
                                           serialization.PublicFormat.UncompressedPoint)
    return _b64(point)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def wants(preferences: Preferences, notification: Notification) -> bool:
    """Whether the recipient takes this push: the same preferences as its mail (but an
    unconfirmed address or the mail's one-click unsubscribe do not stop a push the player
    asked for in a browser)."""
    if notification.kind not in KINDS:
        return False
    preference = DECLARED[notification.kind].preference
    if preference == "turn_mail":
        return preferences.turn_mail == Preferences.EACH_TURN
    return preference is None or bool(getattr(preferences, preference))


def worth_queueing(rows) -> list[int]:
    """Of these rows whose mail is due, the ids to push: a kind push tells, not yet
    pushed, to a user with a subscribed browser (one query for them all)."""
    candidates = [row for row in rows if row.kind in KINDS and row.pushed_at is None]
    if not candidates or not enabled():
        return []
    subscribed = set(PushSubscription.objects.filter(
        user_id__in={row.user_id for row in candidates}).values_list("user_id", flat=True))
    return [row.pk for row in candidates if row.user_id in subscribed]


def message(notification: Notification) -> dict:
    """The push's JSON: what the service worker shows (title, body), where a click leads
    (url, on this site) and a tag (a newer push for the same game replaces the older)."""
    game = notification.game
    payload = notification.payload or {}
    words = {"by": payload.get("by", ""), "sender": payload.get("sender", "")}
    title = _(PUSH_TITLES[notification.kind]) % words
    if notification.kind == Notification.MESSAGE:
        body, url = _("Open your messages to read it."), "/messages/"
    else:
        body = game_title(game) if game is not None else ""
        url = f"/games/{game.pk}/" if game is not None else "/"
    return {"title": title, "body": body[:300], "url": url,
            "tag": f"game-{game.pk}" if game is not None else f"{notification.kind}",
            "kind": notification.kind}


def payload(message: dict) -> str:
    """The message as JSON of at most MAX_PAYLOAD bytes: a title or body too long is cut,
    the longer of the two first, ending in "…"; never the JSON itself."""
    message = dict(message)
    while len(data := json.dumps(message, ensure_ascii=False).encode()) > MAX_PAYLOAD:
        longest, other = sorted(("title", "body"), key=lambda f: -len(message.get(f, "")))
        text = message[longest].removesuffix("…")
        if not text:
            raise ValueError("a push's other fields alone are longer than a push may be")
        # A character takes 1 to 4 bytes: cut a quarter of the excess in characters (at
        # least that many bytes), down to the other field's length at most in one step.
        keep = len(text) - (len(data) - MAX_PAYLOAD) // 4 - 1
        if len(text) > len(message.get(other, "")):
            keep = max(keep, len(message.get(other, "")) - 1)
        message[longest] = text[:max(keep, 0)].rstrip() + "…"
    return data.decode()


@dataclass
class Outcome:
    """What became of one row's push: `why` it was not sent, or the browsers it reached,
    those gone (deleted) and those to try again (the push service failed for the moment)."""

    why: str | None = None
    sent: list[int] = field(default_factory=list)
    gone: list[int] = field(default_factory=list)
    retry: list[int] = field(default_factory=list)


def take(pk: int) -> bool:
    """Take the row for pushing, once: False if it is pushed (or being pushed) already."""
    return Notification.objects.filter(pk=pk, pushed_at__isnull=True).update(
        pushed_at=timezone.now()) == 1


def why_not(notification: Notification, preferences: Preferences, obsolete=None) -> str | None:
    """Why this row is not pushed now, or None. `obsolete`: the mail's own check that a
    row is no longer worth sending (notifications.delivery.obsolete_turn_mail)."""
    if not enabled():
        return "push is off on this site"
    if not wants(preferences, notification):
        return "the player's preferences"
    why = obsolete(notification) if obsolete is not None else None
    if why:
        return why
    game, now = notification.game, timezone.now()
    if game is not None:
        if presence.present_until({(notification.user_id, game.pk)}):
            return "the player is on the game's page"
        if resting_until(game, now) is not None:  # the table's night, over or not
            return "the game's clock rests (quiet hours)"
    return None


def send(pk: int, only: list[int] | None = None, obsolete=None, session=None) -> Outcome:
    """Push row `pk` to its recipient's browsers (`only`: these subscriptions, a retry's).
    The caller took the row (take) unless this is a retry."""
    notification = Notification.objects.select_related("user", "game").filter(pk=pk).first()
    if notification is None:
        return Outcome(why="gone")
    preferences = preferences_for(notification.user)
    why = why_not(notification, preferences, obsolete)
    if why:
        return Outcome(why=why)
    subscriptions = PushSubscription.objects.filter(user_id=notification.user_id)
    if only is not None:
        subscriptions = subscriptions.filter(pk__in=only)
    with translation.override(preferences.language):
        data = payload(message(notification))
    outcome = Outcome()
    with session or requests.Session() as http:
        # A push service answers; it never sends the server on elsewhere (an address
        # inside the network, say): a redirect counts as a failure.
        http.max_redirects = 0
        for subscription in subscriptions:
            outcome_of(subscription, push_one(subscription, data, http), outcome)
    return outcome


def push_one(subscription: PushSubscription, data: str, session=None) -> int | str:
    """POST one encrypted push: the push service's status, or why it could not be asked."""
    # Imported here: pywebpush brings aiohttp, whose import costs every process that starts
    # Django (web, workers, manage.py) about a quarter of a second; only a push needs it.
    from pywebpush import WebPushException, webpush

    claims = {"sub": settings.CONQUEST_VAPID_SUBJECT}
    try:
        response = webpush(
            {"endpoint": subscription.endpoint,
             "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}},
            data=data, vapid_private_key=vapid(), vapid_claims=claims,
            ttl=settings.CONQUEST_PUSH_TTL_SECONDS, content_encoding="aes128gcm",
            timeout=settings.CONQUEST_PUSH_TIMEOUT_SECONDS, requests_session=session,
            headers={"Urgency": "high"},
        )
        return response.status_code
    except WebPushException as problem:
        if problem.response is not None:
            return problem.response.status_code
        return f"{problem}"[:500]
    except (requests.RequestException, ValueError, OSError) as problem:
        return f"{type(problem).__name__}: {problem}"[:500]


def outcome_of(subscription: PushSubscription, answer: int | str, outcome: Outcome) -> None:
    """Record one browser's answer: 201 pushed; 404/410 the subscription is gone (deleted);
    429, 5xx or no answer: try again; any other refusal is recorded and not retried."""
    now = timezone.now()
    if isinstance(answer, int) and answer < 300:
        outcome.sent.append(subscription.pk)
        PushSubscription.objects.filter(pk=subscription.pk).update(last_pushed_at=now,
                                                                   last_error="")
    elif answer in (404, 410):
        outcome.gone.append(subscription.pk)
        subscription.delete()
    else:
        if not isinstance(answer, int) or answer == 429 or answer >= 500:
            outcome.retry.append(subscription.pk)
        log.info("push to subscription %s failed: %s", subscription.pk, answer)
        PushSubscription.objects.filter(pk=subscription.pk).update(
            last_error=f"{now:%Y-%m-%d %H:%M:%S}: {answer}")


def queue(rows) -> None:
    """Hand the rows worth pushing to the workers (a task each: few players have a browser
    subscribed). With the broker down they are not pushed: the mail still goes."""
    for pk in worth_queueing(rows):
        try:
            current_app.send_task("notifications.tasks.deliver_push", (pk,), retry=False)
        except Exception:  # noqa: BLE001 - any broker failure: the mail still tells it
            log.info("could not queue the push of notification %s", pk)
