"""Gunicorn's settings for every way the web tier is started (make run, deploy/): gunicorn
-c python:config.gunicorn_conf config.wsgi:application --bind ADDRESS."""

from __future__ import annotations

import os

# Processes and threads per instance; WEB_CONCURRENCY is the name platforms set.
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
# The access log on stdout, with mailed links' tokens cut out of the paths.
accesslog = "-"
logger_class = "config.gunicorn_logging.RedactingLogger"
# How long a stopping instance lets its requests finish. Whatever stops it (make run, systemd's
# TimeoutStopSec, compose's stop_grace_period) must wait at least this long before killing.
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "30"))


def child_exit(server, worker):
    """A web worker that exited leaves its counts to /metrics but no live gauges
    (prometheus-client's multiprocess mode; the settings name the folder)."""
    import config.settings  # noqa: F401 - the master loads no Django; it sets the folder
    from ops.metrics import process_exited

    process_exited(pid=worker.pid)
