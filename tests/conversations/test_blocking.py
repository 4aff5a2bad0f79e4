"""Blocking is silent: what a blocked player writes, invites or challenges is taken as
anyone's is and answered as anyone's is, and never reaches the player who blocks them.
bob blocks alice here; charlie is a player nobody blocks, to compare with."""

from __future__ import annotations

import pytest

from conversations.models import Block, Message
from games.models import Game, Invitation
from lobby import challenges
from notifications.models import Notification
from tests.games_in_states import open_game
from tests.people import client_for, token_client_for

pytestmark = pytest.mark.django_db


def post(client, path, body=None):
    return client.post(path, body or {}, format="json")


def texts(client, name) -> list[str]:
    return [m["text"] for m in client.get(f"/api/v1/messages/{name}/").json()["messages"]]


def test_a_blocked_player_s_message_is_taken_and_never_delivered(alice, bob, veteran):
    veteran(alice)
    assert post(token_client_for(alice), "/api/v1/messages/bob/", {"text": "first"}).status_code == 201
    post(token_client_for(bob), "/api/v1/messages/alice/block/")
    sent = post(token_client_for(alice), "/api/v1/messages/bob/", {"text": "are you there?"})
    assert sent.status_code == 201
    assert {k: v for k, v in sent.json().items() if k not in ("id", "created_at")} == {
        "sender": "alice", "recipient": "bob", "text": "are you there?", "hidden": False}
    # alice reads her conversation as after any message
    assert texts(token_client_for(alice), "bob") == ["first", "are you there?"]
    [hers] = token_client_for(alice).get("/api/v1/messages/").json()["results"]
    assert hers["last"]["text"] == "are you there?"
    # bob never hears of it: not listed, not counted, not mailed
    assert texts(token_client_for(bob), "alice") == ["first"]
    listed = token_client_for(bob).get("/api/v1/messages/").json()
    assert listed["unread"] == 0 and listed["results"][0]["last"]["text"] == "first"
    assert Notification.objects.filter(user=bob, kind=Notification.MESSAGE).count() == 1
    # nor once he unblocks her: it was never delivered; what she writes then is
    post(token_client_for(bob), "/api/v1/messages/alice/unblock/")
    assert texts(token_client_for(bob), "alice") == ["first"]
    post(token_client_for(alice), "/api/v1/messages/bob/", {"text": "again"})
    assert token_client_for(bob).get("/api/v1/messages/").json()["unread"] == 1
    assert texts(token_client_for(bob), "alice") == ["first", "again"]


def test_a_conversation_a_blocked_player_starts_is_not_listed_to_the_blocker(
        alice, bob, veteran):
    veteran(alice)
    Block.objects.create(blocker=bob, blocked=alice)
    assert post(token_client_for(alice), "/api/v1/messages/bob/", {"text": "hello"}).status_code == 201
    assert [e["username"] for e in token_client_for(alice).get("/api/v1/messages/").json()["results"]] \
        == ["bob"]
    assert token_client_for(bob).get("/api/v1/messages/").json()["results"] == []
    assert texts(token_client_for(bob), "alice") == []
    message = Message.objects.get()
    refused = post(token_client_for(bob), "/api/v1/messages/alice/report/",
                   {"message": message.pk, "reason": "spam"})
    assert refused.status_code == 404 and refused.json()["error"] == "not_found"
    assert not Notification.objects.filter(user=bob).exists()


def test_the_blocked_player_s_pages_read_as_anyone_s(alice, bob, charlie, veteran):
    veteran(alice)
    Block.objects.create(blocker=bob, blocked=alice)
    for name in ("bob", "charlie"):
        answer = client_for(alice).post(f"/messages/{name}/", {"text": "hi"})
        assert answer.status_code == 302 and answer["Location"] == f"/messages/{name}/#latest"
    pages = {name: client_for(alice).get(f"/messages/{name}/").content.decode()
             for name in ("bob", "charlie")}
    assert pages["bob"].count('<p class="text">hi</p>') == 1
    assert pages["charlie"].count('<p class="text">hi</p>') == 1
    assert 'id="message-form"' in pages["bob"]
    assert "does not take" not in pages["bob"]
    # a closed account still takes nothing
    type(charlie).objects.filter(pk=charlie.pk).update(is_active=False)
    closed = client_for(alice).post("/messages/charlie/", {"text": "still there?"})
    assert closed.status_code == 403
    assert "charlie does not take messages from you." in closed.content.decode()


