"""Browsers that opt in to web push: checking a Push API subscription and keeping it per
user and browser (notifications.models.PushSubscription)."""

from __future__ import annotations

import base64
import binascii
import re
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.db import transaction

from games.errors import ServiceError
from notifications.models import PushSubscription


def _unb64(text, size: int, what: str) -> str:
    if not isinstance(text, str) or len(text) > 200:
        raise ServiceError(400, "bad_request", f"keys.{what} must be base64url text")
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise ServiceError(400, "bad_request", f"keys.{what} must be base64url text") from None
    if len(raw) != size or (what == "p256dh" and not _on_the_curve(raw)):
        raise ServiceError(400, "bad_request",
                           f"keys.{what} is not a browser's push key ({size} bytes)")
    return text.rstrip("=")


def _on_the_curve(raw: bytes) -> bool:
    """Whether `raw` is an uncompressed P-256 point: every push is encrypted to it (RFC 8291),
    so one that is not would fail each push, and each retry, of its user."""
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
    except ValueError:
        return False
    return raw[0] == 4


def allowed_host(host: str) -> bool:
    """Whether the server may POST pushes to `host` (settings.CONQUEST_PUSH_HOSTS)."""
    host = host.lower().rstrip(".")
    for allowed in settings.CONQUEST_PUSH_HOSTS:
        allowed = allowed.lower()
        if allowed.startswith(".") and (host.endswith(allowed) or host == allowed[1:]):
            return True
        if host == allowed:
            return True
    return False


# What a push service's URL is made of: printable ASCII with no space and no backslash.
# urlsplit and requests (urllib3) read anything else differently: urlsplit drops tabs and
# newlines and keeps a backslash in the host, where urllib3 (as browsers) ends the host at
# it, so "https://127.0.0.1\\.push.example/" passes the allow-list and posts to 127.0.0.1.
URL_CHARACTERS = re.compile(r"[!-\[\]-~]+")
HOST_NAME = re.compile(r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.?")


def check_endpoint(endpoint) -> str:
    if not isinstance(endpoint, str) or not 0 < len(endpoint) <= 1000 or not (
            URL_CHARACTERS.fullmatch(endpoint)):
        raise ServiceError(400, "bad_request", "endpoint must be the subscription's URL")
    try:
        parts = urlsplit(endpoint)
        host, _ = parts.hostname, parts.port
    except ValueError:  # an unclosed IPv6 bracket, a port out of range
        raise ServiceError(400, "bad_request", "endpoint must be the subscription's URL") \
            from None
    local = host in ("127.0.0.1", "localhost", "::1")
    if host and not local and not HOST_NAME.fullmatch(host):
        raise ServiceError(400, "bad_request", "endpoint must be the subscription's URL")
    # Plain http only to a push service on this machine, and only where it is allowed
    # (CONQUEST_PUSH_HOSTS names it: a development or test setup).
    if parts.scheme != "https" and not (parts.scheme == "http" and local):
        raise ServiceError(400, "bad_request", "endpoint must be an https URL")
    if not host or not allowed_host(host) or parts.username:
        raise ServiceError(400, "push_service_refused",
                           "this site does not push to that push service")
    return endpoint


def check_subscription(data) -> tuple[str, str, str]:
    """(endpoint, p256dh, auth) of a PushSubscription.toJSON() the browser sent."""
    if not isinstance(data, dict) or not isinstance(data.get("keys"), dict):
        raise ServiceError(400, "bad_request",
                           "send the browser's subscription: {endpoint, keys: {p256dh, auth}}")
    keys = data["keys"]
    return (check_endpoint(data.get("endpoint")), _unb64(keys.get("p256dh"), 65, "p256dh"),
            _unb64(keys.get("auth"), 16, "auth"))


def do_subscribe(user, data, user_agent: str = "") -> PushSubscription:
    """Keep this browser's subscription for `user` (the browser's, whoever had it before:
    the account signed in there last gets its pushes)."""
    endpoint, p256dh, auth = check_subscription(data)
    with transaction.atomic():
        subscription, _ = PushSubscription.objects.update_or_create(
            endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth,
                                         "user_agent": user_agent[:300], "last_error": ""})
        keep = settings.CONQUEST_PUSH_BROWSERS_PER_USER
        extra = list(PushSubscription.objects.filter(user=user).order_by("-created_at", "-pk")
                     .values_list("pk", flat=True)[keep:])
        if extra:
            PushSubscription.objects.filter(pk__in=extra).exclude(pk=subscription.pk).delete()
    return subscription


def do_unsubscribe(user, endpoint) -> bool:
    """Forget this browser's subscription of `user`; whether there was one."""
    if not isinstance(endpoint, str):
        raise ServiceError(400, "bad_request", "endpoint must be the subscription's URL")
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return bool(deleted)
