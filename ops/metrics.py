"""What every process counts for /metrics: responses by status, commands accepted and
refused at the edge, and the time Celery's tasks take (computer players' decisions among
them). Each process writes its own files (prometheus-client's multiprocess mode, in
settings.CONQUEST_METRICS_DIR); ops.scrape adds them up."""

from __future__ import annotations

import json
import os
import time

from prometheus_client import Counter, Histogram, multiprocess

RESPONSES = Counter("conquest_http_responses", "Responses by HTTP status.", ["status"])
# The two places a player's command comes in: the API and the game page's forms.
COMMAND_ROUTES = {"api-commands": "api", "game-play": "web"}
COMMANDS = Counter(
    "conquest_commands",
    "Commands by route (api, web) and outcome (accepted, refused); a refusal by its error "
    "code (version_conflict is a race lost: a 409).",
    ["route", "outcome", "code"])
COMMAND_SECONDS = Histogram(
    "conquest_command_seconds", "Time to answer a command, at the edge (refusals too).",
    ["route"], buckets=(.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10))
# The tasks whose time is worth a histogram of its own: a computer player deciding (and
# moving) in a game, and the deadline sweep.
TIMED_TASKS = {"games.tasks.play_bots": "bots", "games.tasks.sweep_deadlines":
               "deadline_sweep", "notifications.tasks.deliver_many": "mail"}
TASK_SECONDS = Histogram(
    "conquest_task_seconds",
    "Time a worker spent on a task: bots (computer players' decisions and moves in one "
    "game), deadline_sweep, mail (a batch of mails), other.",
    ["task"], buckets=(.01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60))
TASKS = Counter("conquest_tasks", "Tasks a worker finished, by kind and state.",
                ["task", "state"])


class RequestMetricsMiddleware:
    """Counts every response by status, and times and sorts the commands (the route name
    says a request is one; the API's JSON body says why it was refused)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        started = time.perf_counter()
        response = self.get_response(request)
        RESPONSES.labels(str(response.status_code)).inc()
        match = getattr(request, "resolver_match", None)
        route = COMMAND_ROUTES.get(getattr(match, "url_name", None) or "")
        if route is not None and request.method == "POST":
            COMMAND_SECONDS.labels(route).observe(time.perf_counter() - started)
            signed_in = getattr(getattr(request, "user", None), "is_authenticated", False)
            if not signed_in:  # (the page sends a visitor to sign in: a redirect, no move)
                COMMANDS.labels(route, "refused", "not_authenticated").inc()
            elif response.status_code < 400:
                COMMANDS.labels(route, "accepted", "").inc()
            else:
                COMMANDS.labels(route, "refused", refusal_code(response)).inc()
        return response


def refusal_code(response) -> str:
    """The API's {"error": code}; a page's refusal says only its status."""
    data = getattr(response, "data", None)
    if data is None and response.get("Content-Type", "").startswith("application/json"):
        try:
            data = json.loads(response.content)
        except ValueError:
            data = None
    if isinstance(data, dict) and isinstance(data.get("error"), str):
        return data["error"][:40]
    return {409: "version_conflict", 403: "forbidden", 429: "throttled",
            503: "unavailable"}.get(response.status_code, f"http_{response.status_code}")


# Celery's signals (connected by ops.apps) ------------------------------------------------
_started: dict[str, float] = {}


def task_started(task_id=None, **kwargs):
    if task_id:
        _started[task_id] = time.perf_counter()


def task_finished(task_id=None, task=None, state=None, **kwargs):
    started = _started.pop(task_id, None)
    kind = TIMED_TASKS.get(getattr(task, "name", ""), "other")
    if started is not None:
        TASK_SECONDS.labels(kind).observe(time.perf_counter() - started)
    TASKS.labels(kind, str(state or "unknown").lower()).inc()


def process_exited(pid=None, **kwargs):
    """A pool process that stops leaves its counts (they add up for good) but no live
    gauges (prometheus-client's mark_process_dead)."""
    multiprocess.mark_process_dead(os.getpid() if pid is None else pid)
