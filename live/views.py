"""The streams, async Django views: GET /api/v1/games/{id}/stream/ (the caller's game view,
then each new event as events/ shows it to them) and GET /api/v1/stream/ (the caller's
notices), as Server-Sent Events or, for `Accept: application/x-ndjson`, one JSON object a
line. Served by the ASGI server (config.asgi); each waits in live.hub between reads.

A stream delivers only while the credential that opened it holds (live.credentials, checked
by the hub), and lives at most CONQUEST_STREAM_MAX_SECONDS; either way it ends with `event:
close` and a reason: `credentials_ended` (the client may not come back), `max_lifetime` and
`server_stopping` (with `retry:`, and where it stood as its `id`: come back, resume)."""

from __future__ import annotations

import asyncio
import logging
import random
import time

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import JsonResponse, StreamingHttpResponse
from rest_framework import exceptions

from accounts.throttles import client_address
from games.store.row import team_of
from lib.inputs import WHOLE_NUMBER
from live import hub as h
from live import lookups, quota
from notifications import presence

SSE, NDJSON = "text/event-stream", "application/x-ndjson"

log = logging.getLogger(__name__)


def _error(status: int, code: str, detail: str, **extra) -> JsonResponse:
    return JsonResponse({"error": code, "detail": detail, **extra}, status=status)


class Refused(Exception):
    def __init__(self, status: int, code: str, detail: str, **extra):
        self.response = _error(status, code, detail, **extra)


def _not_here(request) -> JsonResponse | None:
    """A stream needs the ASGI server (config.asgi): a WSGI server (runserver, a test's
    live server, a gunicorn web instance the proxy sent it to) would hold a thread and
    buffer it forever. There it is a 503, and the page keeps polling."""
    if isinstance(request, ASGIRequest):
        return None
    log.warning("stream %s reached a WSGI web process: route /api/v1/stream/ and "
                "/api/v1/games/*/stream/ to the streams process in the proxy "
                "(deploy/nginx/conquest.conf, docs/operators/selfhost.md)", request.path)
    refused = _error(503, "unavailable", "streams are served by the ASGI server (config.asgi); "
                     "poll events/ here")
    # the warning above says it; not django.request's ERROR too (ops.outage.NotAnOutage)
    request.conquest_logged = True
    return refused


def _format(request) -> str:
    return NDJSON if NDJSON in request.headers.get("Accept", "") else SSE


def _resume_after(request, what: str = "a seq") -> int | None:
    """Last-Event-ID (the header EventSource sends on reconnecting, or ?last_event_id=
    for a new EventSource that picks up where a page left off)."""
    raw = request.headers.get("Last-Event-ID") or request.GET.get("last_event_id")
    if raw is None or raw == "":
        return None
    if not WHOLE_NUMBER.fullmatch(raw.strip()):
        raise Refused(400, "bad_request", f"Last-Event-ID must be a whole number ({what})")
    return int(raw.strip())


def _beyond(what: str, newest: int) -> JsonResponse:
    return _error(400, "bad_request", f"Last-Event-ID is beyond {what} ({newest}): resume "
                  f"from an id the stream sent, or open it without one")


async def _opened(request):
    """(the caller, the credential that signed them in, the lease their stream holds under
    the site-wide cap) once the cap allows."""
    hub = h.hub()
    try:
        user, credential = await hub.read(lookups.caller, request)
    except exceptions.AuthenticationFailed as failed:
        raise Refused(401, "authentication_failed", str(failed.detail)) from None
    counted = user.pk if user.is_authenticated else f"address:{client_address(request)}"
    cap = settings.CONQUEST_STREAMS_PER_USER
    # Counted across the site's processes; the lease stands for `counted` from here on.
    lease = await hub.read(quota.take, counted, cap)
    if lease is None:
        raise Refused(429, "too_many_streams",
                      f"at most {cap} streams may be open at once; close one first",
                      limit="streams_per_user", rate=str(cap))
    return user, credential, lease


def _response(body, kind: str) -> StreamingHttpResponse:
    response = StreamingHttpResponse(body, content_type=f"{kind}; charset=utf-8")
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


def _event(kind: str, name: str, data: bytes, seq: int | None = None) -> bytes:
    if kind == NDJSON:
        line = b'{"event":"' + name.encode() + b'"'
        if seq is not None:
            line += b',"id":' + str(seq).encode()
        return line + b',"data":' + data + b"}\n"
    head = b"" if seq is None else b"id: " + str(seq).encode() + b"\n"
    return head + b"event: " + name.encode() + b"\ndata: " + data + b"\n\n"


