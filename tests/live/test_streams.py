"""The streams against a real ASGI server process (gunicorn -k asgi config.asgi): the game view
first, then every event exactly as events/ shows it to the same caller (a fogged game,
seat by seat, a spectator and a stranger), ids that resume with nothing lost or repeated,
the API's authentication, the per-user cap, heartbeats and the user's notices. On the
server pass the news comes over Redis; on the embedded one from the server's poll."""

from __future__ import annotations

import pytest

from accounts.tokens import issue
from games.models import Game
from tests.games_in_states import new_game
from tests.live.support import CAP, StreamServer
from tests.notifications.real_parts import wait_until
from tests.play import play_until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def server(stream_server):
    """The live tests' shared server (tests/live/conftest.py)."""
    return stream_server


@pytest.fixture
def tokens(alice, bob, charlie):
    return {user.username: issue(user) for user in (alice, bob, charlie)}


def alices_game(server, tokens, **rules) -> int:
    """A game of two alice opens on the server, its armies placed all at once."""
    return new_game(server.client(tokens["alice"]), players=2,
                    initial_placement="simultaneous", **rules)


def join(server, tokens, game_id):
    status, view = server.call("POST", f"/api/v1/games/{game_id}/join/", tokens["bob"])
    assert status == 200, view


def play(game_id, alice, bob, events: int) -> int:
    game = Game.objects.get(pk=game_id)
    start = game.version
    return play_until(game, [alice, bob], lambda s: s.version >= start + events).version


def test_it_shows_a_fogged_game_to_each_caller_as_events_does(server, tokens, alice, bob):
    game_id = alices_game(server, tokens, fog=True)
    callers = {"alice": tokens["alice"], "bob": tokens["bob"], "charlie": tokens["charlie"],
               "anonymous": None}
    streams = {name: server.open(f"/api/v1/games/{game_id}/stream/", token)
               for name, token in callers.items()}
    for name, stream in streams.items():
        assert stream.status == 200, name
        assert stream.answer.getheader("Content-Type").startswith("text/event-stream")
        kind, seq, view = stream.next()
        assert (kind, seq) == ("view", None)
        assert view == server.call("GET", f"/api/v1/games/{game_id}/", callers[name])[1]
    join(server, tokens, game_id)
    version = play(game_id, alice, bob, 40)
    for name, stream in streams.items():
        shown = server.call("GET", f"/api/v1/games/{game_id}/events/", callers[name])[1]
        assert shown["version"] == version
        streamed = []
        while not streamed or streamed[-1][1] < version:
            streamed.append(stream.next())
        assert [kind for kind, _, _ in streamed] == ["game_event"] * version, name
        assert [seq for _, seq, _ in streamed] == list(range(1, version + 1)), name
        # Event by event, what this caller's stream said is what events/ says to them.
        assert [data for _, _, data in streamed] == shown["events"], name
        stream.close()
    # Fog hid something from the stranger that the seats saw (the test can fail).
    stranger = server.call("GET", f"/api/v1/games/{game_id}/events/", tokens["charlie"])[1]
    seat = server.call("GET", f"/api/v1/games/{game_id}/events/", tokens["alice"])[1]
    assert stranger["events"] != seat["events"]


def test_it_resumes_after_last_event_id_with_nothing_lost_or_repeated(server, tokens, alice, bob):
    game_id = alices_game(server, tokens)
    join(server, tokens, game_id)
    play(game_id, alice, bob, 10)
    stream = server.open(f"/api/v1/games/{game_id}/stream/", tokens["bob"],
                         {"Last-Event-ID": "0"})
    assert stream.next()[0] == "view"
    first = [stream.next() for _ in range(5)]
    stream.close()
    version = play(game_id, alice, bob, 10)
    again = server.open(f"/api/v1/games/{game_id}/stream/", tokens["bob"],
                        {"Last-Event-ID": str(first[-1][1])})
    assert again.next()[0] == "view"
    rest = []
    while not rest or rest[-1][1] < version:
        rest.append(again.next())
    seqs = [seq for _, seq, _ in first + rest]
    assert seqs == list(range(1, version + 1))
    shown = server.call("GET", f"/api/v1/games/{game_id}/events/", tokens["bob"])[1]
    assert [data for _, _, data in first + rest] == shown["events"]
    # The same through the query EventSource can be given, and as ndjson.
    lines = server.open(f"/api/v1/games/{game_id}/stream/?last_event_id={version - 2}",
                        tokens["bob"], {"Accept": "application/x-ndjson"})
    assert lines.ndjson
    assert lines.next()[0] == "view"
    assert [lines.next()[1] for _ in range(2)] == [version - 1, version]
    again.close()
    lines.close()


