"""The ASGI entry point (gunicorn -k asgi config.asgi:application): the streams (live.views) on
Django's ASGI handler, everything else on the very WSGI application gunicorn serves, in a
pool of threads (a2wsgi), so that a command takes the same synchronous path as under
gunicorn and only the streams are asynchronous."""

import os
import re

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from a2wsgi import WSGIMiddleware  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.handlers.asgi import ASGIHandler  # noqa: E402

from config.wsgi import application as wsgi_application  # noqa: E402 (sets Django up)
from live import hub  # noqa: E402

STREAMS = re.compile(r"^/api/v1/(?:games/\d+/)?stream/$")


class StreamHandler(ASGIHandler):
    """Django's ASGI handler without a thread of its own for each request
    (ThreadSensitiveContext): a stream is open for hours, and a thread (with its database
    connection) per open stream is what this server is here to avoid. The middleware's
    synchronous parts share one thread; the streams read on live.hub's few."""

    async def __call__(self, scope, receive, send):
        await self.handle(scope, receive, send)


streams = StreamHandler()
pages = WSGIMiddleware(wsgi_application, workers=settings.CONQUEST_ASGI_THREADS)


async def application(scope, receive, send):
    if scope["type"] == "lifespan":
        return await _lifespan(receive, send)
    if scope["type"] == "http" and STREAMS.match(scope["path"]):
        return await streams(scope, receive, send)
    return await pages(scope, receive, send)


async def _lifespan(receive, send):
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            hub.close_all()
            await send({"type": "lifespan.shutdown.complete"})
            return
