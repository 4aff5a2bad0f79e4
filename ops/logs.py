"""The logging configuration: plain or JSON lines on the console, each naming its request."""

from __future__ import annotations

import copy

FORMATS = ("plain", "json")
# Fields of every line, in this order (JSON keys, or the plain line's parts).
PLAIN = "{asctime} {levelname} {name} [{request_id}]: {message}"
JSON_FIELDS = "%(asctime)s %(levelname)s %(name)s %(request_id)s %(message)s"


def logging_settings(log_format: str) -> dict:
    """Django's LOGGING for CONQUEST_LOG_FORMAT (read by settings before Django is set up:
    nothing here may import Django)."""
    if log_format not in FORMATS:
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(
            f"CONQUEST_LOG_FORMAT is {log_format!r}: it is one of {', '.join(FORMATS)}.")
    formatter = ({"()": "pythonjsonlogger.json.JsonFormatter", "fmt": JSON_FIELDS,
                  "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"}}
                 if log_format == "json" else {"format": PLAIN, "style": "{"})
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"line": formatter},
        "filters": {
            # A database outage is logged by ops.outage, a line a minute, not a traceback a
            # request.
            "not_an_outage": {"()": "ops.outage.NotAnOutage"},
            "request_id": {"()": "ops.request_id.RequestIdFilter"},
        },
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "line",
                                 "filters": ["request_id"]}},
        "loggers": {
            "django.request": {"handlers": ["console"], "level": "ERROR", "propagate": False,
                               "filters": ["not_an_outage"]},
            "ops": {"handlers": ["console"], "level": "INFO", "propagate": False},
            "django.security": {"handlers": ["console"], "level": "ERROR", "propagate": False},
        },
    }


def for_worker(logging: dict, level: int | str) -> dict:
    """The same for a Celery worker or beat, whose own lines (a task received, succeeded,
    failed) reach the root logger: it writes them at the level the command line asked."""
    worker = copy.deepcopy(logging)
    worker["root"] = {"handlers": ["console"], "level": level}
    return worker
