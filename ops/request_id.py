"""The request id: read from X-Request-ID or made, returned, written into every log line,
and carried in the headers of the Celery tasks the request queues."""

from __future__ import annotations

import contextvars
import logging
import re
import uuid

HEADER = "X-Request-ID"
# The task header that carries it (a name of our own among Celery's).
TASK_HEADER = "conquest_request_id"
# What a proxy or client may send: a UUID, or any short token of these characters.
WELL_FORMED = re.compile(r"[A-Za-z0-9._:+=/-]{8,128}")

current: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "conquest_request_id", default=None)


def chosen(sent: str | None) -> str:
    """The id a request goes by: the one it sent if well formed (a proxy's, so that the
    lines of both can be joined), else a new one."""
    if sent and WELL_FORMED.fullmatch(sent):
        return sent
    return uuid.uuid4().hex


class RequestIdMiddleware:
    """First of all middleware: every line logged while the request is served, and every
    task it queues, carries its id; the response says it too."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.request_id = chosen(request.headers.get(HEADER))
        token = current.set(request.request_id)
        try:
            response = self.get_response(request)
        finally:
            current.reset(token)
        response[HEADER] = request.request_id
        return response


class RequestIdFilter(logging.Filter):
    """Gives every record `request_id`: the request's or its task's, "-" outside both."""

    def filter(self, record):
        if not hasattr(record, "request_id"):
            record.request_id = current.get() or "-"
        return True


# Celery's signals (connected by ops.apps): ---------------------------------------------
def add_to_task(headers=None, **kwargs):
    """before_task_publish: the task queued while a request (or a task) is served carries
    its id; one that a sweep queues carries none."""
    request_id = current.get()
    if request_id and headers is not None:
        headers.setdefault(TASK_HEADER, request_id)


_tokens: dict[str, contextvars.Token] = {}


def enter_task(task_id=None, task=None, **kwargs):
    """task_prerun: the task's lines carry the id of the request that queued it."""
    request_id = getattr(task.request, TASK_HEADER, None) if task is not None else None
    if request_id and WELL_FORMED.fullmatch(str(request_id)) and task_id:
        _tokens[task_id] = current.set(str(request_id))


def leave_task(task_id=None, **kwargs):
    """task_postrun: whatever the worker's thread runs next is not that request's."""
    token = _tokens.pop(task_id, None)
    if token is not None:
        try:
            current.reset(token)
        except ValueError:  # set in another context (a pool that switched threads)
            current.set(None)
