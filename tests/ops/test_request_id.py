"""The request id: taken from X-Request-ID when well formed, else made; returned; written in
every log line (plain or JSON); carried into the tasks the request queues, whose lines in
a real worker name it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from lib import publish
from ops.request_id import HEADER
from tests.notifications.real_parts import (
    ROOT,
    Celery,
    RedisServer,
    publishing_to,
    wait_until,
)
from tests.ops.test_metrics import TOKEN, figure, scrape
from tests.people import signed_up
from tests.ports import free_port

pytestmark = pytest.mark.django_db


def test_it_returns_the_id_a_proxy_sent(client):
    answer = client.get("/healthz", HTTP_X_REQUEST_ID="edge-7f3a9c2e-0001")

    assert answer[HEADER] == "edge-7f3a9c2e-0001"


@pytest.mark.parametrize("sent", [None, "short", "has spaces in it", "x" * 200, "a\nb-c-d-e-f"])
def test_it_makes_an_id_when_none_or_a_malformed_one_is_sent(client, sent):
    extra = {} if sent is None else {"HTTP_X_REQUEST_ID": sent}

    answer = client.get("/api/v1/games/", **extra)

    assert re.fullmatch(r"[0-9a-f]{32}", answer[HEADER]), answer[HEADER]


def logged(log_format: str) -> str:
    """What a process configured with CONQUEST_LOG_FORMAT writes for one warning logged
    while a request with id "req-0123456789" is served."""
    code = ("import django, logging; django.setup(); from ops import request_id; "
            "request_id.current.set('req-0123456789'); "
            "logging.getLogger('ops.test').warning('the %s line', 'one')")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=120,
                            env={**os.environ, "CONQUEST_LOG_FORMAT": log_format,
                                 "DJANGO_SETTINGS_MODULE": "config.settings"})
    assert result.returncode == 0, result.stderr
    return result.stderr.strip().splitlines()[-1]


def test_a_log_line_names_its_request_plain_or_as_json():
    assert logged("plain").endswith(" WARNING ops.test [req-0123456789]: the one line")
    line = json.loads(logged("json"))
    assert line["request_id"] == "req-0123456789"
    assert line["message"] == "the one line"
    assert line["level"] == "WARNING" and line["logger"] == "ops.test" and line["time"]


def test_an_unknown_log_format_stops_the_process():
    with pytest.raises(AssertionError, match="CONQUEST_LOG_FORMAT is 'xml'"):
        logged("xml")


@pytest.mark.django_db(transaction=True)
def test_the_task_a_request_queues_logs_its_id_and_its_time(client, settings):
    settings.CONQUEST_METRICS_TOKEN = TOKEN
    alice = signed_up("alice")
    server = RedisServer()
    server.start()
    celery = Celery(server.url, free_port(), CONQUEST_BOT_DELAY_SECONDS=0)
    before = figure(scrape(client), "conquest_task_seconds_count", task="bots")
    try:
        celery.start_worker("--queues", "deadlines,celery", "--concurrency", "1")
        with publishing_to(server.url):
            # A game against two computer players that owe their first placements at once:
            # the setup armies are placed by everyone together. (Placed in turns, alice
            # opened the setup in a third of the games, the bots owed nothing yet, and no
            # task was queued: the lost publish once suspected here.)
            answer = alice.post("/api/v1/games/", {
                "name": "Against the machine", "players": 3, "bots": ["easy", "easy"],
                "rules": {"initial_placement": "simultaneous"}},
                format="json", HTTP_X_REQUEST_ID="req-bots-0123456789")
            assert answer.status_code == 201, answer.content
            publish.wait_for_publishing()

            def bot_lines():
                return [line for line in celery.log("worker").splitlines()
                        if "games.tasks.play_bots[" in line and " succeeded " in line]

            assert wait_until(bot_lines, 60), celery.log("worker")
            # The worker counts the task's time on task_postrun, after it logs the success
            # (a loaded machine stopped the worker between the two): wait for the count too.
            assert wait_until(lambda: figure(scrape(client), "conquest_task_seconds_count",
                                             task="bots") >= before + 1, 30)
    finally:
        celery.stop()
        server.stop()

    assert "[req-bots-0123456789]:" in bot_lines()[0], bot_lines()
    after = figure(scrape(client), "conquest_task_seconds_count", task="bots")
    assert after >= before + 1
