"""/api/v1/messages/…: the conversation list, one conversation, sending, blocking and
reporting over the API, every refusal as {"error", "detail"} changing nothing."""

from __future__ import annotations

import pytest

from conversations.models import Block, Conversation, Message, MessageReport
from tests.people import client_for, token_client_for

pytestmark = pytest.mark.django_db


def post(client, path, body):
    return client.post(path, body, format="json")


def test_it_lists_and_reads_conversations(alice, bob, veteran):
    veteran(alice)
    sent = post(token_client_for(alice), "/api/v1/messages/bob/", {"text": "Rematch tonight?"})
    assert sent.status_code == 201
    body = sent.json()
    assert (body["sender"], body["recipient"], body["text"], body["hidden"]) == (
        "alice", "bob", "Rematch tonight?", False)
    listed = token_client_for(bob).get("/api/v1/messages/").json()
    assert listed["unread"] == 1 and listed["blocked"] == []
    [entry] = listed["results"]
    assert (entry["username"], entry["unread"], entry["last"]["text"]) == (
        "alice", 1, "Rematch tonight?")
    conversation = token_client_for(bob).get("/api/v1/messages/alice/").json()
    assert conversation["username"] == "alice" and conversation["can_start"] is True
    assert [m["text"] for m in conversation["messages"]] == ["Rematch tonight?"]
    assert token_client_for(bob).get("/api/v1/messages/").json()["unread"] == 0


def test_it_pages_back_with_before(alice, bob, veteran, settings):
    veteran(alice)
    import conversations.messaging as messaging

    for n in range(5):
        post(token_client_for(alice), "/api/v1/messages/bob/", {"text": f"m{n}"})
    ids = list(Message.objects.order_by("id").values_list("id", flat=True))
    older = token_client_for(bob).get(f"/api/v1/messages/alice/?before={ids[3]}").json()["messages"]
    assert [m["text"] for m in older] == ["m0", "m1", "m2"]
    assert messaging.PAGE == 100
    assert token_client_for(bob).get("/api/v1/messages/alice/?before=x").status_code == 400


@pytest.mark.parametrize(("path", "body", "status", "code"), [
    ("/api/v1/messages/bob/", {"text": ""}, 400, "bad_request"),
    ("/api/v1/messages/bob/", {}, 400, "bad_request"),
    ("/api/v1/messages/bob/", {"text": 5}, 400, "bad_request"),
    ("/api/v1/messages/bob/", {"text": "x" * 2001}, 400, "bad_request"),
    ("/api/v1/messages/bob/", ["not", "an", "object"], 400, "bad_request"),
    ("/api/v1/messages/alice/", {"text": "me"}, 400, "bad_request"),
    ("/api/v1/messages/nobody-here/", {"text": "hi"}, 404, "not_found"),
])
def test_bad_input_is_refused_and_changes_nothing(alice, bob, veteran, path, body, status,
                                                  code):
    veteran(alice)
    answer = post(token_client_for(alice), path, body)
    assert answer.status_code == status
    assert answer.json()["error"] == code and answer.json()["detail"]
    assert Message.objects.count() == 0 and Conversation.objects.count() == 0


def test_it_needs_a_finished_game_to_start(alice, bob):
    answer = post(token_client_for(alice), "/api/v1/messages/bob/", {"text": "hi"})
    assert answer.status_code == 403 and answer.json()["error"] == "not_eligible"
    assert token_client_for(alice).get("/api/v1/messages/bob/").json()["can_start"] is False
    assert Message.objects.count() == 0


def test_blocking_and_unblocking(alice, bob, veteran):
    veteran(alice)
    assert post(token_client_for(bob), "/api/v1/messages/alice/block/", {}).json() == {
        "username": "alice", "blocked": True}
    assert post(token_client_for(bob), "/api/v1/messages/alice/block/", {}).status_code == 200  # again
    assert Block.objects.count() == 1
    assert token_client_for(bob).get("/api/v1/messages/").json()["blocked"] == ["alice"]
    assert token_client_for(bob).get("/api/v1/messages/alice/").json()["blocked"] is True
    assert post(token_client_for(bob), "/api/v1/messages/alice/unblock/", {}).json()["blocked"] is False
    assert post(token_client_for(alice), "/api/v1/messages/bob/", {"text": "hello?"}).status_code == 201
    assert post(token_client_for(bob), "/api/v1/messages/bob/block/", {}).status_code == 400
    assert post(token_client_for(bob), "/api/v1/messages/nobody-here/block/", {}).status_code == 404


def test_reporting_a_message(alice, bob, charlie, veteran):
    veteran(alice)
    message = post(token_client_for(alice), "/api/v1/messages/bob/", {"text": "you are bad"}).json()
    answer = post(token_client_for(bob), "/api/v1/messages/alice/report/",
                  {"message": message["id"], "reason": "insults"})
    assert answer.status_code == 201
    assert answer.json()["message"] == message["id"] and answer.json()["status"] == "open"
    again = post(token_client_for(bob), "/api/v1/messages/alice/report/",
                 {"message": message["id"], "reason": "insults"})
    assert again.status_code == 400 and again.json()["error"] == "already_reported"
    # only the recipient reports, and only a message of that player
    for client, path in ((token_client_for(alice), "/api/v1/messages/bob/report/"),
                         (token_client_for(charlie), "/api/v1/messages/alice/report/"),
                         (token_client_for(bob), "/api/v1/messages/charlie/report/")):
        refused = post(client, path, {"message": message["id"], "reason": "x"})
        assert refused.status_code == 404 and refused.json()["error"] == "not_found"
    for bad in ({"message": "1", "reason": "x"}, {"message": message["id"], "reason": ""},
                {"message": True, "reason": "x"}):
        assert post(token_client_for(bob), "/api/v1/messages/alice/report/", bad).status_code in (400, 404)
    assert MessageReport.objects.count() == 1


def test_it_is_for_signed_in_players(db, bob):
    assert token_client_for(None).get("/api/v1/messages/").status_code == 401
    answer = post(token_client_for(None), "/api/v1/messages/bob/", {"text": "hi"})
    assert answer.status_code == 401 and answer.json()["error"] == "not_authenticated"


def test_it_throttles_messages(alice, bob, veteran, settings):
    veteran(alice)
    settings.CONQUEST_THROTTLE_RATES = {**settings.CONQUEST_THROTTLE_RATES,
                                        "message_user": "2/hour"}
    client = token_client_for(alice)
    codes = [post(client, "/api/v1/messages/bob/", {"text": "x"}).status_code
             for _ in range(3)]
    assert codes == [201, 201, 429]
    assert Message.objects.count() == 2


@pytest.mark.parametrize("name", ["%00", "a%00b", "x" * 151, "%C2%B2", "%0A"])
def test_a_name_no_player_can_have_is_not_found(alice, name):
    assert token_client_for(alice).get(f"/api/v1/messages/{name}/").status_code == 404
    answer = post(token_client_for(alice), f"/api/v1/messages/{name}/", {"text": "hi"})
    assert answer.status_code == 404 and answer.json()["error"] == "not_found"
    assert client_for(alice).get(f"/messages/{name}/").status_code == 404
    assert client_for(alice).get(f"/messages/{name}/?before=%C2%B2").status_code == 404