def test_the_block_page_says_what_happens(alice, bob, veteran):
    veteran(alice)
    post(token_client_for(alice), "/api/v1/messages/bob/", {"text": "first"})
    done = client_for(bob).post("/messages/alice/block/", follow=True).content.decode()
    assert "They are not told" in done
    assert "invitations and challenges" in done
    notice = client_for(bob).get("/messages/alice/").content.decode()
    assert "they cannot write to you" not in notice
    assert "never reaches you" in notice


def test_an_invitation_to_the_blocker_is_pending_and_never_delivered(alice, bob, charlie):
    Block.objects.create(blocker=bob, blocked=alice)
    game = open_game(alice, 3, "bob, read this", private=True)
    answers = {name: post(token_client_for(alice), f"/api/v1/games/{game.pk}/invite/", {"username": name})
               for name in ("bob", "charlie")}
    shown = {name: {k: v for k, v in answer.json().items()
                    if k not in ("id", "username", "created_at")}
             for name, answer in answers.items()}
    assert answers["bob"].status_code == answers["charlie"].status_code == 201
    assert shown["bob"] == shown["charlie"] == {
        "game": game.pk, "invited_by": "alice", "status": "pending", "answered_at": None}
    listed = token_client_for(alice).get(f"/api/v1/games/{game.pk}/invite/").json()
    assert {row["username"]: row["status"] for row in listed} == {
        "bob": "pending", "charlie": "pending"}
    again = post(token_client_for(alice), f"/api/v1/games/{game.pk}/invite/", {"username": "bob"})
    assert again.status_code == 400 and again.json()["error"] == "already_invited"
    # bob hears nothing and the game does not exist for him
    assert not Notification.objects.filter(user=bob).exists()
    assert Notification.objects.filter(user=charlie, kind=Notification.INVITATION).exists()
    assert token_client_for(bob).get("/api/v1/invitations/").json() == []
    assert token_client_for(bob).get(f"/api/v1/games/{game.pk}/").status_code == 404
    assert post(token_client_for(bob), f"/api/v1/games/{game.pk}/join/").status_code == 404
    assert "bob, read this" not in client_for(bob).get("/games/").content.decode()
    assert "bob, read this" in client_for(charlie).get("/games/").content.decode()
    # it ends as an unanswered one does: withdrawn, or left behind when the game fills
    withdrawn = post(token_client_for(alice), f"/api/v1/games/{game.pk}/withdraw/", {"username": "bob"})
    assert withdrawn.status_code == 200 and withdrawn.json()["status"] == "withdrawn"
    # once unblocked, an invitation reaches him
    Block.objects.all().delete()
    assert post(token_client_for(alice), f"/api/v1/games/{game.pk}/invite/",
                {"username": "bob"}).status_code == 201
    assert Notification.objects.filter(user=bob, kind=Notification.INVITATION).exists()
    assert [row["game"] for row in token_client_for(bob).get("/api/v1/invitations/").json()] == [game.pk]


def test_the_game_page_answers_an_invitation_to_the_blocker_as_any(alice, bob, charlie):
    Block.objects.create(blocker=bob, blocked=alice)
    game = open_game(alice, 3, "Friends", private=True)
    said = {}
    for name in ("bob", "charlie"):
        page = client_for(alice).post(f"/games/{game.pk}/invite/", {"username": name}, follow=True)
        said[name] = [str(m) for m in page.context["messages"]]
    assert said["bob"] == ["bob is invited: they will find it in their notifications, "
                           "unless they block you."]
    assert said["charlie"] == [said["bob"][0].replace("bob", "charlie")]


def test_a_challenge_to_the_blocker_is_made_and_never_delivered(alice, bob, charlie):
    Block.objects.create(blocker=bob, blocked=alice)
    game = challenges.challenge(alice, "bob", 2)
    assert game.private and Game.objects.filter(creator=alice).count() == 1
    invitation = Invitation.objects.get(game=game)
    assert invitation.user == bob and invitation.status == Invitation.PENDING
    assert not Notification.objects.filter(user=bob).exists()
    assert token_client_for(bob).get("/api/v1/invitations/").json() == []
    assert token_client_for(bob).get(f"/api/v1/games/{game.pk}/").status_code == 404
    decline = post(token_client_for(bob), f"/api/v1/games/{game.pk}/decline/")
    assert decline.status_code == 404
    # the page's challenge goes through as any
    answer = client_for(alice).post("/players/bob/challenge/", {
        "preset": "classic", "players": "2", "deadline_seconds": "86400"})
    assert answer.status_code == 302 and Game.objects.filter(creator=alice).count() == 2
    # a closed account still cannot be invited
    type(charlie).objects.filter(pk=charlie.pk).update(is_active=False)
    refused = post(token_client_for(alice), f"/api/v1/games/{game.pk}/invite/", {"username": "charlie"})
    assert refused.status_code == 400 and refused.json()["error"] == "unknown_player"
