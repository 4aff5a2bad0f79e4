"""A push service on loopback for the web push tests: it takes the POSTs a browser vendor's
push service would, checks each one's VAPID JWT (RFC 8292) against the site's public key,
and decrypts its aes128gcm body (RFC 8291) with the subscribed browser's private key."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def new_vapid_key() -> str:
    """A VAPID private key as CONQUEST_VAPID_PRIVATE_KEY takes it."""
    key = ec.generate_private_key(ec.SECP256R1())
    return b64(key.private_numbers().private_value.to_bytes(32, "big"))


@dataclass
class Browser:
    """What a browser keeps of its subscription: its own key pair and auth secret."""

    name: str
    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self) -> dict:
        """As PushSubscription.toJSON() gives it."""
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64(public), "auth": b64(self.auth)}}


@dataclass
class Push:
    browser: str
    message: dict
    headers: dict


class PushService:
    """Run with `with PushService(public_key) as service:`; `service.browser(name)` makes a
    browser subscribed at /push/<name>; `answers[name]` is the status to answer it with
    (201 by default; a list is answered in order, its last item thereafter)."""

    def __init__(self, vapid_public_key: str, subject: str | None = None):
        self.vapid_public_key = vapid_public_key
        self.subject = subject
        self.browsers: dict[str, Browser] = {}
        self.answers: dict[str, int | list[int]] = {}
        self.received: list[Push] = []
        self.problems: list[str] = []
        self.calls: dict[str, int] = {}
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self):
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()

    def browser(self, name: str) -> Browser:
        self.browsers[name] = Browser(name, f"{self.origin}/push/{name}")
        return self.browsers[name]

    def to(self, name: str) -> list[dict]:
        return [push.message for push in self.received if push.browser == name]

    def _answer(self, name: str) -> int:
        answer = self.answers.get(name, 201)
        if isinstance(answer, list):
            return answer.pop(0) if len(answer) > 1 else answer[0]
        return answer

    def check_vapid(self, authorization: str) -> str | None:
        """Why the Authorization header is not a valid VAPID one for this origin, or None."""
        if not authorization.startswith("vapid "):
            return f"not a vapid authorization: {authorization[:30]}"
        parts = dict(part.strip().split("=", 1) for part in authorization[6:].split(","))
        if parts.get("k") != self.vapid_public_key:
            return "k is not the site's public key"
        token = parts.get("t", "")
        header, claims, signature = token.split(".")
        if json.loads(unb64(header)).get("alg") != "ES256":
            return "not ES256"
        raw = unb64(signature)
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(),
                                                             unb64(self.vapid_public_key))
        try:
            public.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"),
                                               int.from_bytes(raw[32:], "big")),
                          f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            return "the JWT's signature does not verify"
        body = json.loads(unb64(claims))
        if body.get("aud") != self.origin:
            return f"aud {body.get('aud')} is not {self.origin}"
        if not time.time() < body.get("exp", 0) <= time.time() + 24 * 3600:
            return "exp is not within 24 hours"
        if self.subject and body.get("sub") != self.subject:
            return f"sub {body.get('sub')}"
        return None

    def _handler(self):
        service = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                name = self.path.rsplit("/", 1)[-1]
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                service.calls[name] = service.calls.get(name, 0) + 1
                status = service._answer(name)
                problem = service.check_vapid(self.headers.get("Authorization", ""))
                if self.headers.get("Content-Encoding") != "aes128gcm":
                    problem = problem or "not aes128gcm"
                if not self.headers.get("TTL"):
                    problem = problem or "no TTL"
                browser = service.browsers.get(name)
                if problem is None and browser is not None and status < 300:
                    try:
                        text = http_ece.decrypt(body, private_key=browser.key,
                                                auth_secret=browser.auth, version="aes128gcm")
                        service.received.append(
                            Push(name, json.loads(text), dict(self.headers.items())))
                    except Exception as error:  # noqa: BLE001 - recorded for the test
                        problem = f"could not decrypt: {error!r}"
                if problem:
                    service.problems.append(problem)
                    status = 400 if status < 300 else status
                self.send_response(404 if browser is None else status)
                self.send_header("Content-Length", "0")
                self.end_headers()

        return Handler
