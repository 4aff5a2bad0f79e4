"""A real ASGI server (gunicorn's ASGI worker on config.asgi, as make run serves it) on the test database, and a client that reads
Server-Sent Events (or ndjson) from it line by line."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from django.conf import settings

from tests.notifications.real_parts import ROOT, database_url
from tests.ports import free_port

CAP = 3


class StreamServer:
    def __init__(self, **extra_env):
        self.port = free_port()
        self.log = tempfile.NamedTemporaryFile(prefix="conquest-streams-", suffix=".log")
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("PYTEST")},
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": database_url(),
            "CONQUEST_VAR_DIR": tempfile.mkdtemp(prefix="conquest-streams-var-"),
            # The test process publishes on its own channel name (made from its settings'
            # database name): the server listens there.
            "CONQUEST_STREAM_CHANNEL": settings.CONQUEST_STREAM_CHANNEL,
            "CONQUEST_STREAM_REDIS_URL": settings.CONQUEST_STREAM_REDIS_URL,
            "CONQUEST_STREAM_HEARTBEAT_SECONDS": "1",
            "CONQUEST_STREAM_POLL_SECONDS": "0.3",
            "CONQUEST_STREAMS_PER_USER": str(CAP),
            "CONQUEST_THROTTLE_SIGNUP_IP": "10000/hour",
            "PYTHONUNBUFFERED": "1",
            **extra_env,
        }

    def start(self):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.asgi:application", "-k", "asgi",
             "-c", "python:config.gunicorn_conf", "--workers", "1", "--graceful-timeout", "5",
             "--bind", f"127.0.0.1:{self.port}", "--no-control-socket"], cwd=ROOT, env=self.env, stdout=self.log,
            stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                connection.request("GET", "/healthz")
                if connection.getresponse().status == 200:
                    return self
            except OSError:
                time.sleep(0.2)
        raise AssertionError("the stream server did not come up:\n" + self.output())

    def output(self) -> str:
        return Path(self.log.name).read_text(errors="replace")[-4000:]

    def stop(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(5)

    def call(self, method: str, path: str, token: str | None = None, body=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        connection.request(method, path, None if body is None else json.dumps(body),
                           headers={"Content-Type": "application/json",
                                    **({"Authorization": f"Token {token}"} if token else {})})
        answer = connection.getresponse()
        data = answer.read()
        return answer.status, (json.loads(data) if data else None)

    def open(self, path: str, token: str | None = None, headers: dict | None = None):
        return Stream(self.port, path, token, headers or {})

    def client(self, token: str | None) -> ServerClient:
        """An API client of this server sending `token`, as the tests' makers drive one
        (tests/games_in_states.py's new_game)."""
        return ServerClient(self, token)


class ServerClient:
    """The part of an APIClient that tests/games_in_states.py uses, over real HTTP."""

    def __init__(self, server: StreamServer, token: str | None):
        self.server, self.token = server, token

    def post(self, path: str, data=None, format: str = "json") -> Answer:  # noqa: A002
        return Answer(*self.server.call("POST", path, self.token, data))


class Answer:
    def __init__(self, status_code: int, body):
        self.status_code, self.content = status_code, body

    def json(self):
        return self.content


class Stream:
    """One open stream: `status`, `headers`, and `next()` for its next event as
    (event name, id or None, data as parsed JSON), or a heartbeat as ("heartbeat", …);
    `retry`, the reconnection time the stream last asked for (ms), if any."""

    def __init__(self, port: int, path: str, token: str | None, headers: dict):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.connection.request("GET", path, headers={
            **({"Authorization": f"Token {token}"} if token else {}), **headers})
        self.answer = self.connection.getresponse()
        self.status = self.answer.status
        self.ndjson = "x-ndjson" in (self.answer.getheader("Content-Type") or "")
        self.retry = None

    def json(self):
        return json.loads(self.answer.read())

    def next(self, skip_heartbeats: bool = True, within: float = 30):
        """(Heartbeats come every second: a stream that says nothing else fails here.)"""
        deadline = time.monotonic() + within
        while True:
            assert time.monotonic() < deadline, "nothing but heartbeats came"
            found = self._next()
            if found[0] != "heartbeat" or not skip_heartbeats:
                return found

    def _next(self):
        if self.ndjson:
            line = self.answer.readline()
            assert line, "the stream ended"
            if line == b"\n":
                return "heartbeat", None, None
            item = json.loads(line)
            return item["event"], item.get("id"), item["data"]
        fields: dict[str, str] = {}
        while True:
            line = self.answer.readline()
            assert line, "the stream ended"
            line = line.decode().rstrip("\n")
            if line == "":
                if fields:
                    break
                continue
            if line.startswith(":"):
                return "heartbeat", None, None
            name, _, value = line.partition(": ")
            if name == "retry":
                self.retry = int(value)
                continue
            fields[name] = value
        seq = fields.get("id")
        return (fields.get("event", "message"), int(seq) if seq else None,
                json.loads(fields["data"]) if "data" in fields else None)

    def events(self, count: int) -> list:
        return [self.next() for _ in range(count)]

    def close(self):
        self.connection.close()
