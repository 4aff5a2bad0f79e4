"""The Celery app `conquest`, configured from the CELERY_* Django settings."""

import logging.config
import os

from celery import Celery
from celery.signals import celeryd_init, setup_logging, task_success

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("conquest")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_success.connect
def deadline_sweep_completed(sender=None, **kwargs):
    """Each completed deadline sweep says so in the database, where every web process's
    readiness check (ops.health) sees a worker that stopped taking tasks."""
    if sender is not None and sender.name == "games.tasks.sweep_deadlines":
        from ops import heartbeats  # this module is loaded before Django's apps are

        heartbeats.beat(heartbeats.DEADLINE_SWEEP)


# The worker that takes the heavy derived work (`--hostname analysis@...`, as make run and
# deploy/ start it).
ANALYSIS_WORKER = "analysis@"


@celeryd_init.connect
def budget_the_analysis_worker(sender=None, conf=None, **kwargs):
    """The analysis worker runs within the operator's budget (config.workers): as many tasks
    at once as CONQUEST_ANALYSIS_CONCURRENCY, at nice level CONQUEST_ANALYSIS_NICE (its
    pool's processes inherit it), so that the clock's and the web's processes on its host
    come first."""
    if not str(sender or "").startswith(ANALYSIS_WORKER):
        return
    from django.conf import settings  # this module is loaded before Django's apps are

    conf.worker_concurrency = settings.CONQUEST_ANALYSIS_CONCURRENCY
    raise_by = settings.CONQUEST_ANALYSIS_NICE - os.nice(0)
    if raise_by > 0:
        os.nice(raise_by)


@setup_logging.connect
def log_as_the_site_does(loglevel=None, **kwargs):
    """Workers and beat log through the settings' LOGGING (plain or JSON lines, each with
    the id of the request that queued its task) instead of Celery's own format."""
    from django.conf import settings

    from ops.logs import for_worker

    logging.config.dictConfig(for_worker(settings.LOGGING, loglevel or logging.INFO))
