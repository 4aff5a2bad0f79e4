"""The WSGI entry point the web tier serves (gunicorn config.wsgi:application)."""

import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()

# What is loaded now (Django, the apps, the URL map and every view it imports) lives as
# long as the process: moved out of the cyclic garbage collector's sight (gc.freeze), so a
# collection during a request scans only what requests made, not all of it again.
get_resolver().url_patterns  # noqa: B018 (imports every view now, not on a first request)
gc.freeze()


def warm_up() -> None:
    """Answer one GET / inside this process before it takes connections (gunicorn's
    on_starting or post_worker_init, config.gunicorn_conf): a first request compiles the
    templates, reads
    the translations and the static files' manifest and opens the database, near a second
    on a busy machine, and a client that gives up meanwhile is logged as a 500. Its
    response is thrown away (/metrics counts it as any); the database connection it opened
    is closed, for the threads that serve requests (and the processes forked from this one)
    open their own."""
    import io
    import logging
    import sys

    from django.conf import settings
    from django.db import connections

    host = next((h.lstrip(".") for h in settings.ALLOWED_HOSTS if h != "*"), "localhost")
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": "/", "QUERY_STRING": "",
               "SERVER_NAME": host, "SERVER_PORT": "443", "HTTP_HOST": host,
               "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1",
               "wsgi.url_scheme": "https", "wsgi.input": io.BytesIO(), "wsgi.errors": sys.stderr,
               "wsgi.version": (1, 0), "wsgi.multithread": True, "wsgi.multiprocess": True,
               "wsgi.run_once": False}
    try:
        response = application(environ, lambda status, headers, exc_info=None: None)
        for _ in response:
            pass
        response.close()
    except Exception:  # noqa: BLE001 - a cold first request is only slower, never refused
        logging.getLogger(__name__).info("warming up: GET / failed", exc_info=True)
    finally:
        connections.close_all()
