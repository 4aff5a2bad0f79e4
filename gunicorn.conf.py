"""Gunicorn's hooks, read from the directory gunicorn starts in (scripts/run.sh starts it in
the checkout) unless `--config` names another file, which should do the same."""


def child_exit(server, worker):
    """A web worker that exited leaves its counts to /metrics but no live gauges
    (prometheus-client's multiprocess mode; the settings name the folder)."""
    import config.settings  # noqa: F401 - the master loads no Django; it sets the folder
    from ops.metrics import process_exited

    process_exited(pid=worker.pid)