def test_it_answers_like_the_api_to_who_may_not_see(server, tokens):
    game_id = alices_game(server, tokens)
    bad = server.open(f"/api/v1/games/{game_id}/stream/", "0" * 40)
    assert (bad.status, bad.json()["error"]) == (401, "authentication_failed")
    assert server.open("/api/v1/stream/").status == 401
    missing = server.open("/api/v1/games/999999/stream/", tokens["alice"])
    assert (missing.status, missing.json()["error"]) == (404, "not_found")
    wrong = server.open(f"/api/v1/games/{game_id}/stream/", tokens["alice"],
                        {"Last-Event-ID": "x1"})
    assert (wrong.status, wrong.json()["error"]) == (400, "bad_request")
    status, private = server.call("POST", "/api/v1/games/", tokens["alice"], {
        "name": "Hush", "players": 2, "private": True})
    assert status == 201
    assert server.open(f"/api/v1/games/{private['id']}/stream/", tokens["charlie"]).status == 404
    assert server.open(f"/api/v1/games/{private['id']}/stream/").status == 404


def test_it_caps_open_streams_per_user_and_sends_heartbeats(server, tokens):
    game_id = alices_game(server, tokens)
    held = [server.open(f"/api/v1/games/{game_id}/stream/", tokens["alice"]) for _ in range(CAP)]
    assert all(stream.status == 200 for stream in held)
    refused = server.open("/api/v1/stream/", tokens["alice"])
    assert refused.status == 429
    body = refused.json()
    assert body["error"] == "too_many_streams"
    assert (body["limit"], body["rate"]) == ("streams_per_user", str(CAP))
    assert server.open("/api/v1/stream/", tokens["bob"]).status == 200  # another user
    # An idle stream hears a heartbeat (a comment line) every CONQUEST_STREAM_HEARTBEAT_SECONDS.
    assert held[0].next()[0] == "view"
    assert held[0].next(skip_heartbeats=False)[0] == "heartbeat"
    held.pop().close()
    assert wait_until(lambda: server.open("/api/v1/stream/", tokens["alice"]).status == 200, 10)


def test_it_tells_each_user_their_news(server, tokens, alice, bob):
    game_id = alices_game(server, tokens)
    notices = server.open("/api/v1/stream/", tokens["bob"])
    assert notices.status == 200
    join(server, tokens, game_id)
    kinds = {}
    while "your_move" not in kinds or "game_started" not in kinds:
        kind, seq, data = notices.next()
        assert kind == "notice" and isinstance(seq, int)
        kinds[data["kind"]] = data
    assert kinds["game_started"]["game"] == game_id
    status, _ = server.call("POST", f"/api/v1/games/{game_id}/commands/", tokens["alice"],
                            {"type": "resign"})
    assert status == 201
    while True:
        kind, _, data = notices.next()
        if data["kind"] == "game_finished":
            break
    assert data["game"] == game_id
    notices.close()


def test_it_tells_a_late_comer_which_decisions_it_owes(server, tokens):
    game_id = alices_game(server, tokens)
    join(server, tokens, game_id)  # simultaneous placement: both seats owe it
    late = server.open("/api/v1/stream/", tokens["bob"])
    kind, seq, data = late.next()
    assert (kind, seq, data["kind"], data["game"]) == ("notice", None, "your_move", game_id)
    assert data["pending"] is True
    again = server.open("/api/v1/stream/", tokens["bob"], {"Last-Event-ID": "0"})
    kind, seq, data = again.next()  # a reconnect: the notices after 0, numbered
    assert kind == "notice" and isinstance(seq, int) and "pending" not in data
    late.close()
    again.close()


def test_it_says_goodbye_when_the_server_stops(tokens, django_db_setup):
    server = StreamServer().start()  # its own: this test stops it
    game_id = alices_game(server, tokens)
    stream = server.open(f"/api/v1/games/{game_id}/stream/", tokens["alice"])
    assert stream.next()[0] == "view"
    server.stop()
    assert stream.next()[0] == "close"
    assert server.process.returncode == 0


def test_it_says_when_a_chat_line_comes_and_a_mention_reaches_its_user(server, tokens):
    game_id = alices_game(server, tokens)
    join(server, tokens, game_id)
    watching = server.open(f"/api/v1/games/{game_id}/stream/")  # a spectator reads chat too
    notices = server.open("/api/v1/stream/", tokens["bob"])
    assert watching.next()[0] == "view"
    status, line = server.call("POST", f"/api/v1/games/{game_id}/chat/", tokens["alice"],
                               {"text": "your move, @bob"})
    assert status == 201, line
    kind, seq, data = watching.next()
    assert (kind, seq) == ("chat", None) and data["line"] == line["id"]
    kind, _, data = notices.next()
    while data.get("pending"):  # what bob owes now comes first
        kind, _, data = notices.next()
    assert (kind, data["kind"], data["game"], data["author"]) == (
        "notice", "mention", game_id, "alice")
    watching.close()
    notices.close()
