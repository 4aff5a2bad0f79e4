"""Where this process's open streams wait for news: one waiting room per game and per user,
woken by one shared Redis subscription (CONQUEST_STREAM_REDIS_URL) or, in the embedded
default, by one query every CONQUEST_STREAM_POLL_SECONDS for all the process's streams
together (where their games, users and chats stand); a stream reads its own events only
when its game moved.

A stream holds no copy of anything here: it takes the current signal of its key before it
reads the database, then waits on it (a wake-up between its read and its wait is not lost:
the signal is already set). Each key's signal is shared by all the streams on that key and
dropped when the last one goes; what a stream keeps is its cursor.

The hub also asks, every CONQUEST_STREAM_CHECK_SECONDS and for all its streams at once
(live.credentials), whether the credentials that opened them still hold; the streams of one
that no longer does are woken to end, and no stream delivers on a credential last found
holding more than two such pauses ago."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import InterfaceError, OperationalError, connection
from django.db.models import Max

from games.models import Game
from live import credentials, quota
from live.credentials import Credential
from moderation.models import ChatMessage
from notifications.models import Notification

log = logging.getLogger(__name__)

GAME, USER, CHAT = "g", "u", "c"


class Held:
    """A credential as its open streams share it: when a check last found it holding, and
    the signal set once it no longer does."""

    __slots__ = ("streams", "checked_at", "ended")

    def __init__(self):
        self.streams = 0
        self.checked_at = time.monotonic()  # it was just authenticated
        self.ended = asyncio.Event()


class Hub:
    """The streams of one event loop: their signals, their counts per user, the listener
    (Redis or the poll) and the few threads they read the database on."""

    def __init__(self):
        self._signals: dict[tuple[str, int], asyncio.Event] = {}
        self._watchers: Counter = Counter()
        self._known: dict[tuple[str, int], int] = {}  # per key, not per stream (the poll's)
        # Open streams by what they count against: each one's lease (live.quota).
        self.open_by: Counter = Counter()
        self._renewing: asyncio.Task | None = None
        self.closing = asyncio.Event()
        self._listener: asyncio.Task | None = None
        self._inflight: dict[tuple, asyncio.Future] = {}
        self._held: dict[Credential, Held] = {}
        self._checker: asyncio.Task | None = None
        self._reads = ThreadPoolExecutor(settings.CONQUEST_STREAM_DB_THREADS,
                                         thread_name_prefix="conquest-stream-db")

    # ---- what a stream does ------------------------------------------------------------
    def watch(self, key) -> None:
        self._watchers[key] += 1
        self._start_listening()

    def unwatch(self, key) -> None:
        self._watchers[key] -= 1
        if self._watchers[key] <= 0:
            del self._watchers[key]
            self._signals.pop(key, None)
            self._known.pop(key, None)

    def open_stream(self, counted, *keys) -> None:
        """A stream opens: counted for its user's cap (its lease, renewed while it is
        open), watching `keys`."""
        self.open_by[counted] += 1
        for key in keys:
            self.watch(key)
        if self._renewing is None or self._renewing.done():
            self._renewing = asyncio.get_running_loop().create_task(self._renew())

    def close_stream(self, counted, *keys) -> None:
        for key in keys:
            self.unwatch(key)
        self.open_by[counted] -= 1
        if self.open_by[counted] <= 0:
            del self.open_by[counted]
            if isinstance(counted, quota.Lease):  # (else it lapses by itself)
                with contextlib.suppress(RuntimeError):  # no loop: a generator collected late
                    asyncio.get_running_loop().create_task(self._give_back(counted))

    def hold(self, credential: Credential | None) -> Held | None:
        """A stream opened with `credential` (None: signed out, nothing to check)."""
        if credential is None:
            return None
        found = self._held.get(credential)
        if found is None or found.ended.is_set():  # (ended: the new stream proved it again)
            found = self._held[credential] = Held()
        found.streams += 1
        if self._checker is None or self._checker.done():
            self._checker = asyncio.get_running_loop().create_task(self._check())
        return found

    def release(self, credential: Credential | None, held: Held | None) -> None:
        if held is None:
            return
        held.streams -= 1
        if held.streams <= 0 and self._held.get(credential) is held:
            del self._held[credential]

    async def vouch(self, credential: Credential | None, held: Held | None) -> bool:
        """Whether a stream may deliver now: its credential found holding within two
        CONQUEST_STREAM_CHECK_SECONDS (the check of all of them keeps that true), else
        asked again now (the check is late: the database is slow)."""
        if held is None:
            return True
        if held.ended.is_set():
            return False
        started = time.monotonic()
        if started - held.checked_at <= 2 * settings.CONQUEST_STREAM_CHECK_SECONDS:
            return True
        if credential in await self.shared(("held", credential), credentials.holding,
                                           [credential]):
            held.checked_at = max(held.checked_at, started)
            return True
        held.ended.set()
        return False

    def signal(self, key) -> asyncio.Event:
        """The signal the next news on `key` sets: take it before reading, wait after."""
        found = self._signals.get(key)
        if found is None:
            found = self._signals[key] = asyncio.Event()
        return found

    async def read(self, work, *args):
        """`work(*args)` (database reads) on the streams' few threads: as many database
        connections as threads, however many streams are open."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._reads, _with_connection, work, *args)

    async def shared(self, key: tuple, work, *args):
        """`work(*args)` once for every stream that asks for the same `key` while it runs:
        the streams a move wakes together read the game's row, and its events for each
        seat's sight, once between them. Nothing is kept once it is answered."""
        found = self._inflight.get(key)
        if found is None:
            found = self._inflight[key] = asyncio.ensure_future(self.read(work, *args))
            found.add_done_callback(lambda _: self._inflight.pop(key, None))
        # One stream going away cancels its own wait, not the read the others wait for.
        return await asyncio.shield(found)

    async def _renew(self) -> None:
        while not self.closing.is_set() and self.open_by:
            await asyncio.sleep(quota.LEASE_SECONDS / 3)
            leases = [held for held in self.open_by if isinstance(held, quota.Lease)]
            try:
                if leases:
                    await self.read(quota.renew, leases)
            except Exception as problem:  # noqa: BLE001 - next time; a lapse only frees room
                log.warning("stream leases not renewed: %s", problem)

    async def _give_back(self, lease) -> None:
        try:
            await self.read(quota.give_back, lease)
        except Exception as problem:  # noqa: BLE001 - it lapses by itself
            log.warning("stream lease not given back: %s", problem)

    def let_go(self) -> None:
        """Its reading threads close their database connections and end (an event loop
        that ends before its process: a test's). Blocks: call it off the loop."""
        threads = settings.CONQUEST_STREAM_DB_THREADS
        together = threading.Barrier(threads)  # one close on each thread, none twice

        def close() -> None:
            together.wait(timeout=30)
            connection.close()
        for closing in [self._reads.submit(close) for _ in range(threads)]:
            closing.result()
        self._reads.shutdown()

    # ---- news ----------------------------------------------------------------------
    def notify(self, key) -> None:
        found = self._signals.pop(key, None)
        if found is not None:
            found.set()

    def notify_all(self) -> None:
        for key in list(self._signals):
            self.notify(key)

    def heard(self, message: str) -> None:
        """A message of the channel: "g:GAME:SEQ", "u:USER" or "c:GAME"."""
        kind, _, rest = message.partition(":")
        number = rest.split(":", 1)[0]
        if kind in (GAME, USER, CHAT) and number.isdigit():
            self.notify((kind, int(number)))

    def close(self) -> None:
        """The server is stopping: every stream says goodbye and ends."""
        self.closing.set()
        self.notify_all()

    async def _check(self) -> None:
        """Every CONQUEST_STREAM_CHECK_SECONDS, whether the open streams' credentials
        hold, in one batch for them all; the streams of those that no longer do wake."""
        while not self.closing.is_set() and self._held:
            await asyncio.sleep(settings.CONQUEST_STREAM_CHECK_SECONDS)
            held = list(self._held.items())
            started = time.monotonic()
            try:
                holding = await self.read(credentials.holding, [c for c, _ in held])
            except Exception as problem:  # noqa: BLE001 - the streams ask for themselves
                log.warning("stream credentials check failed: %s", problem)
                continue
            for credential, found in held:
                if credential in holding:
                    found.checked_at = max(found.checked_at, started)
                else:
                    found.ended.set()

    # ---- listening -----------------------------------------------------------------
    def _start_listening(self) -> None:
        if self._listener is None or self._listener.done():
            self._listener = asyncio.get_running_loop().create_task(self._listen())

    async def _listen(self) -> None:
        url = settings.CONQUEST_STREAM_REDIS_URL
        if url:
            # The poll stays on, seldom, for what a lost message (Redis restarting) missed.
            poll = asyncio.get_running_loop().create_task(
                self._poll(settings.CONQUEST_STREAM_SAFETY_POLL_SECONDS))
            try:
                await self._subscribe(url)
            finally:
                poll.cancel()
        else:
            await self._poll(settings.CONQUEST_STREAM_POLL_SECONDS)

    async def _subscribe(self, url: str) -> None:
        import redis.asyncio as redis

        channel = settings.CONQUEST_STREAM_CHANNEL
        pause = 0.5
        while not self.closing.is_set():
            client = redis.Redis.from_url(url)
            try:
                async with client.pubsub(ignore_subscribe_messages=True) as pubsub:
                    await pubsub.subscribe(channel)
                    self.notify_all()  # whatever happened while not subscribed
                    pause = 0.5
                    async for message in pubsub.listen():
                        if message.get("type") == "message":
                            self.heard(message["data"].decode("ascii", "replace"))
            except asyncio.CancelledError:
                raise
            except Exception as problem:  # noqa: BLE001 - Redis away: the poll goes on
                log.warning("stream subscription to Redis lost (%s); again in %.1f s",
                            problem, pause)
            finally:
                await client.aclose()
            await asyncio.sleep(pause)
            pause = min(pause * 2, 10.0)

    async def _poll(self, every: float) -> None:
        while not self.closing.is_set():
            await asyncio.sleep(every)
            watched = [key for key in self._watchers if key[0] in (GAME, USER, CHAT)]
            if not watched:
                continue
            try:
                latest = await self.read(where_they_stand, watched)
            except Exception as problem:  # noqa: BLE001 - the database away: try again
                log.warning("stream poll failed: %s", problem)
                continue
            for key, value in latest.items():
                if self._known.get(key) != value:
                    self.notify(key)
                if key in self._watchers:
                    self._known[key] = value


