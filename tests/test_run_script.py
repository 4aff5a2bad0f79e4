"""`make run`'s script: web, worker and beat come up together, keep their files in
CONQUEST_VAR_DIR, and Ctrl-C stops them all within a few seconds, whatever one of them does
with its signal."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
import uuid
from pathlib import Path

from tests.ports import free_port

ROOT = Path(__file__).resolve().parents[1]
# Not passed on to a service a test starts, which is a host of its own: the session's
# runtime folder, and this process's metrics folder (config/workers.py sets it from var/;
# the service counts in its own var/, and `make run`'s clear_metrics would empty this one,
# losing the counts another test process is scraping).
NOT_PASSED_ON = ("XDG_RUNTIME_DIR", "PROMETHEUS_MULTIPROC_DIR")


def marked(marker: str) -> list[int]:
    """Processes still running with `marker` in their environment."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if marker.encode() in environ:
            found.append(int(entry.name))
    return found


def workers_ready(log: str) -> bool:
    """Whether both of run.sh's Celery workers said they are ready."""
    lines = log.splitlines()
    return all(any(f"{name}@" in line and " ready." in line for line in lines)
               for name in ("deadlines", "mail"))


def test_ctrl_c_stops_web_worker_and_beat_within_seconds(tmp_path, migrated_sqlite):
    marker = f"CONQUEST_RUN_TEST={uuid.uuid4().hex}"
    port = free_port()
    var, home = tmp_path / "var", tmp_path / "home"
    environment = {k: v for k, v in os.environ.items()
                   if not k.startswith("DJANGO_") and k not in NOT_PASSED_ON}
    environment.update({
        "PORT": str(port),
        "DATABASE_URL": f"sqlite:///{shutil.copyfile(migrated_sqlite, tmp_path / 'run.sqlite3')}",
        "CELERY_BROKER_URL": "memory://",  # this test's worker must not take others' tasks
        "CONQUEST_STOP_GRACE_SECONDS": "3",
        "CONQUEST_VAR_DIR": str(var),
        "HOME": str(home),
        "WEB_CONCURRENCY": "1",  # one web process stops as two do, and starts sooner
        marker.split("=")[0]: marker.split("=")[1],
    })
    # Their output goes to a file: a pipe nobody reads fills up on a busy machine (the
    # workers' and beat's start-up logs), and then whoever writes next, run.sh's own
    # "killing what is left" included, blocks and never stops.
    log_path = tmp_path / "run.log"
    output = open(log_path, "wb")  # closed in finally
    # Started as a shell starts a background job (`make run &` in a script), with SIGINT
    # ignored: a non-interactive bash cannot trap a signal ignored on entry, so run.sh must
    # restore it itself, or Ctrl-C never reaches it. (The test's own process may ignore it
    # too, after some library in the same pytest worker did.)
    script = subprocess.Popen(["bash", "scripts/run.sh"], cwd=ROOT, env=environment,
                              stdout=output, stderr=subprocess.STDOUT,
                              start_new_session=True,
                              preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        else:
            raise AssertionError("the web app never came up")
        # Both workers have started up (and beat, below): Ctrl-C meets them all running.
        deadline = time.monotonic() + 60
        while not workers_ready(log_path.read_text(errors="replace")):
            assert time.monotonic() < deadline, log_path.read_text(errors="replace")
            time.sleep(0.1)
        assert len(marked(marker)) >= 4  # the script, gunicorn and its workers, celery...
        # What they write is in CONQUEST_VAR_DIR: gunicorn's control socket (one per port,
        # not the ~/.gunicorn/gunicorn.ctl every instance on the host would share) and
        # beat's schedule.
        assert (var / f"gunicorn-{port}.ctl").is_socket()
        assert not (home / ".gunicorn").exists()
        for _ in range(600):  # beat may take a while to start on a busy machine
            if list(var.glob("celerybeat-schedule*")):
                break
            time.sleep(0.1)
        assert list(var.glob("celerybeat-schedule*"))
        assert (var.stat().st_mode & 0o777) == 0o700

        os.killpg(script.pid, signal.SIGINT)  # what a terminal's Ctrl-C sends
        started = time.monotonic()
        script.wait(timeout=15)
        stopped_in = time.monotonic() - started
        for _ in range(20):
            if not marked(marker):
                break
            time.sleep(0.1)
        assert marked(marker) == []
        assert stopped_in < 8, stopped_in
    finally:
        for pid in marked(marker):
            os.kill(pid, signal.SIGKILL)
        if script.poll() is None:
            script.kill()
        output.close()


def test_make_run_says_what_it_does_and_serving_only_once_the_site_answers(tmp_path):
    """A newcomer opens the address the moment it is printed: it must answer then, and
    until then the output says what is still under way."""
    marker = f"CONQUEST_RUN_TEST={uuid.uuid4().hex}"
    port = free_port()
    environment = {k: v for k, v in os.environ.items()
                   if not k.startswith(("DJANGO_", "MAKE")) and k not in NOT_PASSED_ON}
    environment.update({
        "PORT": str(port),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'run.sqlite3'}",
        "CELERY_BROKER_URL": "memory://",
        "CONQUEST_STOP_GRACE_SECONDS": "3",
        "CONQUEST_VAR_DIR": str(tmp_path / "var"),
        "HOME": str(tmp_path / "home"),
        "WEB_CONCURRENCY": "1",  # what it says and when is the same with one web process
        marker.split("=")[0]: marker.split("=")[1],
    })
    # The counts of this test process (and of the others of the run, in the same folder):
    # `make run` empties its own metrics folder, never theirs.
    from django.conf import settings
    ours = settings.CONQUEST_METRICS_DIR / f"counter_{marker[-12:]}.db"
    ours.write_bytes(b"")
    log_path = tmp_path / "run.log"
    output = open(log_path, "wb")  # closed in finally
    script = subprocess.Popen(["make", "--no-print-directory", "run"], cwd=ROOT,
                              env=environment, stdout=output, stderr=subprocess.STDOUT,
                              start_new_session=True)
    serving = f"Conquest is serving on http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 180
        while serving not in log_path.read_text(errors="replace"):
            assert time.monotonic() < deadline, log_path.read_text(errors="replace")
            assert script.poll() is None, log_path.read_text(errors="replace")
            time.sleep(0.05)
        # The moment it says so, the site answers.
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as answer:
            assert answer.status == 200
        log = log_path.read_text(errors="replace")
        steps = ["make run: applying the database's migrations",
                 "make run: collecting static files",
                 "run.sh: starting web (on port", "worker-deadlines, worker-mail and beat",
                 serving]
        places = [log.find(step) for step in steps]
        assert -1 not in places and places == sorted(places), log
        assert ours.exists()
        assert list((tmp_path / "var" / "metrics").glob("*.db"))  # the service's own counts
    finally:
        ours.unlink(missing_ok=True)
        if script.poll() is None:
            os.killpg(script.pid, signal.SIGINT)
            try:
                script.wait(timeout=15)
            except subprocess.TimeoutExpired:
                pass
        for pid in marked(marker):
            os.kill(pid, signal.SIGKILL)
        if script.poll() is None:
            script.kill()
        output.close()
