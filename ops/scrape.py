"""GET /metrics: the counts of every process of this host (ops.metrics), and the figures read
when Prometheus scrapes (the outbox's backlog, the deadline sweep's lateness, the queues'
depths), to a scraper with the token or from an address that settings allow.

Answered by ops.health.HealthMiddleware before the https redirect and the Host check, as the
probes are: a scraper asks each instance by its address, often over a private network."""

from __future__ import annotations

import base64
import binascii
import glob
import hmac
import ipaddress
import os
import time

from celery import current_app
from django.conf import settings
from django.db.models import Min
from django.http import HttpResponse
from django.utils import timezone
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector

from accounts.throttles import client_address
from games.models import Game
from notifications.models import Notification
from ops import heartbeats


def metrics(request) -> HttpResponse:
    refusal = refused(request)
    if refusal is not None:
        return refusal
    registry = CollectorRegistry()
    registry.register(ProcessesCollector(settings.CONQUEST_METRICS_DIR))
    registry.register(StateCollector())
    response = HttpResponse(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)
    response["Cache-Control"] = "no-store"
    return response


def refused(request) -> HttpResponse | None:
    """None for a scraper that may read; else 404 while nobody may (no token, no address:
    the endpoint is off), 401 without the token."""
    token, networks = settings.CONQUEST_METRICS_TOKEN, allowed_networks()
    if not token and not networks:
        return HttpResponse("metrics are off: set CONQUEST_METRICS_TOKEN",
                            status=404, content_type="text/plain")
    if token and hmac.compare_digest(sent_token(request).encode(), token.encode()):
        return None
    if networks and in_networks(scraper_address(request), networks):
        return None
    response = HttpResponse("a token is needed (Authorization: Bearer …)", status=401,
                            content_type="text/plain")
    response["WWW-Authenticate"] = 'Bearer realm="metrics"'
    return response


def sent_token(request) -> str:
    """The bearer token, or the password of basic auth (any user name)."""
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() == "bearer":
        return value.strip()
    if scheme.lower() == "basic":
        try:
            return base64.b64decode(value.strip(), validate=True).decode().partition(":")[2]
        except (binascii.Error, UnicodeDecodeError):
            return ""
    return ""


def allowed_networks() -> list:
    """The networks settings name (one that is no address is left out: the system check
    names it)."""
    networks = []
    for item in settings.CONQUEST_METRICS_ADDRESSES:
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            continue
    return networks


def scraper_address(request) -> str | None:
    """The connection's address; behind CONQUEST_NUM_PROXIES proxies, the client's."""
    if settings.CONQUEST_NUM_PROXIES:
        return client_address(request)
    return request.META.get("REMOTE_ADDR")


def in_networks(address: str | None, networks: list) -> bool:
    try:
        found = ipaddress.ip_address(address or "")
    except ValueError:
        return False
    return any(found.version == net.version and found in net for net in networks)


class ProcessesCollector:
    """The counts of every process of this host, as prometheus_client's MultiProcessCollector
    reads them, but only from files a process has sized. A process creates its file and
    then sizes it: a scrape in between read an empty file and answered 500 (struct.error),
    as a starting worker's file did in CI. A file that is gone by the time it is read (a
    run's start empties the folder) is looked for again once."""

    def __init__(self, folder) -> None:
        self.folder = str(folder)

    def collect(self):
        try:
            return MultiProcessCollector.merge(self.files(), accumulate=True)
        except FileNotFoundError:
            return MultiProcessCollector.merge(self.files(), accumulate=True)

    def files(self) -> list[str]:
        found = []
        for path in glob.glob(os.path.join(self.folder, "*.db")):
            try:
                # its first 8 bytes say how much of it is used: nothing to read before them
                if os.path.getsize(path) >= 8:
                    found.append(path)
            except OSError:
                continue
        return found


class StateCollector:
    """Figures read from the database and the broker at each scrape: they are the state of
    the whole deployment, the same whichever instance is asked."""

    def collect(self):
        up = GaugeMetricFamily("conquest_scrape_source_up",
                               "Whether this scrape could read a source.", labels=["source"])
        try:
            yield from self.database()
            up.add_metric(["database"], 1)
        except Exception:  # noqa: BLE001 - an outage must not fail the whole scrape
            up.add_metric(["database"], 0)
        try:
            yield self.queues()
            up.add_metric(["broker"], 1)
        except Exception:  # noqa: BLE001 - the broker's outage neither
            up.add_metric(["broker"], 0)
        yield up

    def database(self):
        now = timezone.now()
        unsent = Notification.objects.filter(sent_at__isnull=True, digest=False)
        outbox = unsent.aggregate(oldest=Min("created_at"))
        overdue = Game.objects.filter(status=Game.ACTIVE, deadline__lte=now)
        late = overdue.aggregate(oldest=Min("deadline"))
        swept = heartbeats.last(heartbeats.DEADLINE_SWEEP)
        yield gauge("conquest_outbox_backlog", "Mails not yet sent (digests aside).",
                    unsent.count())
        yield gauge("conquest_outbox_oldest_age_seconds",
                    "Age of the oldest mail not yet sent (0: none).", age(now, outbox["oldest"]))
        yield gauge("conquest_deadline_sweep_backlog",
                    "Running games whose deadline has passed and awaits the sweep.",
                    overdue.count())
        yield gauge("conquest_deadline_sweep_lateness_seconds",
                    "How long ago the oldest deadline not yet applied passed (0: none).",
                    age(now, late["oldest"]))
        yield gauge("conquest_deadline_sweep_last_completed_age_seconds",
                    "Since a deadline sweep last completed (-1: never).",
                    age(now, swept) if swept else -1)

    def queues(self):
        family = GaugeMetricFamily("conquest_celery_queue_depth",
                                   "Tasks waiting in each Celery queue.", labels=["queue"])
        started = time.monotonic()
        with current_app.connection_for_read() as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0,
                                   interval_max=0, timeout=2)
            for queue in settings.CELERY_TASK_QUEUES:
                if time.monotonic() - started > 3:  # a broker this slow: the rest next time
                    break
                family.add_metric([queue], depth(conn, queue))
        return family


def depth(conn, queue: str) -> int:
    """Messages waiting in `queue`; none in one nobody declared yet (a broker refuses a
    passive declaration of it, and the channel with it)."""
    with conn.channel() as channel:
        try:
            return channel.queue_declare(queue=queue, passive=True).message_count
        except conn.channel_errors:
            return 0


def gauge(name: str, documentation: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, documentation, value=value)


def age(now, moment) -> float:
    return max(0.0, (now - moment).total_seconds()) if moment else 0.0