def _heartbeat(kind: str) -> bytes:
    return b"\n" if kind == NDJSON else b": heartbeat\n\n"


def _close(kind: str, reason: str, come_back: bool = False, seq: int | None = None) -> bytes:
    """The stream's last word. `come_back`: the client should, soon (EventSource: in 1 s),
    resuming after `seq`; else it may not (its credential ended)."""
    event = _event(kind, "close", b'{"reason":"' + reason.encode() + b'"}', seq)
    return b"retry: 1000\n" + event if come_back and kind == SSE else event


def _goodbye(kind: str, seq: int | None = None) -> bytes:
    """The server is stopping: the client should come back to another one."""
    return _close(kind, "server_stopping", True, seq)


ENDED = "credentials_ended"
# Each reason a stream ends with (`event: close`), and what the client should do.
CLOSE_REASONS = {
    ENDED: "the token or session that opened it no longer holds: do not reconnect with it "
           "(a reconnect is refused with 401, or 404 for a private game)",
    "max_lifetime": "it lived CONQUEST_STREAM_MAX_SECONDS: reconnect at once with "
                    "Last-Event-ID (the close's id)",
    "server_stopping": "the server is stopping: reconnect in a second with Last-Event-ID",
}


def _end_of_life() -> float:
    # Up to a tenth sooner, at random: the streams a restart reconnected together do not
    # all come back together again at the end of each lifetime.
    return time.monotonic() + settings.CONQUEST_STREAM_MAX_SECONDS * (1 - random.random() / 10)


def _until(ends_at: float, pause: float) -> float:
    return max(0.01, min(pause, ends_at - time.monotonic()))


def _pause() -> float:
    # The presence a seated reader's stream keeps up (their turn mail waits) needs a
    # refresh within CONQUEST_PRESENCE_SECONDS; a heartbeat comes at least as often.
    return max(0.5, min(settings.CONQUEST_STREAM_HEARTBEAT_SECONDS,
                        settings.CONQUEST_PRESENCE_SECONDS / 2))


async def _wait(signals: list[asyncio.Event], timeout: float) -> bool:
    """Until one of the signals is set (True) or `timeout` passes (False)."""
    if any(s.is_set() for s in signals):
        return True
    if len(signals) == 1:
        try:
            await asyncio.wait_for(signals[0].wait(), timeout)
            return True
        except TimeoutError:
            return False
    waits = [asyncio.ensure_future(s.wait()) for s in signals]
    done, pending = await asyncio.wait(waits, timeout=timeout,
                                       return_when=asyncio.FIRST_COMPLETED)
    for waiting in pending:
        waiting.cancel()
    return bool(done)


async def game_stream(request, game_id: int):
    if (refused := _not_here(request)) is not None:
        return refused
    kind = _format(request)
    try:
        after = _resume_after(request)
        user, credential, counted = await _opened(request)
    except Refused as refused:
        return refused.response
    hub = h.hub()
    opened = await hub.read(lookups.opening, game_id, user)
    if opened is None:
        await hub.read(quota.give_back, counted)  # no stream: its lease goes back
        return _error(404, "not_found", "no such game")
    view, version, private = opened
    if after is not None and after > version:
        # Resumed from a seq the game has not reached: the events up to it would be skipped.
        await hub.read(quota.give_back, counted)
        return _beyond("the game's version", version)
    if private and credential is not None:  # their sight of it must hold too
        credential = credential.following(game_id)
    return _response(_follow_game(hub, kind, user, credential, counted, game_id, view,
                                  version if after is None else after), kind)


