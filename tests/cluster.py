"""deploy/Procfile's processes started as a cluster on one host (two web instances, two
sets of workers, one beat) for tests/test_cluster.py, and an API client over both webs."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

from tests.notifications.real_parts import ROOT, children, database_url
from tests.ports import free_port
from tests.test_deploy_files import procfile

# Short intervals, so that deadlines, sweeps and leases come round within the test's minute.
FAST = {
    "CONQUEST_DEADLINE_SWEEP_SECONDS": "1",
    "CONQUEST_OUTBOX_SWEEP_SECONDS": "2",
    "CONQUEST_OUTBOX_GRACE_SECONDS": "3",
    "CONQUEST_MAIL_LEASE_SECONDS": "5",
    "CONQUEST_BOT_DELAY_SECONDS": "0.2",
    "CONQUEST_BOT_SWEEP_SECONDS": "2",
    "CONQUEST_BEAT_LEASE_SECONDS": "3",
    "CONQUEST_DELIVERY_LINGER_SECONDS": "0.1",
    "CONQUEST_THROTTLE_SIGNUP_IP": "10000/hour",
    "CONQUEST_THROTTLE_CREATE_GAME_USER": "10000/hour",
    "CONQUEST_THROTTLE_CREATE_GAME_IP": "10000/hour",
    "CONQUEST_THROTTLE_COMMAND_USER": "100000/minute",
    "CONQUEST_THROTTLE_COMMAND_IP": "100000/minute",
    "WEB_CONCURRENCY": "1",  # two instances of one process each: they start sooner
}


class Topology:
    """Each process of deploy/Procfile as its command line says, on the test database,
    a Redis and an SMTP sink of the test's own; each in a process group of its own."""

    def __init__(self, tmp_path: Path, redis, smtp_port: int):
        self.logs = tmp_path / "logs"
        self.logs.mkdir()
        self.web_ports = [free_port(), free_port()]
        bin_dir = str(Path(sys.executable).parent)  # gunicorn, celery and python
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("PYTEST")},
            **FAST,
            "PATH": f"{bin_dir}:{os.environ.get('PATH', '/usr/bin:/bin')}",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": database_url(),
            "CELERY_BROKER_URL": redis.url,
            "CACHE_URL": redis.url.rsplit("/", 1)[0] + "/1",  # throttles shared by both webs
            "EMAIL_HOST": "127.0.0.1",
            "EMAIL_PORT": str(smtp_port),
            "CONQUEST_VAR_DIR": str(tmp_path / "var"),
            "HOME": str(tmp_path),
            "PYTHONUNBUFFERED": "1",
        }
        lines = procfile()
        self.commands = {
            "web-1": (lines["web"], {"PORT": str(self.web_ports[0])}),
            "web-2": (lines["web"], {"PORT": str(self.web_ports[1])}),
            "beat": (lines["beat"], {}),
        }
        for n in (1, 2):  # two sets of workers, each with node names of its own
            for kind in ("deadlines", "mail"):
                self.commands[f"worker-{kind}-{n}"] = (
                    f"{lines['worker-' + kind]} --hostname {kind}-{n}@%h", {})
        self.processes: dict[str, subprocess.Popen] = {}

    def start(self, name: str):
        line, extra = self.commands[name]
        with open(self.logs / f"{name}.log", "ab") as log:
            self.processes[name] = subprocess.Popen(
                ["bash", "-c", f"exec {line}"], cwd=ROOT, env={**self.env, **extra},
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    def start_all(self):
        for name in self.commands:
            self.start(name)

    def kill(self, *names: str) -> dict[str, list[int]]:
        """SIGKILL to each one's whole process group (the worker and its pool), as the
        OOM killer or a lost machine would; what was killed, by name."""
        killed = {}
        for name in names:
            process = self.processes.pop(name)
            killed[name] = [process.pid, *children(process.pid)]
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)
        return killed

    def logs_of(self, name: str) -> str:
        path = self.logs / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def logs(self) -> str:
        return "\n".join(f"== {name}\n{self.logs_of(name)[-3000:]}" for name in self.commands)

    def freeze(self):
        """SIGKILL to every process at once: what they wrote stays as it is, at no cost of a
        graceful shutdown (the checks read only the database and the SMTP sink)."""
        self.kill(*self.processes)

    def stop(self):
        for process in self.processes.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes.values():
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(5)
        self.processes.clear()


class Client:
    """JSON calls to the web instances in turn (or to one port), only on 127.0.0.1; it
    keeps every 5xx answer but the documented 503 `unavailable`."""

    def __init__(self, ports: list[int]):
        self.ports = ports
        self._next = 0
        self._lock = threading.Lock()
        self._errors: list[tuple] = []

    def call(self, method: str, path: str, body=None, token: str | None = None,
             port: int | None = None):
        with self._lock:
            if port is None:
                port = self.ports[self._next % len(self.ports)]
                self._next += 1
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}{path}", method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Content-Type": "application/json",
                     **({"Authorization": f"Token {token}"} if token else {})})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                status, raw = answer.status, answer.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        except OSError as error:  # refused or reset: the instance is not there
            return None, str(error)
        try:
            content = json.loads(raw)
        except ValueError:
            content = raw.decode(errors="replace")
        if status >= 500 and not (status == 503 and isinstance(content, dict)
                                  and content.get("error") == "unavailable"):
            with self._lock:
                self._errors.append((method, path, port, status, str(content)[:300]))
        return status, content

    def server_errors(self) -> list[tuple]:
        return list(self._errors)
