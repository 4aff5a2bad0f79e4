"""A small client of Conquest's API for programs that play (docs/bots/index.md).

Standard library only (Python 3.10+): copy this file next to your bot. It signs in with a
token, follows the user's event stream (`GET /api/v1/stream/`, Server-Sent Events) and sends
commands over plain HTTP. Where the service answers the stream with 404 (an older server, or
one without its stream server), `follow()` falls back to asking the games' views every few
seconds, so a bot runs the same either way.

    client = Conquest("http://127.0.0.1:8000", token="...")
    for notice in client.follow():            # {kind, game, ...}: "your_move", ...
        if notice.kind == "your_move":
            view = client.game(notice.game)
            client.command(notice.game, {"type": "end_turn"}, view["version"])
"""

from __future__ import annotations

import http.client
import json
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

# What a seat may always send: anything else in `you.may.commands` means a decision is owed.
ALWAYS = ("set_defense", "resign")
OVER = ("finished", "aborted")
SETUP_AT_ONCE = ("setup_place", "capital")  # phases where every seat acts at once


# Answers 503 in a row before the user stream is taken to be missing here (polling then).
UNAVAILABLE_TRIES = 3

# docs/bots/index.md "Errors and retries": the answers a call is tried again after (429 and
# 503 wait Retry-After), and the transport errors (a connection refused, reset, or a kept-alive
# one the server closed: http.client.RemoteDisconnected) after a growing pause.
RETRY_STATUSES = (429, 502, 503, 504)
FIRST_PAUSE, LONGEST_PAUSE = 1.0, 30.0

class ApiError(Exception):
    """A refusal of the API: `status` (400, 401, 403, 404, 409...), `code` (the JSON
    `error`, e.g. "not_your_turn"), `detail`, and for a 429 or 503 `retry_after` (seconds,
    the Retry-After header's; a 429's body names its `limit`)."""

    def __init__(self, status: int, code: str, detail: str, body=None,
                 retry_after: float | None = None):
        super().__init__(f"{status} {code}: {detail}")
        self.status, self.code, self.detail, self.body = status, code, detail, body
        self.retry_after = retry_after


def backoff(attempt: int) -> float:
    """The pause before try `attempt + 1`: 1 s, 2 s, 4 s ... at most 30 s."""
    return min(FIRST_PAUSE * 2 ** (attempt - 1), LONGEST_PAUSE)


class StreamUnavailable(ApiError):
    """The service has no event stream here (404): poll instead."""


@dataclass
class Notice:
    """One `event: notice` of the user stream: `kind` ("your_move", "game_started",
    "game_finished", ...), `game` (its id, if any) and the rest of its data."""

    kind: str
    game: int | None = None
    data: dict = field(default_factory=dict)


@dataclass
class ServerSentEvent:
    event: str
    data: str
    id: str | None = None

    def json(self):
        return json.loads(self.data) if self.data else None


def server_sent_events(lines: Iterable[bytes]) -> Iterator[ServerSentEvent]:
    """The events of a text/event-stream, as the HTML standard parses one: `event:`,
    `data:` (several join with newlines), `id:`; a blank line ends an event; a line
    starting with ":" is a comment (a heartbeat)."""
    event, data, last_id = "message", [], None
    for raw in lines:
        line = raw.decode("utf-8").rstrip("\r\n")
        if not line:
            if data:
                yield ServerSentEvent(event, "\n".join(data), last_id)
            event, data = "message", []
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "event":
            event = value
        elif name == "data":
            data.append(value)
        elif name == "id" and "\0" not in value:
            last_id = value


def owes_decision(view: dict) -> bool:
    """Whether the game waits for the caller's seat now (the view's `you.may` says; an
    older server without it: its current seat, or a setup phase everyone plays at once)."""
    you = view.get("you")
    if not you or view.get("status") != "active":
        return False
    may = you.get("may")
    if may is not None:
        return any(command not in ALWAYS for command in may.get("commands", []))
    if view.get("current_seat") is not None:
        return view["current_seat"] == you["seat"]
    return view.get("phase") in SETUP_AT_ONCE and (
        (view.get("pending") or {}).get("reinforcements", 0) > 0 or view["phase"] == "capital")


