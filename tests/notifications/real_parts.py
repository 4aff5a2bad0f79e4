"""Real servers for the integration and fault tests: a Redis of our own, a Celery worker
and beat on the test database, and an SMTP server on loopback (aiosmtpd)."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from email import message_from_bytes
from pathlib import Path

from aiosmtpd.controller import Controller
from django.db import connection
from kombu import pools as kombu_pools

from tests.ports import free_port

ROOT = Path(__file__).resolve().parents[2]


def forget_connections() -> None:
    """Close this process's broker connections and drop its connection and producer pools,
    so the next publish connects to whatever broker_url says then (a test that points the
    app at another broker). Celery has no public call for it (its own after-fork clean-up
    does the same): it lives with the tests, never in the service's code."""
    from config.celery import app

    app.pool.force_close_all()
    app._pool = None
    # The producer pool comes from kombu's registry, keyed by the broker's address: closed
    # above but still handed out for that address unless the registry forgets it too.
    kombu_pools.reset()
    app.amqp._producer_pool = None


def wait_until(condition, seconds: float, every: float = 0.1):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(every)
    return condition()


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid`."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


class Mailbox:
    """An SMTP server on loopback that keeps what it accepts. `stall` makes the next
    session hang at RCPT (before any message data), like a slow or stuck relay;
    `stall_quit_after(message)`, when set, makes hang at QUIT the first session that had
    such a message accepted (the mails went out; the sender never hears the end)."""

    def __init__(self):
        self.messages = []
        self.stall = threading.Event()
        self.stalled = threading.Event()
        self.stall_quit_after = None

    async def handle_QUIT(self, server, session, envelope):
        wanted = self.stall_quit_after
        if wanted is not None and any(wanted(m) for m in getattr(session, "accepted", [])):
            self.stall_quit_after = None
            self.stalled.set()
            await asyncio.sleep(3600)
        return "221 Bye"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.stall.is_set():
            self.stall.clear()
            self.stalled.set()
            await asyncio.sleep(3600)
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        message = message_from_bytes(envelope.content)
        self.messages.append(message)
        session.accepted = [*getattr(session, "accepted", []), message]
        return "250 Message accepted for delivery"

    def with_header(self, name: str, value: str) -> list:
        return [m for m in self.messages if (m.get(name) or "").strip() == value]


@contextmanager
def smtp_server():
    mailbox = Mailbox()
    controller = Controller(mailbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        yield mailbox, controller.port
    finally:
        controller.stop(no_assert=True)


class RedisServer:
    """A redis-server process of our own, so a test may stop and restart it."""

    def __init__(self):
        self.port = free_port()
        self.process = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self):
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        assert wait_until(self.answers, 10), "redis-server did not start"

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        assert wait_until(lambda: not self.answers(), 10)


def database_url() -> str:
    """The test database as a URL a subprocess can open."""
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{settings['NAME']}"
    host = settings.get("HOST") or "127.0.0.1"
    port = settings.get("PORT") or 5432
    user = settings.get("USER") or "postgres"
    return f"postgres://{user}@{host}:{port}/{settings['NAME']}"


class Celery:
    """`celery worker` (and optionally beat) subprocesses on the test database."""

    def __init__(self, broker_url: str, smtp_port: int, **extra_env):
        self.logs = Path(tempfile.mkdtemp(prefix="conquest-celery-"))
        self.env = {
            **os.environ,
            # A var/ of their own: on the embedded broker they take only this test's tasks.
            "CONQUEST_VAR_DIR": str(self.logs / "var"),
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": database_url(),
            "CELERY_BROKER_URL": broker_url,
            "EMAIL_HOST": "127.0.0.1",
            "EMAIL_PORT": str(smtp_port),
            "PYTHONUNBUFFERED": "1",
            **{k: str(v) for k, v in extra_env.items()},
        }
        self.processes: dict[str, subprocess.Popen] = {}

    def _start(self, name: str, *args: str):
        log = open(self.logs / f"{name}.log", "ab")
        self.processes[name] = subprocess.Popen(
            [sys.executable, "-m", "celery", "--app", "config", *args],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def start_worker(self, *options: str):
        """A worker taking every queue in one process (--pool solo), or as `options` say."""
        self._start("worker", "worker", *(options or ("--pool", "solo")), "--loglevel", "INFO",
                    "--without-gossip", "--without-mingle", "--without-heartbeat",
                    "--hostname", f"test-{os.getpid()}@%h")
        assert wait_until(lambda: "ready" in self.log("worker"), 30), self.log("worker")

    def pool_processes(self, name: str = "worker") -> list[int]:
        """The processes `name` forked to run its tasks (none with --pool solo or threads)."""
        return children(self.processes[name].pid)

    def start_beat(self, name: str = "beat"):
        self._start(name, "beat", "--loglevel", "INFO", "--schedule",
                    str(self.logs / f"{name}-schedule"))

    def log(self, name: str) -> str:
        path = self.logs / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def kill(self, name: str):
        process = self.processes.pop(name)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)

    def stop(self):
        for name in list(self.processes):
            process = self.processes.pop(name)
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(15)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait(5)


@contextmanager
def publishing_to(broker_url: str):
    """Point this process's Celery app (the web side) at `broker_url` for a while. What
    the process handed to its publishing thread before goes out first, to the broker of
    its time: published after the switch it would go to this one, or fail on a connection
    closed under it and pause publishing to this broker (lib.publish)."""
    from config.celery import app
    from lib import publish

    publish.wait_for_publishing()
    saved = app.conf.broker_url, app.conf.broker_transport_options
    saved_env = os.environ.get("CELERY_BROKER_URL")
    os.environ["CELERY_BROKER_URL"] = broker_url  # Celery lets this override the config
    app.conf.broker_url = broker_url
    app.conf.broker_transport_options = {
        "socket_connect_timeout": 1, "socket_timeout": 2, "max_retries": 1,
    }
    forget_connections()
    try:
        yield app
    finally:
        app.conf.broker_url, app.conf.broker_transport_options = saved
        if saved_env is None:
            os.environ.pop("CELERY_BROKER_URL", None)
        else:
            os.environ["CELERY_BROKER_URL"] = saved_env
        forget_connections()


@contextmanager
def publishing_into(folder, monkeypatch):
    """This process's tasks into the worker's embedded broker (its var/broker/)."""
    from config.celery import app
    from lib import publish

    publish.wait_for_publishing()
    saved = app.conf.broker_url, app.conf.broker_transport_options
    monkeypatch.setenv("CELERY_BROKER_URL", "filesystem://")  # Celery lets it override
    app.conf.broker_url = "filesystem://"
    app.conf.broker_transport_options = {
        "data_folder_in": str(folder / "queue"), "data_folder_out": str(folder / "queue"),
        "control_folder": str(folder / "control")}
    forget_connections()
    try:
        yield
    finally:
        publish.wait_for_publishing()
        app.conf.broker_url, app.conf.broker_transport_options = saved
        forget_connections()
