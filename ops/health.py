"""The probes of load balancers and supervisors: /healthz (the process answers) and /readyz
(it can serve: database reachable and migrated, broker reachable, deadlines swept lately),
and Prometheus's scrape of /metrics (ops.scrape), all answered before other middleware."""

from __future__ import annotations

import functools
import os
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder
from django.http import HttpResponse, JsonResponse
from django.utils import timezone

from ops import heartbeats, scrape
from ops.outage import OutageLog

# When this process started: a deployment brought up again after a while has no recent
# sweep yet, and is given the same few intervals as a stalled one before it is not ready.
STARTED = timezone.now()
# A failing check is logged like an outage: once, then a line a minute while it fails.
PROBLEMS: dict[str, OutageLog] = {}


def healthz(request=None) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain")


def readyz(request=None) -> JsonResponse:
    found: dict[str, str] = {}
    for name, check in CHECKS.items():
        if name in ("migrations", "deadline_sweep") and found["database"] != "ok":
            found[name] = "unknown (no database)"
            continue
        try:
            found[name] = check() or "ok"
        except Exception as problem:  # noqa: BLE001 - a probe answers, whatever failed
            PROBLEMS.setdefault(name, OutageLog()).note(
                problem, f"readiness: the {name} check fails")
            found[name] = "unreachable"
    ready = all(value == "ok" for value in found.values())
    response = JsonResponse({"ready": ready, "checks": found}, status=200 if ready else 503)
    response["Cache-Control"] = "no-store"
    return response


def database() -> str | None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return None


@functools.cache
def migrations_on_disk() -> frozenset:
    """Every migration this code ships (read once: the code does not change under a
    running process)."""
    return frozenset(MigrationLoader(None, ignore_no_migrations=True).graph.nodes)


def migrations() -> str | None:
    missing = migrations_on_disk() - set(MigrationRecorder(connection).applied_migrations())
    return f"{len(missing)} migration(s) not applied" if missing else None


def broker() -> str | None:
    """A new connection to the broker (the pooled ones may predate an outage)."""
    with current_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0,
                               interval_max=0)
        folder = conn.transport_options.get("data_folder_out")
        if conn.transport_cls == "filesystem" and not os.access(folder or "", os.W_OK):
            return "the broker's folder cannot be written"
    return None


def deadline_sweep() -> str | None:
    """A worker that takes no task (stuck, dead, or no beat sending the sweep) is seen by
    the deadline sweep's heartbeat growing old."""
    last = heartbeats.last(heartbeats.DEADLINE_SWEEP)
    limit = timedelta(seconds=settings.CONQUEST_READY_SWEEP_SECONDS)
    if timezone.now() - max(last or STARTED, STARTED) <= limit:
        return None
    if last is None:
        return "never completed"
    return f"last completed {(timezone.now() - last).total_seconds():.0f} s ago"


# In this order: the later ones need the database.
CHECKS = {"database": database, "migrations": migrations, "broker": broker,
          "deadline_sweep": deadline_sweep}


class HealthMiddleware:
    """Answers the probes before any other middleware: neither the https redirect nor the
    Host check stands in their way (a load balancer probes each instance by its address,
    often over plain HTTP), and no session or cookie is touched."""

    PROBES = {"/healthz": healthz, "/readyz": readyz, "/metrics": scrape.metrics}

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        probe = self.PROBES.get(request.path_info)
        if probe is not None:
            return probe(request)
        return self.get_response(request)