class Conquest:
    """The API of one service, as one account (its token)."""

    def __init__(self, url: str, token: str | None = None, timeout: float = 30,
                 stream_url: str | None = None, tries: int = 6):
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.tries = max(1, tries)  # a call in all, the first included
        # The user stream, if a separate (ASGI) server answers it: default, the same host.
        self.stream_url = stream_url or f"{self.url}/api/v1/stream/"

    # ---- plain calls ----------------------------------------------------------------
    def call(self, method: str, path: str, body=None, headers: dict | None = None):
        """One JSON call; the answer's JSON (None for an empty body), or ApiError. Tried
        again (up to `self.tries` times in all) after a 429 or 503 (waiting the seconds
        Retry-After says), a 502 or 504, or a dropped connection (waiting 1 s, 2 s, 4 s ...
        by the try's number, at most 30 s). A POST is tried again after a dropped connection only if it carries
        `expected_version`: had the first one gone through, the next is a 409
        version_conflict (read the game again); one without it is not sent twice."""
        retried_safely = method in ("GET", "HEAD") or (
            isinstance(body, dict) and "expected_version" in body)
        for attempt in range(1, self.tries + 1):
            try:
                return self._call_once(method, path, body, headers)
            except ApiError as refused:
                if refused.status not in RETRY_STATUSES or attempt == self.tries:
                    raise
                self.sleep(refused.retry_after if refused.retry_after is not None
                           else backoff(attempt))
            except (OSError, http.client.HTTPException):  # reset, RemoteDisconnected, URLError
                if not retried_safely or attempt == self.tries:
                    raise
                self.sleep(backoff(attempt))
        raise AssertionError("unreachable")

    @staticmethod
    def sleep(seconds: float) -> None:
        time.sleep(seconds)

    def _call_once(self, method: str, path: str, body=None, headers: dict | None = None):
        request = urllib.request.Request(
            path if path.startswith("http") else f"{self.url}{path}", method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Accept": "application/json", "Content-Type": "application/json",
                     **self._auth(), **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                raw = answer.read()
        except urllib.error.HTTPError as refused:
            raise _api_error(refused) from None
        return json.loads(raw) if raw else None

    def _auth(self) -> dict:
        return {"Authorization": f"Token {self.token}"} if self.token else {}

    @classmethod
    def sign_in(cls, url: str, username: str, password: str, **options) -> Conquest:
        """A client signed in with a new token for `username` (POST /api/v1/auth/token/)."""
        token = cls(url, **options).call("POST", "/api/v1/auth/token/",
                                         {"username": username, "password": password})["token"]
        return cls(url, token=token, **options)

    def become_bot(self, owner: str | None = None, owner_token: str | None = None) -> dict:
        """Turn this account into a bot account, for good (only before it has played)."""
        body = {} if owner is None else {"owner": owner, "owner_token": owner_token}
        return self.call("POST", "/api/v1/account/bot/", body)

    def game(self, game_id: int) -> dict:
        return self.call("GET", f"/api/v1/games/{int(game_id)}/")

    def games(self, status: str | None = None, mine: bool = True) -> list[dict]:
        query = {"mine": "1" if mine else "0", **({"status": status} if status else {})}
        return self.call("GET", f"/api/v1/games/?{urllib.parse.urlencode(query)}")

    def create_game(self, name: str, players: int, **options) -> dict:
        """A new game (options as POST /api/v1/games/ takes them: rules, bots,
        bots_allowed, deadline_seconds, ...); its view."""
        return self.call("POST", "/api/v1/games/", {"name": name, "players": players, **options})

    def join(self, game_id: int) -> dict:
        return self.call("POST", f"/api/v1/games/{int(game_id)}/join/")

    def board(self, map_id: str = "classic") -> dict:
        return self.call("GET", f"/api/v1/maps/{urllib.parse.quote(map_id)}/")

    def command(self, game_id: int, command: dict, expected_version: int | None = None) -> dict:
        """Send one command; {version, events, game: the new view}, or ApiError (409
        `version_conflict` if the game moved on since `expected_version`)."""
        body = dict(command)
        if expected_version is not None:
            body["expected_version"] = expected_version
        return self.call("POST", f"/api/v1/games/{int(game_id)}/commands/", body)

    def events(self, game_id: int, after: int = 0) -> dict:
        return self.call("GET", f"/api/v1/games/{int(game_id)}/events/?after={int(after)}")

    # ---- streams ----------------------------------------------------------------------
    def open_stream(self, url: str, last_event_id: str | None = None,
                    idle_timeout: float = 120):
        """An open Server-Sent Events answer (read it with server_sent_events, close it
        when done); StreamUnavailable on 404, ApiError on any other refusal."""
        headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache", **self._auth()}
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        request = urllib.request.Request(url, headers=headers)
        try:
            answer = urllib.request.urlopen(request, timeout=idle_timeout)
        except urllib.error.HTTPError as refused:
            error = _api_error(refused)
            if refused.code == 404:
                raise StreamUnavailable(404, error.code, error.detail, error.body) from None
            raise error from None
        if not answer.headers.get("Content-Type", "").startswith("text/event-stream"):
            answer.close()
            raise StreamUnavailable(404, "not_a_stream", "the answer is not an event stream")
        return answer

    def stream(self, url: str, last_event_id: str | None = None,
               idle_timeout: float = 120) -> Iterator[ServerSentEvent]:
        """The events of one stream (a game's: `/api/v1/games/{id}/stream/`) until the
        server closes it."""
        with self.open_stream(url, last_event_id, idle_timeout) as answer:
            yield from server_sent_events(answer)

    def notices(self, reconnect: bool = True, catch_up=None) -> Iterator[Notice]:
        """The user stream's notices, connecting again (with the last id seen) when it
        drops or the server is busy. `catch_up`: a function giving the notices a bot may
        have missed, yielded each time the stream is open again (so nothing sent while it
        was not listening is lost: it connects first, then looks)."""
        last_id, pause, busy = None, 1.0, 0
        while True:
            wait = None
            try:
                with self.open_stream(self.stream_url, last_id) as answer:
                    busy = 0
                    if catch_up is not None:
                        yield from catch_up()
                    for message in server_sent_events(answer):
                        pause = 1.0
                        last_id = message.id or last_id
                        if message.event == "notice":
                            data = message.json() or {}
                            yield Notice(data.get("kind", ""), data.get("game"), data)
            except StreamUnavailable:
                raise
            except ApiError as refused:
                if refused.status < 429 or refused.status in (501,):
                    raise  # 401, 403: this token may not listen; no use trying again
                busy += 1
                wait = refused.retry_after
                if refused.status == 503 and busy >= UNAVAILABLE_TRIES:
                    # A server that never streams (a WSGI-only instance answers 503 at
                    # once): poll instead of knocking forever.
                    raise StreamUnavailable(503, refused.code, refused.detail,
                                            refused.body) from None
            except (OSError, http.client.HTTPException):  # timeouts and URLError too
                pass  # dropped: connect again below
            if not reconnect:
                return
            self.sleep(wait if wait is not None else pause)
            pause = min(pause * 2, LONGEST_PAUSE)

    def polled_notices(self, game_ids: Iterable[int] | None = None,
                       every: float = 2.0) -> Iterator[Notice]:
        """What the user stream would say, from the games' views asked every `every`
        seconds: `your_move` while a decision is owed, `game_finished` once per game."""
        told_over: set[int] = set()
        wanted = None if game_ids is None else [int(g) for g in game_ids]
        while True:
            ids = wanted if wanted is not None else [
                g["id"] for g in self.games(mine=True) if g["status"] in ("active", "paused")]
            for game_id in ids:
                view = self.game(game_id)
                if view["status"] in OVER:
                    if game_id not in told_over:
                        told_over.add(game_id)
                        yield Notice("game_finished", game_id, {"kind": "game_finished",
                                                                "game": game_id})
                elif owes_decision(view):
                    yield Notice("your_move", game_id, {"kind": "your_move", "game": game_id,
                                                        "polled": True})
            time.sleep(every)

    def follow(self, game_ids: Iterable[int] | None = None, poll_every: float = 2.0,
               on_fallback=None) -> Iterator[Notice]:
        """The user stream's notices (`game_ids`: those games' only), each time it is
        open preceded by a `your_move` for every game already waiting; where the service
        has no stream, the same made by polling."""
        ids = None if game_ids is None else [int(g) for g in game_ids]

        def waiting():
            for game_id in ids if ids is not None else [
                    g["id"] for g in self.games(mine=True) if g["status"] == "active"]:
                if owes_decision(self.game(game_id)):
                    yield Notice("your_move", game_id, {"kind": "your_move", "game": game_id})

        try:
            for notice in self.notices(catch_up=waiting):
                if ids is None or notice.game in ids:
                    yield notice
        except StreamUnavailable:
            if on_fallback is not None:
                on_fallback()
            yield from self.polled_notices(ids, poll_every)


def _api_error(refused: urllib.error.HTTPError) -> ApiError:
    try:
        body = json.loads(refused.read() or b"null")
    except ValueError:
        body = None
    try:
        wait = float(refused.headers.get("Retry-After", ""))
    except (TypeError, ValueError):  # absent, or an HTTP date: back off instead
        wait = None
    if isinstance(body, dict):
        return ApiError(refused.code, str(body.get("error", "error")),
                        str(body.get("detail", "")), body, wait)
    return ApiError(refused.code, "error", refused.reason or "", body, wait)