def _with_connection(work, *args):
    # Each of the few threads keeps its connection between reads (whatever CONN_MAX_AGE
    # says: they are few and always busy); one the server closed meanwhile is made again.
    try:
        return work(*args)
    except (OperationalError, InterfaceError):
        connection.close()
        return work(*args)


def where_they_stand(keys) -> dict:
    """Where each watched key stands now, for the embedded poll: a game's version, a
    user's newest notification, a game's newest chat line."""
    games = [n for kind, n in keys if kind in (GAME, CHAT)]
    users = [n for kind, n in keys if kind == USER]
    found = {}
    if games:
        found.update({(GAME, pk): v for pk, v in
                      Game.objects.filter(pk__in=games).values_list("pk", "version")})
        found.update({(CHAT, g): m for g, m in
                      ChatMessage.objects.filter(game_id__in=games).values("game_id")
                      .annotate(m=Max("pk")).values_list("game_id", "m")})
    if users:
        found.update({(USER, u): m for u, m in
                      Notification.objects.filter(user_id__in=users).values("user_id")
                      .annotate(m=Max("pk")).values_list("user_id", "m")})
    return found


_hubs: dict[int, Hub] = {}


def hub() -> Hub:
    """This event loop's hub (one per process in practice; a test's loop gets its own)."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(id(loop))
    if found is None or found._loop is not loop:
        found = _hubs[id(loop)] = Hub()
        found._loop = loop
    return found


def close_all() -> None:
    """The server is stopping (any thread, a signal handler too): every stream of every
    hub of this process says goodbye and ends, so the server's graceful wait is short."""
    for found in list(_hubs.values()):
        found._loop.call_soon_threadsafe(found.close)
