"""Django app configuration for ops: watches for requests a database outage failed, and
hooks Celery's signals for request ids and task metrics (here, not in the apps that define
the tasks, which know nothing of ops)."""

from django.apps import AppConfig


class OpsConfig(AppConfig):
    name = "ops"
    verbose_name = "Operations"

    def ready(self):
        from celery import signals
        from django.core.signals import got_request_exception

        from ops import checks, metrics, request_id  # noqa: F401 - checks register themselves
        from ops.outage import remember_failure

        got_request_exception.connect(remember_failure, dispatch_uid="conquest-db-outage")
        signals.before_task_publish.connect(request_id.add_to_task,
                                            dispatch_uid="conquest-request-id-out")
        signals.task_prerun.connect(request_id.enter_task, dispatch_uid="conquest-request-id-in")
        signals.task_postrun.connect(request_id.leave_task,
                                     dispatch_uid="conquest-request-id-done")
        signals.task_prerun.connect(metrics.task_started, dispatch_uid="conquest-task-start")
        signals.task_postrun.connect(metrics.task_finished, dispatch_uid="conquest-task-end")
        signals.worker_process_shutdown.connect(metrics.process_exited,
                                                dispatch_uid="conquest-metrics-exit")