async def _follow_game(hub, kind, user, credential, counted, game_id, view, cursor):
    game_key, chat_key = (h.GAME, game_id), (h.CHAT, game_id)
    hub.open_stream(counted, game_key, chat_key)
    held, ends_at = hub.hold(credential), _end_of_life()
    try:
        yield _event(kind, "view", view)
        view = None  # a whole game view per idle stream would be most of its memory
        chat_seen = await hub.read(lookups.newest_chat, game_id)
        # Taken before each read and waited on after it (see live.hub).
        signals = [hub.signal(game_key), hub.signal(chat_key)]
        chat_due, present_at = False, 0.0
        while not hub.closing.is_set():
            if time.monotonic() >= ends_at:
                yield _close(kind, "max_lifetime", True, cursor)
                return
            # Shared only by the streams holding the same signal: a read begun before news
            # its holders have not had yet is never taken for one after it.
            loaded = await hub.shared((h.GAME, game_id, signals[0]), lookups.game_row, game_id)
            if loaded is None:
                return  # the game is gone
            game = loaded.game
            if (game.private and not await hub.read(lookups.may_see, loaded, user)) \
                    or not await hub.vouch(credential, held):
                yield _close(kind, ENDED)
                return
            seat = loaded.seats.seat_of(user)  # (the seats read with the row: no query)
            events, more = await hub.shared((game_id, seat, cursor, game.version),
                                            lookups.events_for, game, seat, cursor)
            for seq, data in events:
                yield _event(kind, "game_event", data, seq)
                cursor = seq
            if more:
                continue
            if chat_due or signals[1].is_set():
                team = None if seat is None else team_of(game, seat)
                heard = await hub.read(lookups.chat_heard, game_id, team, chat_seen)
                if heard != chat_seen:
                    chat_seen = heard
                    yield _event(kind, "chat", b'{"line":' + str(heard).encode() + b"}")
            game = loaded = None
            if seat is not None and time.monotonic() - present_at >= _pause():
                await hub.read(presence.seen, user, game_id, False)  # their turn mail waits
                present_at = time.monotonic()
            ended = [] if held is None else [held.ended]
            if not await _wait(signals + ended, _until(ends_at, _pause())):
                yield _heartbeat(kind)
            chat_due = signals[1].is_set()
            signals = [hub.signal(game_key), hub.signal(chat_key)]
        yield _goodbye(kind, cursor)
    finally:
        hub.release(credential, held)
        hub.close_stream(counted, game_key, chat_key)


async def user_stream(request):
    if (refused := _not_here(request)) is not None:
        return refused
    kind = _format(request)
    try:
        after = _resume_after(request, "a notice id")
        user, credential, counted = await _opened(request)
    except Refused as refused:
        return refused.response
    if not user.is_authenticated:
        await h.hub().read(quota.give_back, counted)  # no stream: its lease goes back
        return _error(401, "not_authenticated", "sign in (a token or a session) for your stream")
    hub = h.hub()
    fresh = after is None
    newest = await hub.read(lookups.newest_notice, user.pk)
    if fresh:
        after = newest
    elif after > newest:
        # Not an id this user was sent: the notices up to it would be skipped.
        await hub.read(quota.give_back, counted)
        return _beyond("your newest notice's id", newest)
    # ?moves=1 (the site's pages: static/js/counters.js): also `event: moves` whenever the
    # games waiting for the user change, a move of theirs or a clock's included, notice or
    # not, so that every title's "(N) Your move" follows. Programs are not sent it.
    moves = await hub.read(lookups.counters, user) \
        if request.GET.get("moves") == "1" else None
    return _response(_follow_user(hub, kind, user, credential, counted, after, fresh, moves),
                     kind)


async def _follow_user(hub, kind, user, credential, counted, cursor, fresh, moves):
    key = (h.USER, user.pk)
    hub.open_stream(counted, key)
    held, ends_at = hub.hold(credential), _end_of_life()
    try:
        yield _heartbeat(kind)  # the answer starts at once, before any notice
        if fresh:  # not a reconnect: the decisions owed now, once
            for data in await hub.read(lookups.due_now, user):
                yield _event(kind, "notice", data)
        if moves is not None:  # where they stand as the stream opens (the page may be older)
            yield _event(kind, "moves", lookups.moves_data(moves))
        while not hub.closing.is_set():
            if time.monotonic() >= ends_at:
                yield _close(kind, "max_lifetime", True, cursor)
                return
            signal = hub.signal(key)
            notices = await hub.read(lookups.notices_after, user.pk, cursor)
            if not await hub.vouch(credential, held):
                yield _close(kind, ENDED)
                return
            for pk, data in notices:
                cursor = pk
                if data is not None:
                    yield _event(kind, "notice", data, pk)
            if len(notices) >= lookups.BATCH:
                continue
            if moves is not None:
                counted = await hub.read(lookups.counters, user)
                if counted != moves:
                    moves = counted
                    yield _event(kind, "moves", lookups.moves_data(moves))
            if not await _wait([signal, held.ended],
                               _until(ends_at, settings.CONQUEST_STREAM_HEARTBEAT_SECONDS)):
                yield _heartbeat(kind)
        yield _goodbye(kind, cursor)
    finally:
        hub.release(credential, held)
        hub.close_stream(counted, key)
