"""Settings of the deadline-lateness benchmark: the embedded default (SQLite, the
filesystem broker, mail as files), with every folder under CONQUEST_BENCH_VAR instead of
var/, so a running site's worker never takes the bench's tasks nor the bench its; or, with
CONQUEST_BENCH_BROKER_URL, the same on a Redis broker (a database of its own)."""

import os
from pathlib import Path

from config.settings import *  # noqa: F403

_var = Path(os.environ["CONQUEST_BENCH_VAR"])
for _folder in ("broker/queue", "broker/control", "mail"):
    (_var / _folder).mkdir(parents=True, exist_ok=True)
CELERY_BROKER_URL = os.environ.get("CONQUEST_BENCH_BROKER_URL") or "filesystem://"
if CELERY_BROKER_URL == "filesystem://":
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_var / "broker" / "queue"),
        "data_folder_out": str(_var / "broker" / "queue"),
        "control_folder": str(_var / "broker" / "control"),
    }
else:  # as the product's settings connect to a broker server
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "socket_connect_timeout": 2, "socket_timeout": 5, "max_retries": 1,
    }
EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
EMAIL_FILE_PATH = _var / "mail"
CELERY_BEAT_SCHEDULE_FILENAME = str(_var / "celerybeat-schedule")
