"""`make run` keeps the service up: web, either worker or beat killed with SIGKILL is
started again (and says so), and afterwards the API answers, mail goes out and a deadline
is applied; one that keeps dying waits longer each time."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import urllib.error
import urllib.request
import uuid
from pathlib import Path

from tests.notifications.real_parts import wait_until
from tests.ports import free_port
from tests.test_run_script import NOT_PASSED_ON, ROOT, marked

NAMES = ("web", "worker-deadlines", "worker-mail", "worker-analysis", "beat")


class Served:
    """scripts/run.sh on a database and var/ of its own, its output in a file."""

    def __init__(self, tmp_path: Path, migrated: Path | None, under_make: bool = False,
                 **environment: str):
        """`migrated`: a migrated SQLite file (the `migrated_sqlite` fixture), copied; or
        None with DATABASE_URL among `environment` (which overrides the defaults below)."""
        self.marker = f"CONQUEST_RUN_TEST={uuid.uuid4().hex}"
        self.port = free_port()
        self.var = tmp_path / "var"
        self.log_path = tmp_path / "run.log"
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith("DJANGO_") and k not in NOT_PASSED_ON}
        self.env.update({
            "PORT": str(self.port),
            "DATABASE_URL": f"sqlite:///{shutil.copyfile(migrated, tmp_path / 'run.sqlite3')}"
            if migrated else "",
            # One web process: what is stopped or restarted is the same with one as with two,
            # and each costs a start of the whole project.
            "WEB_CONCURRENCY": "1",
            "CELERY_BROKER_URL": "filesystem://",  # the embedded default, in this var/
            "CONQUEST_VAR_DIR": str(self.var),
            "CONQUEST_STOP_GRACE_SECONDS": "3",
            "CONQUEST_DEADLINE_SWEEP_SECONDS": "1",
            "CONQUEST_BEAT_LEASE_SECONDS": "3",
            "CONQUEST_DELIVERY_LINGER_SECONDS": "0.1",
            "HOME": str(tmp_path / "home"),
            "PYTHONUNBUFFERED": "1",
            self.marker.split("=")[0]: self.marker.split("=")[1],
            **environment,
        })
        self.env.pop("EMAIL_HOST", None)  # mail as files in var/mail/
        self.output = open(self.log_path, "wb")  # closed by stop()
        # Under a parent holding the process group, as `make run` does; else the group's own.
        command = ["bash", "-c", "bash scripts/run.sh; echo run.sh ended $?"] if under_make \
            else ["bash", "scripts/run.sh"]
        self.script = subprocess.Popen(command, cwd=ROOT, env=self.env,
                                       stdout=self.output, stderr=subprocess.STDOUT,
                                       start_new_session=True)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def run_sh(self) -> int | None:
        """scripts/run.sh's process (the group's leader, or a child of the one `make` is)."""
        for pid in marked(self.marker):
            try:
                if Path(f"/proc/{pid}/cmdline").read_bytes() == b"bash\0scripts/run.sh\0":
                    return pid
            except OSError:
                continue
        return None

    def children(self) -> dict[str, int]:
        """run.sh's children by name: each is the leader of its own process group."""
        found, script = {}, self.run_sh()
        for pid in marked(self.marker):
            try:
                stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if int(stat[1]) != script or int(stat[2]) != pid:  # ppid, pgrp
                continue
            words = [w.decode() for w in cmdline]
            if any(w.endswith("gunicorn") for w in words):
                found["web"] = pid
            elif "beat" in words:
                found["beat"] = pid
            elif "deadlines,celery" in words:
                found["worker-deadlines"] = pid
            elif "analysis" in words:
                found["worker-analysis"] = pid
            elif "mail" in words:
                found["worker-mail"] = pid
        return found

    def call(self, method: str, path: str, body=None, token: str | None = None):
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}", method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Content-Type": "application/json",
                     **({"Authorization": f"Token {token}"} if token else {})})
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                body = answer.read()
                if answer.headers.get_content_type() == "application/json":
                    return answer.status, json.loads(body)
                return answer.status, body
        except urllib.error.HTTPError as error:
            return error.code, error.read()
        except OSError as error:
            return None, str(error)

    def mailed_to(self, address: str) -> bool:
        return any(f"To: {address}" in path.read_text(errors="replace")
                   for path in (self.var / "mail").glob("*"))

    def stop(self):
        try:
            if self.script.poll() is None:
                os.killpg(self.script.pid, signal.SIGINT)
                self.script.wait(15)
            assert wait_until(lambda: not marked(self.marker), 5), marked(self.marker)
        finally:
            for pid in marked(self.marker):
                os.kill(pid, signal.SIGKILL)
            if self.script.poll() is None:
                self.script.kill()
            self.output.close()


