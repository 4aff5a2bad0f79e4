"""The reference client's side of docs/bots/streams.md, against a small stand-in server
(the service's stream is tested where it is served): Server-Sent Events parsed as the HTML
standard says, notices followed across a dropped connection with `Last-Event-ID`, and the
fall back to polling where the stream answers 404."""

from __future__ import annotations

import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.notifications.real_parts import ROOT

sys.path.insert(0, str(ROOT / "clients" / "python"))
import conquest_client as cc  # noqa: E402

ACTIVE_VIEW = {"id": 5, "status": "active", "version": 3, "phase": "attack", "current_seat": 1,
               "you": {"seat": 1, "may": {"commands": ["set_defense", "resign", "end_turn"]}}}
WAITING_VIEW = {**ACTIVE_VIEW, "you": {"seat": 1, "may": {"commands": ["set_defense",
                                                                        "resign"]}}}


class StandIn(BaseHTTPRequestHandler):
    """A stream of two notices per connection (ids go on from Last-Event-ID), then closed;
    or 404 for the stream when `streams` is off. Games: one, id 5, waiting for seat 1."""

    streams = True
    refusals: list = []  # statuses the stream answers first, one per connection
    closes: list = []  # the reasons of the `close` each connection ends with, one each
    seen_last_ids: list = []

    def log_message(self, *args):
        pass

    def _json(self, status, body):
        raw = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def do_GET(self):  # noqa: N802 - http.server's name
        if self.path.startswith("/api/v1/stream/"):
            if not self.streams:
                return self._json(404, {"error": "not_found", "detail": "no stream"})
            if self.refusals:
                status = type(self).refusals.pop(0)
                return self._json(status, {"error": "refused", "detail": str(status)})
            last = self.headers.get("Last-Event-ID")
            type(self).seen_last_ids.append(last)
            start = int(last or 0)
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            lines = [": heartbeat\n\n"]
            for n in (start + 1, start + 2):
                data = json.dumps({"kind": "your_move" if n % 2 else "game_started", "game": 5})
                lines.append(f"id: {n}\nevent: notice\ndata: {data}\n\n")
            if self.closes:
                reason = type(self).closes.pop(0)
                back = "retry: 1000\n" if reason != "credentials_ended" else ""
                lines.append(f'{back}id: {start + 5}\nevent: close\n'
                             f'data: {{"reason": "{reason}"}}\n\n')
            self.wfile.write("".join(lines).encode())
            self.wfile.flush()
            return None  # the connection closes: the client connects again
        if self.path.startswith("/api/v1/games/?"):
            return self._json(200, [{"id": 5, "status": "active"}])
        if self.path == "/api/v1/games/5/":
            return self._json(200, ACTIVE_VIEW)
        return self._json(404, {"error": "not_found", "detail": self.path})


@pytest.fixture
def stand_in():
    StandIn.streams, StandIn.seen_last_ids, StandIn.refusals, StandIn.closes = True, [], [], []
    server = ThreadingHTTPServer(("127.0.0.1", 0), StandIn)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_it_parses_server_sent_events_as_the_standard_does():
    lines = [b": comment\n", b"event: notice\n", b"data: {\"a\":\n", b"data: 1}\n",
             b"id: 7\n", b"\n", b"data:x\r\n", b"\n", b"event: lonely\n", b"\n"]

    found = list(cc.server_sent_events(lines))

    assert [(e.event, e.data, e.id) for e in found] == [
        ("notice", '{"a":\n1}', "7"), ("message", "x", "7")]
    assert found[0].json() == {"a": 1}


def test_it_follows_notices_and_resumes_after_the_last_id(stand_in):
    client = cc.Conquest(stand_in, token="t")
    notices = client.notices()

    got = [next(notices) for _ in range(4)]

    assert [(n.kind, n.game) for n in got] == [("your_move", 5), ("game_started", 5),
                                               ("your_move", 5), ("game_started", 5)]
    assert StandIn.seen_last_ids[:2] == [None, "2"]  # nothing lost, nothing twice


def test_follow_looks_for_waiting_games_once_the_stream_is_open(stand_in):
    client = cc.Conquest(stand_in, token="t")
    notices = client.follow()

    got = [next(notices) for _ in range(4)]

    # The game already waiting first (a notice sent before it listened is not sent again),
    # then the stream's own; after the reconnect, the waiting game again.
    assert [(n.kind, n.data.get("polled")) for n in got] == [
        ("your_move", None), ("your_move", None), ("game_started", None), ("your_move", None)]
    assert StandIn.seen_last_ids[:2] == [None, "2"]


def test_follow_falls_back_to_polling_on_404(stand_in):
    StandIn.streams = False
    fell_back = []
    client = cc.Conquest(stand_in, token="t")

    notices = client.follow(poll_every=0.01, on_fallback=lambda: fell_back.append(True))
    first, second = next(notices), next(notices)

    assert fell_back == [True]
    assert (first.kind, first.game, first.data.get("polled")) == ("your_move", 5, True)
    assert (second.kind, second.game) == ("your_move", 5)


def test_a_busy_stream_is_tried_again_and_a_refused_token_stops(stand_in, monkeypatch):
    monkeypatch.setattr(cc.time, "sleep", lambda seconds: None)
    StandIn.refusals = [503, 429]
    client = cc.Conquest(stand_in, token="t")

    assert next(client.notices()).kind == "your_move"  # after two busy answers

    StandIn.refusals = [401]
    with pytest.raises(cc.ApiError) as refused:
        next(client.notices())
    assert refused.value.status == 401


def test_it_comes_back_after_a_lifetime_close_and_stops_once_the_token_is_refused(
        stand_in, monkeypatch):
    pauses = []
    monkeypatch.setattr(cc.time, "sleep", pauses.append)
    StandIn.closes = ["max_lifetime", "credentials_ended"]
    StandIn.refusals = []
    client = cc.Conquest(stand_in, token="t")
    notices = client.notices()

    got = [next(notices) for _ in range(4)]

    # Resumed from where the close said the stream stood (its id), a second later.
    assert [n.kind for n in got] == ["your_move", "game_started", "game_started", "your_move"]
    assert StandIn.seen_last_ids[:2] == [None, "5"]
    assert pauses == [1.0]
    StandIn.refusals = [401]  # the credential ended: the reconnect is refused, once
    with pytest.raises(cc.ApiError) as refused:
        next(notices)
    assert refused.value.status == 401
    assert len(StandIn.seen_last_ids) == 2


def test_owes_decision_reads_you_may():
    assert cc.owes_decision(ACTIVE_VIEW)
    assert not cc.owes_decision(WAITING_VIEW)
    assert not cc.owes_decision({**ACTIVE_VIEW, "status": "finished"})
    older = {**ACTIVE_VIEW, "you": {"seat": 1}}  # no `may`: the current seat says
    assert cc.owes_decision(older) and not cc.owes_decision({**older, "current_seat": 0})
