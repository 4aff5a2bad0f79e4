"""While the database cannot be reached, requests are answered 503 with Retry-After (the API
in its JSON error shape, pages in the site's layout), and the log says so once a minute
instead of a traceback per request."""

from __future__ import annotations

import logging
import sys
import threading
import time

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string

log = logging.getLogger(__name__)

# What a request meets when the database is down, restarting or unreachable (psycopg's and
# sqlite3's errors, as Django wraps them), or locked for longer than SQLite waits.
OUTAGE_ERRORS = (OperationalError, InterfaceError)
# A restart of PostgreSQL, a failover or a lock takes seconds; clients come back then.
RETRY_AFTER_SECONDS = 15


def is_outage(error: BaseException | None) -> bool:
    return isinstance(error, OUTAGE_ERRORS)


class OutageLog:
    """The first failure of a while is logged at once, in one line; later ones only counted,
    and said in one line a minute while they go on."""

    def __init__(self, every: float = 60.0):
        self.every = every
        self._lock = threading.Lock()
        self._logged_at: float | None = None
        self._since_logged = 0

    def note(self, error: BaseException,
             what: str = "the database cannot be reached; answering 503") -> None:
        with self._lock:
            self._since_logged += 1
            now = time.monotonic()
            if self._logged_at is not None and now - self._logged_at < self.every:
                return
            count, self._since_logged, self._logged_at = self._since_logged, 0, now
        first_line = (str(error).strip().splitlines() or [""])[0][:300]
        log.error("%s (%s: %s); %d time(s) since the last such line", what,
                  type(error).__name__, first_line, count)

    def reset(self) -> None:
        with self._lock:
            self._logged_at, self._since_logged = None, 0


OUTAGES = OutageLog()


def unavailable(request, error: BaseException) -> HttpResponse:
    """The 503 for `request`: JSON for the API, the site's page for the rest."""
    OUTAGES.note(error)
    if request.path_info.startswith("/api/"):
        response = JsonResponse({
            "error": "unavailable",
            "detail": "The service cannot reach its database just now; try again shortly.",
        }, status=503)
    else:
        # Rendered from a plain context, without the request's context processors: they
        # would read the session and the user from the database that is down. (The CSRF
        # token is a cookie's, not the database's.)
        response = HttpResponse(render_to_string("503.html", {
            "retry_after": RETRY_AFTER_SECONDS, "request": request,
            "csrf_token": get_token(request),
        }), status=503)
        if request.headers.get("HX-Request"):
            # A fragment's request: show the page whole, not inside the part it replaces.
            response["HX-Retarget"], response["HX-Reswap"] = "body", "innerHTML"
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    request.conquest_logged = True  # OUTAGES said it: no line per request (NotAnOutage)
    return response


class DatabaseOutageMiddleware:
    """Turns what a database outage raises into `unavailable`: in a view (process_exception),
    or in a middleware further in (the session, the user's preferences), which Django has
    already made a 500 of by the time it comes back here (remember_failure marked it)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        failure = getattr(request, "_database_failure", None)
        if failure is not None and response.status_code >= 500:
            return unavailable(request, failure)
        return response

    def process_exception(self, request, exception):
        if is_outage(exception):
            return unavailable(request, exception)
        return None


def remember_failure(sender, request=None, **kwargs) -> None:
    """Receiver of got_request_exception, sent inside Django's except block."""
    error = sys.exc_info()[1]
    if request is not None and is_outage(error):
        request._database_failure = error


class NotAnOutage(logging.Filter):
    """Keeps out of the django.request log the traceback of each request a database outage
    failed (OUTAGES logs the outage in one line a minute), and the line of each answer whose
    cause was logged already, in words, by whoever answered: they mark the request
    `conquest_logged` (the record carries the request, as Django logs every 4xx and 5xx)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(getattr(record, "request", None), "conquest_logged", False):
            return False
        return not (record.exc_info and is_outage(record.exc_info[1]))
