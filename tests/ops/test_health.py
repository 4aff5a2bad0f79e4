"""/healthz says the process answers; /readyz says whether it can serve: database reachable
and migrated, broker reachable, a deadline sweep completed lately."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone

from ops import health, heartbeats
from tests.notifications.real_parts import publishing_to
from tests.ops.outages import database_down


@pytest.fixture
def production(settings):
    """DEBUG off, https only, and a host name of its own."""
    settings.DEBUG = False
    settings.SECURE_SSL_REDIRECT = True
    settings.ALLOWED_HOSTS = ["conquest.example"]


@pytest.fixture
def swept(db):
    heartbeats.beat(heartbeats.DEADLINE_SWEEP)


@pytest.fixture
def started_long_ago(monkeypatch):
    monkeypatch.setattr(health, "STARTED", timezone.now() - timedelta(hours=1))


def test_it_answers_healthz_over_plain_http_on_an_address(client, production):
    response = client.get("/healthz", HTTP_HOST="10.0.0.7:8000")

    assert response.status_code == 200
    assert response.content == b"ok"


def test_it_is_ready_with_everything_up(client, production, swept, started_long_ago):
    response = client.get("/readyz", HTTP_HOST="10.0.0.7:8000")

    assert response.status_code == 200, response.content
    assert response.json() == {"ready": True, "checks": {
        "database": "ok", "migrations": "ok", "broker": "ok", "deadline_sweep": "ok"}}
    assert response["Cache-Control"] == "no-store"


@pytest.mark.django_db(transaction=True)
def test_it_is_not_ready_with_the_database_down(client, production):
    with database_down():
        response = client.get("/readyz")

    assert response.status_code == 503
    checks = response.json()["checks"]
    assert checks["database"] == "unreachable"
    assert checks["migrations"] == checks["deadline_sweep"] == "unknown (no database)"


def test_it_is_not_ready_before_its_schema_is_migrated(client, swept, started_long_ago):
    MigrationRecorder.Migration.objects.filter(app="ops", name="0001_initial").delete()

    response = client.get("/readyz")

    assert response.status_code == 503
    assert response.json()["checks"]["migrations"] == "1 migration(s) not applied"


def test_it_is_not_ready_with_the_broker_down(client, swept, started_long_ago):
    # Port 9 (discard): nothing listens there, where a free port drawn now may be taken
    # by another test process's server a moment later.
    with publishing_to("redis://127.0.0.1:9/0"):
        response = client.get("/readyz")

    assert response.status_code == 503
    assert response.json()["checks"]["broker"] == "unreachable"
    assert response.json()["checks"]["database"] == "ok"


def test_it_is_not_ready_while_no_deadline_sweep_completes(client, settings, swept,
                                                          started_long_ago):
    settings.CONQUEST_READY_SWEEP_SECONDS = 60
    heartbeats.Heartbeat.objects.update(at=timezone.now() - timedelta(seconds=600))

    response = client.get("/readyz")

    assert response.status_code == 503
    assert re.fullmatch(r"last completed 60\d s ago", response.json()["checks"]["deadline_sweep"])


def test_a_site_just_started_waits_for_its_first_sweep(client, settings, db, monkeypatch):
    settings.CONQUEST_READY_SWEEP_SECONDS = 60
    monkeypatch.setattr(health, "STARTED", timezone.now() - timedelta(seconds=10))

    assert client.get("/readyz").status_code == 200  # no sweep yet, but only just started
    monkeypatch.setattr(health, "STARTED", timezone.now() - timedelta(seconds=61))
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["checks"]["deadline_sweep"] == "never completed"
