"""Gunicorn's settings for every way the web tier is started (make run, deploy/): gunicorn
-c python:config.gunicorn_conf config.wsgi:application --bind ADDRESS."""

from __future__ import annotations

import os

# Processes and threads per instance; WEB_CONCURRENCY is the name platforms set.
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
# Connections one process holds at once: under the ASGI worker (-k asgi: make run, the
# streams) every open stream is one, idle for hours.
worker_connections = int(os.environ.get("GUNICORN_WORKER_CONNECTIONS", "4000"))
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


def on_starting(server):
    """With the app loaded before the port is opened (--preload, as make run starts it),
    its first request is answered here too, before the port opens and the workers fork
    (config.wsgi's warm_up): a cold first request took seconds on a busy machine, and
    connections waited unanswered meanwhile (those given up were logged as 500s)."""
    if server.cfg.preload_app:
        from config.wsgi import warm_up

        warm_up()


def post_worker_init(worker):
    """A worker whose app was not loaded before the fork answers its first request itself
    before it takes connections (config.wsgi's warm_up). Under the ASGI worker (-k asgi,
    config.asgi: the streams), a stop first tells every open stream to say goodbye (`event:
    close`, `retry: 1000`) and end, so the graceful wait ends at once instead of after its
    timeout and clients reconnect elsewhere."""
    if not worker.cfg.preload_app:
        from config.wsgi import warm_up

        warm_up()
    loop = getattr(worker, "loop", None)
    if loop is None or not hasattr(worker, "handle_exit_signal"):
        return  # a WSGI worker: no streams here
    import signal

    from live import hub

    def stopping(then):
        def handler():
            hub.close_all()
            then()
        return handler

    loop.add_signal_handler(signal.SIGTERM, stopping(worker.handle_exit_signal))
    loop.add_signal_handler(signal.SIGINT, stopping(worker.handle_quit_signal))
    loop.add_signal_handler(signal.SIGQUIT, stopping(worker.handle_quit_signal))
