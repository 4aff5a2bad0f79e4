"""docs/operators/selfhost.md cannot rot: scripts/selfhost_check.py runs its checked blocks
(a role and database from scratch, the settings file, migrations), the units' processes,
nginx with deploy/nginx/conquest.conf, the probes and a stream through it, and the backup.
On the PostgreSQL + Redis pass, where nginx is installed; about three minutes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.slow, pytest.mark.django_db]  # the PostgreSQL pass keeps it


def test_the_self_hosting_guide_works_as_written():
    if connection.vendor != "postgresql" or not os.environ.get(
            "CELERY_BROKER_URL", "").startswith("redis://"):
        pytest.skip("the guide is checked on the PostgreSQL + Redis pass")
    if not (shutil.which("nginx") or os.path.exists("/usr/sbin/nginx")):
        pytest.skip("nginx is not installed (make selfhost-check installs it)")
    env = {**os.environ, "PATH": f"{ROOT}/.venv/bin:{os.environ['PATH']}",
           # A Redis database of its own (emptied afterwards), never the suite's broker.
           "SELFHOST_REDIS_DB": os.environ.get("CONQUEST_SELFHOST_REDIS_DB", "14"),
           "SELFHOST_PREFIX": f"{connection.settings_dict['NAME']}_selfhost_"}
    done = subprocess.run([sys.executable, "scripts/selfhost_check.py"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    assert "selfhost-check: passed" in done.stdout
    assert "through nginx: 401" in done.stdout  # the stream reached the streams process
