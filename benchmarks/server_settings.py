"""Settings of the service benchmark (its gunicorn and its own process): the product's
settings with debug off, plus the framework-floor view, and a private broker folder."""

import os

from config.settings import *  # noqa: F403
from config.settings import CELERY_BROKER_URL

ROOT_URLCONF = "benchmarks.server_urls"
DEBUG = False

# Mail the bench's moves queue must not land in var/broker/, where a running site's worker
# would pick it up: the bench gives its own folder (the outbox rows are written as usual).
_broker_dir = os.environ.get("CONQUEST_BENCH_BROKER_DIR")
if _broker_dir and CELERY_BROKER_URL.startswith("filesystem://"):
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": os.path.join(_broker_dir, "queue"),
        "data_folder_out": os.path.join(_broker_dir, "queue"),
        "control_folder": os.path.join(_broker_dir, "control"),
    }
