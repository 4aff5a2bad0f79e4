"""The deployment's settings: unsafe production settings refuse to start, errors are logged."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from config import environment
from ops.checks import secret_key_is_not_the_development_key

ROOT = Path(__file__).resolve().parents[2]


def manage(*args, **env):
    environment = {k: v for k, v in os.environ.items()
                   if k not in ("SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE")}
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


STRONG_KEY = "k7Hq2mZp9Xw4Lr8Tn3Vb6Yc1Ds5Fg0Jh-Ue2Io9Pa4Sd7Fg1Hj3Kl6Zx8Cv5Bn0Mq"


def deploy_check(**env):
    result = manage("check", "--deploy", DEBUG="0", SECRET_KEY=STRONG_KEY, **env)
    return result.returncode, result.stdout + result.stderr


def test_debug_off_is_https_only_by_default():
    code, output = deploy_check()

    assert code == 0, output
    # What is left is the operator's choice to submit the site to the browsers' preload list.
    assert "security.W" not in output.replace("security.W021", "")
    assert "drf_spectacular.W" not in output


def test_turning_https_off_is_flagged_by_the_deploy_check():
    _, output = deploy_check(SECURE_SSL_REDIRECT="0", SESSION_COOKIE_SECURE="0",
                             CSRF_COOKIE_SECURE="0", SECURE_HSTS_SECONDS="0")

    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in output


def test_it_trusts_the_proxy_header_only_when_told(settings):
    result = manage("shell", "-c", "from django.conf import settings; "
                    "print(getattr(settings, 'SECURE_PROXY_SSL_HEADER', None))",
                    SECURE_PROXY_SSL_HEADER="HTTP_X_FORWARDED_PROTO")

    assert "('HTTP_X_FORWARDED_PROTO', 'https')" in result.stdout
    assert getattr(settings, "SECURE_PROXY_SSL_HEADER", None) is None


def test_every_page_carries_a_content_security_policy(client, db):
    for path in ("/", "/games/", "/accounts/login/", "/admin/login/"):
        policy = client.get(path)["Content-Security-Policy"]
        assert "default-src 'self'" in policy and "script-src 'self'" in policy
        assert "unsafe-inline" not in policy.split("style-src")[0]
        assert "frame-ancestors 'none'" in policy


def test_the_api_docs_load_nothing_from_elsewhere(client, db):
    page = client.get("/api/v1/docs/")
    html = page.content.decode()

    assert page.status_code == 200
    assert "cdn" not in html.lower() and "https://" not in html
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in html
    assert "script-src 'self'" in page["Content-Security-Policy"]
    script = client.get("/api/v1/docs/?script=")
    assert script.status_code == 200 and "SwaggerUIBundle" in script.content.decode()


def setting(expression: str, *unset: str, **env) -> str:
    """What `expression` (over the settings module, as Django reads it) prints in a new
    process with `env`, the variables `unset` removed from this one's. The module alone is
    imported (no django.setup(): a fifth of the time, and the settings are the same)."""
    environment = {k: v for k, v in os.environ.items() if k not in unset}
    result = subprocess.run(
        [sys.executable, "-c", f"import config.settings as settings; print({expression})"],
        cwd=ROOT, text=True, capture_output=True, timeout=120,
        env={**environment, "DJANGO_SETTINGS_MODULE": "config.settings", **env})
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_mailed_links_default_to_the_port_make_run_serves_on():
    def site_url(**env):
        return setting("settings.SITE_URL", "SITE_URL", "PORT", **env)

    assert site_url(PORT="8101") == "http://127.0.0.1:8101"
    assert site_url() == "http://127.0.0.1:8000"
    assert site_url(PORT="8101", SITE_URL="https://conquest.example/") == "https://conquest.example"


def test_statements_are_prepared_only_on_connections_that_are_kept():
    def prepared(**env):
        return setting("settings.DATABASES['default'].get('OPTIONS', {}).get('prepare_threshold')",
                       "CONN_MAX_AGE", "CONQUEST_PREPARED_STATEMENTS",
                       DATABASE_URL="postgres://postgres@127.0.0.1:5432/conquest", **env) != "None"

    assert prepared()
    assert prepared(CONN_MAX_AGE="600")
    # A connection per request would prepare every statement again on each.
    assert not prepared(CONN_MAX_AGE="0")
    assert not prepared(CONQUEST_PREPARED_STATEMENTS="0")  # behind an old pooler


# ---- a setting that cannot be read refuses to start, naming the variable ------------------
def refusal(**env) -> str:
    """What `manage.py check` says as it refuses to start with `env`."""
    result = manage("check", **env)
    assert result.returncode != 0
    return result.stderr.strip().splitlines()[-1]


def test_it_refuses_a_flag_it_cannot_read():
    said = refusal(SECURE_HSTS_PRELOAD="flase")

    assert "SECURE_HSTS_PRELOAD" in said and "'flase'" in said
    assert "1, true, yes, on" in said and "0, false, no, off" in said


def test_it_refuses_a_whole_number_it_cannot_read():
    said = refusal(CONQUEST_SNAPSHOT_EVERY="a hundred")

    assert "CONQUEST_SNAPSHOT_EVERY" in said and "'a hundred'" in said
    assert "a whole number" in said


def test_it_refuses_a_number_of_seconds_it_cannot_read():
    said = refusal(CONQUEST_STREAM_POLL_SECONDS="0,5")

    assert "CONQUEST_STREAM_POLL_SECONDS" in said and "'0,5'" in said and "a number" in said


@pytest.mark.parametrize("text, value", [
    ("1", True), ("TRUE", True), (" yes ", True), ("on", True),
    ("0", False), ("False", False), ("no", False), ("off", False), ("", True),
])
def test_it_reads_a_flag_written_any_usual_way(monkeypatch, text, value):
    monkeypatch.setenv("CONQUEST_SOME_FLAG", text)

    assert environment.env_flag("CONQUEST_SOME_FLAG", True) is value


@pytest.mark.parametrize("text", ["flase", "2", "y es", "enabled"])
def test_it_names_the_flag_it_cannot_read(monkeypatch, text):
    monkeypatch.setenv("CONQUEST_SOME_FLAG", text)

    with pytest.raises(ImproperlyConfigured, match=r"CONQUEST_SOME_FLAG is '.*': write one"):
        environment.env_flag("CONQUEST_SOME_FLAG", False)


def test_it_reads_numbers_and_their_defaults(monkeypatch):
    monkeypatch.setenv("CONQUEST_SOME_NUMBER", " 12 ")
    monkeypatch.delenv("CONQUEST_NO_NUMBER", raising=False)

    assert environment.env_int("CONQUEST_SOME_NUMBER", 3) == 12
    assert environment.env_int("CONQUEST_NO_NUMBER", 3) == 3
    assert environment.env_float("CONQUEST_SOME_NUMBER", 0.5) == 12.0
    assert environment.env_float("CONQUEST_NO_NUMBER", 0.5) == 0.5
    monkeypatch.setenv("CONQUEST_NO_NUMBER", "")  # set empty: as if unset
    assert environment.env_int("CONQUEST_NO_NUMBER", 3) == 3


@pytest.mark.parametrize("text", ["1.5", "ten", "1e3", "-2", "nan"])
def test_it_names_the_whole_number_it_cannot_read(monkeypatch, text):
    monkeypatch.setenv("CONQUEST_SOME_NUMBER", text)

    with pytest.raises(ImproperlyConfigured, match="CONQUEST_SOME_NUMBER is .* a whole number"):
        environment.env_int("CONQUEST_SOME_NUMBER", 3)


@pytest.mark.parametrize("text", ["fast", "nan", "inf", "-1", "0,5"])
def test_it_names_the_number_of_seconds_it_cannot_read(monkeypatch, text):
    monkeypatch.setenv("CONQUEST_SOME_SECONDS", text)

    with pytest.raises(ImproperlyConfigured, match="CONQUEST_SOME_SECONDS is .* a number"):
        environment.env_float("CONQUEST_SOME_SECONDS", 0.5)


def test_it_reads_the_keys_rotated_out():
    assert setting("settings.SECRET_KEY_FALLBACKS", SECRET_KEY_FALLBACKS="old-1, old-2") \
        == "['old-1', 'old-2']"
