"""The deployment's settings: unsafe production settings refuse to start, errors are logged."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

from config.checks import secret_key_is_not_the_development_key

ROOT = Path(__file__).resolve().parents[1]


def manage(*args, **env):
    environment = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, text=True,
                          capture_output=True, env={**environment, **env}, timeout=120)


def test_it_refuses_to_start_with_the_development_key_and_debug_off():
    result = manage("check", DEBUG="0")

    assert result.returncode != 0
    assert "SECRET_KEY is the built-in development key" in result.stderr


def test_it_starts_with_debug_off_and_a_key_of_its_own():
    result = manage("check", DEBUG="0", SECRET_KEY="k" * 20 + "-a-long-random-production-key")

    assert result.returncode == 0, result.stderr


def test_it_reports_the_development_key_as_a_check_error(settings):
    settings.DEBUG = False
    settings.SECRET_KEY = settings.DEV_SECRET_KEY

    errors = secret_key_is_not_the_development_key(None)

    assert [e.id for e in errors] == ["conquest.E001"]


def test_it_accepts_the_development_key_while_debugging(settings):
    settings.DEBUG = True
    settings.SECRET_KEY = settings.DEV_SECRET_KEY

    assert secret_key_is_not_the_development_key(None) == []


def test_it_logs_server_errors_to_the_console_whatever_debug_says():
    handlers = logging.getLogger("django.request").handlers

    assert any(isinstance(h, logging.StreamHandler) for h in handlers)
    assert logging.getLogger("django.request").getEffectiveLevel() <= logging.ERROR
    assert settings.LOGGING["loggers"]["django.request"]["level"] == "ERROR"


def test_it_keeps_var_readable_by_its_owner_only():
    assert (settings.VAR_DIR.stat().st_mode & 0o777) == 0o700
