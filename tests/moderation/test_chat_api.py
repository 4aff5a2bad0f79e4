"""GET/POST /api/v1/games/{id}/chat/: token auth and {"error", "detail"} errors."""

from __future__ import annotations

import pytest

from moderation.chat import hide_message
from moderation.models import ChatMessage
from tests.games_in_states import open_game
from tests.moderation.support import event_count
from tests.people import token_client_for


def url(game_or_id) -> str:
    return f"/api/v1/games/{getattr(game_or_id, 'pk', game_or_id)}/chat/"


def test_it_posts_a_message(game, alice):
    answer = token_client_for(alice).post(url(game), {"text": "hello"}, format="json")
    assert answer.status_code == 201
    body = answer.json()
    assert set(body) == {"id", "seat", "username", "color", "text", "hidden", "team", "created_at"}
    assert body["text"] == "hello" and body["seat"] == 0
    assert body["username"] == "alice" and body["color"] == "red" and body["hidden"] is False
    assert event_count(game) == game.version  # no event, no new version


def test_it_lists_messages_to_anyone(game, alice):
    token_client_for(alice).post(url(game), {"text": "one"}, format="json")
    token_client_for(alice).post(url(game), {"text": "two"}, format="json")
    answer = token_client_for(None).get(url(game))
    assert answer.status_code == 200 and answer.json()["open"] is True
    assert [m["text"] for m in answer.json()["messages"]] == ["one", "two"]
    first = answer.json()["messages"][0]["id"]
    after = token_client_for(None).get(url(game) + f"?after={first}").json()["messages"]
    assert [m["text"] for m in after] == ["two"]


def test_it_shows_a_hidden_message_without_its_text(game, alice, maud):
    token_client_for(alice).post(url(game), {"text": "rude"}, format="json")
    hide_message(ChatMessage.objects.get(), maud, "insult")
    shown = token_client_for(alice).get(url(game)).json()["messages"][0]
    assert shown["hidden"] is True and shown["text"] is None


def test_it_refuses_anonymous_posts(game):
    answer = token_client_for(None).post(url(game), {"text": "hi"}, format="json")
    assert answer.status_code == 401 and answer.json()["error"] == "not_authenticated"


def test_it_refuses_spectators(game, charlie):
    answer = token_client_for(charlie).post(url(game), {"text": "hi"}, format="json")
    assert answer.status_code == 403
    assert answer.json() == {"error": "not_seated",
                             "detail": "only the players of this game may chat"}


def test_it_answers_404_for_an_unknown_game(alice):
    for client in (token_client_for(alice), token_client_for(None)):
        answer = client.get(url(999999))
        assert answer.status_code == 404 and answer.json()["error"] == "not_found"
    assert token_client_for(alice).post(url(999999), {"text": "x"}, format="json").status_code == 404


def test_it_refuses_a_closed_chat(alice):
    game = open_game(alice, 3, "Lobby")
    answer = token_client_for(alice).post(url(game), {"text": "hi"}, format="json")
    assert answer.status_code == 400 and answer.json()["error"] == "chat_closed"


@pytest.mark.parametrize("body", [{}, {"text": ""}, {"text": 5}, {"text": None},
                                  {"text": ["a"]}, {"text": "a" * 1001}, {"text": "\x00"},
                                  [1, 2]])
def test_it_refuses_malformed_bodies(game, alice, body):
    answer = token_client_for(alice).post(url(game), body, format="json")
    assert answer.status_code == 400 and answer.json()["error"] == "bad_request"
    assert ChatMessage.objects.count() == 0


def test_it_refuses_a_bad_after(game):
    answer = token_client_for(None).get(url(game) + "?after=x")
    assert answer.status_code == 400 and answer.json()["error"] == "bad_request"


def test_it_rate_limits(game, alice, settings):
    settings.CONQUEST_CHAT_PER_MINUTE = 2
    for n in range(2):
        assert token_client_for(alice).post(url(game), {"text": str(n)}, format="json").status_code == 201
    answer = token_client_for(alice).post(url(game), {"text": "again"}, format="json")
    assert answer.status_code == 429 and answer.json()["error"] == "rate_limited"


def test_it_returns_hostile_text_as_json_text(game, alice):
    text = '<script>alert(1)</script>'
    token_client_for(alice).post(url(game), {"text": text}, format="json")
    answer = token_client_for(alice).get(url(game))
    assert answer["Content-Type"].startswith("application/json")
    assert answer.json()["messages"][0]["text"] == text


def test_it_is_in_the_openapi_schema(db):
    paths = token_client_for(None).get("/api/v1/schema/?format=json").json()["paths"]
    assert "/api/v1/games/{game_id}/chat/" in paths and "/api/v1/reports/" in paths
