"""Serves config.asgi with uvicorn: python -m live.serve --bind HOST:PORT [--threads N].

Uvicorn, with one change: when asked to stop (SIGTERM, Ctrl-C) it first tells every open
stream to say goodbye (`event: close`, `retry: 1000`) and end, so its graceful wait for
open connections ends at once instead of at its timeout, and clients reconnect to the
next instance within a second."""

from __future__ import annotations

import argparse
import os

import uvicorn

from live import hub


class Server(uvicorn.Server):
    def handle_exit(self, sig, frame) -> None:
        hub.close_all()
        super().handle_exit(sig, frame)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bind", default="127.0.0.1:8000", help="HOST:PORT")
    parser.add_argument("--grace", type=int,
                        default=int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "30")),
                        help="seconds the requests being answered get to finish when stopping")
    parser.add_argument("--no-access-log", action="store_true")
    args = parser.parse_args(argv)
    host, _, port = args.bind.rpartition(":")
    config = uvicorn.Config(
        "config.asgi:application", host=host or "127.0.0.1", port=int(port),
        http="httptools", loop="asyncio", lifespan="on", proxy_headers=False,
        timeout_graceful_shutdown=args.grace, access_log=not args.no_access_log,
        # Streams are held open for hours: keep-alive does not apply, the heartbeat does.
        timeout_keep_alive=5, limit_concurrency=None, server_header=False)
    Server(config).run()


if __name__ == "__main__":
    main()