def sign_up(served: Served, name: str) -> str:
    status, answer = served.call("POST", "/api/v1/accounts/", {
        "username": name, "email": f"{name}@example.com", "password": "correct horse battery"})
    assert status == 201, (status, answer)
    return answer["token"]


SENT = "Sending due task deadlines"  # beat's line as it sends the deadline sweep


def test_it_restarts_whatever_is_killed_and_the_service_carries_on(tmp_path, migrated_sqlite):
    served = Served(tmp_path, migrated_sqlite)
    try:
        assert wait_until(lambda: served.call("GET", "/healthz")[0] == 200, 60), served.log()
        first = wait_until(lambda: (c := served.children()).keys() == set(NAMES) and c, 30)
        assert first, (served.children(), served.log())
        # Beat has taken the lease and a sweep has run before anything is killed.
        assert wait_until(lambda: "sweep_deadlines" in served.log(), 30), served.log()
        # A game whose first deadline falls due (in 10 s) while everything is down or
        # starting again: only the new beat and deadlines worker can apply it.
        alice, bob = sign_up(served, "alice"), sign_up(served, "bob")
        status, game = served.call("POST", "/api/v1/games/", {
            "name": "across the restart", "players": 2, "deadline_seconds": 10}, alice)
        assert status == 201, game
        assert served.call("POST", f"/api/v1/games/{game['id']}/join/", None, bob)[0] == 200

        for pid in first.values():
            os.kill(pid, signal.SIGKILL)  # what the OOM killer does, to each of them
        killed_at = len(served.log())

        def all_back():
            now = served.children()
            return now.keys() == set(NAMES) and all(now[n] != first[n] for n in NAMES) and now
        again = wait_until(all_back, 30)
        assert again, (served.children(), served.log())
        for name in NAMES:
            assert re.search(rf"run\.sh: {name} \(pid {first[name]}\) was killed by signal 9;"
                             rf" restarting it in 1 s", served.log()), served.log()
            assert f"run.sh: restarted {name} (pid {again[name]})" in served.log()
        assert served.script.poll() is None
        # One that dies again soon after its restart waits longer before the next.
        os.kill(again["worker-mail"], signal.SIGKILL)
        assert wait_until(lambda: re.search(
            rf"worker-mail \(pid {again['worker-mail']}\) was killed by signal 9; restarting"
            rf" it in 2 s \(failure 2 in a row\)", served.log()), 10), served.log()
        assert wait_until(lambda: served.children().get("worker-mail") not in
                        (None, again["worker-mail"]), 15), served.log()

        # The new web answers; the new mail worker sends a sign-up's confirmation mail. (It
        # refuses connections until it has loaded the whole project, --preload: as long as
        # the first start may take, not a queued request's 10 s more than 30.)
        assert wait_until(lambda: served.call("GET", "/healthz")[0] == 200, 60), served.log()
        sign_up(served, "charlie")
        assert wait_until(lambda: served.mailed_to("charlie@example.com"), 30), served.log()

        # The new beat (once the killed one's lease lapses) sends the sweep, and the new
        # deadlines worker applies the deadline.
        def timed_out():
            status, answer = served.call("GET", f"/api/v1/games/{game['id']}/events/",
                                         None, alice)
            return status == 200 and any(e["type"] == "turn_timed_out"
                                         for e in answer["events"])
        assert wait_until(timed_out, 45, every=1), served.log()
        assert wait_until(lambda: SENT in served.log()[killed_at:], 30), served.log()

    finally:
        served.stop()
