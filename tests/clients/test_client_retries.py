"""The reference client's retries (docs/bots/index.md "Errors and retries"), against a small
stand-in server that answers from a script: 429 and 503 wait Retry-After, a dropped connection
(RemoteDisconnected, as a closed keep-alive connection shows) waits 1 s, 2 s, 4 s ...; a command
is sent again only when it carries expected_version; a refusal is never tried again."""

from __future__ import annotations

import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.notifications.real_parts import ROOT

sys.path.insert(0, str(ROOT / "clients" / "python"))
import conquest_client as cc  # noqa: E402

VIEW = {"id": 5, "status": "active", "version": 3}


class Scripted(BaseHTTPRequestHandler):
    """Each request takes the next step of `script`: (status, headers) to refuse with,
    "drop" to close the connection without a word, or None for 200 with VIEW."""

    script: list = []
    seen: list = []

    def log_message(self, *args):
        pass

    def _answer(self):
        type(self).seen.append((self.command, self.path))
        step = type(self).script.pop(0) if type(self).script else None
        if step == "drop":
            self.close_connection = True
            return  # http.client reads no status line: RemoteDisconnected
        status, headers = step or (200, {})
        raw = json.dumps(VIEW if status == 200 else {
            "error": {429: "throttled", 503: "unavailable"}.get(status, "bad_request"),
            "detail": "scripted", **({"limit": "command_user"} if status == 429 else {})}).encode()
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    do_GET = do_POST = _answer  # noqa: N815 - http.server's names


@pytest.fixture
def server():
    Scripted.script, Scripted.seen = [], []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Scripted)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def pauses(monkeypatch):
    waited: list = []
    monkeypatch.setattr(cc.time, "sleep", waited.append)
    return waited


def test_it_waits_retry_after_on_429_and_503_and_backs_off_after_a_dropped_connection(
        server, pauses):
    Scripted.script = [(429, {"Retry-After": "7"}), (503, {"Retry-After": "3"}), "drop",
                       "drop", None]

    view = cc.Conquest(server, token="t").game(5)

    assert view == VIEW
    assert pauses == [7.0, 3.0, 4.0, 8.0]  # the pause doubles with each try: 1 s, 2 s, 4 s ...
    assert len(Scripted.seen) == 5


def test_a_command_with_expected_version_is_sent_again_after_a_dropped_connection(
        server, pauses):
    Scripted.script = ["drop", None]

    cc.Conquest(server, token="t").command(5, {"type": "end_turn"}, expected_version=3)

    assert [method for method, _ in Scripted.seen] == ["POST", "POST"] and pauses == [1.0]


def test_a_command_without_expected_version_is_not_sent_twice(server, pauses):
    Scripted.script = ["drop", None]

    with pytest.raises(OSError):  # http.client.RemoteDisconnected is a ConnectionResetError
        cc.Conquest(server, token="t").command(5, {"type": "end_turn"})

    assert len(Scripted.seen) == 1 and pauses == []


def test_a_refusal_is_not_tried_again_and_the_tries_run_out(server, pauses):
    Scripted.script = [(400, {})]
    with pytest.raises(cc.ApiError) as refused:
        cc.Conquest(server, token="t").game(5)
    assert refused.value.status == 400 and len(Scripted.seen) == 1

    Scripted.script = [(503, {})] * 3
    with pytest.raises(cc.ApiError) as unavailable:
        cc.Conquest(server, token="t", tries=3).game(5)
    assert unavailable.value.status == 503 and pauses == [1.0, 2.0]


def test_a_429_tells_the_limit_and_the_wait(server, pauses):
    Scripted.script = [(429, {"Retry-After": "12"})]

    with pytest.raises(cc.ApiError) as refused:
        cc.Conquest(server, token="t", tries=1).game(5)

    assert (refused.value.retry_after, refused.value.body["limit"]) == (12.0, "command_user")
