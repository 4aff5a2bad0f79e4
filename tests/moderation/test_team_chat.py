"""Team chat in a team game: beside the table talk, read only by the team in the API, the
game page, the chat box and turn mail, and by moderators who do not play in the game where
they moderate (the moderation pages and the admin)."""

from __future__ import annotations

import pytest

from moderation.models import ChatMessage
from notifications.mail import Reader
from notifications.models import Notification
from tests.moderation.support import started_game
from tests.people import client_for, moderator, token_client_for, user


def url(game) -> str:
    return f"/api/v1/games/{game.pk}/chat/"


@pytest.fixture
def four(db):
    """alice (seat 0) and carol (seat 2) are team 0; bob (1) and dave (3) team 1."""
    return [user("alice"), user("bob"), user("carol"), user("dave")]


@pytest.fixture
def team_game(four):
    return started_game(four, team_size=2)


def texts(answer) -> list:
    return [m["text"] for m in answer.json()["messages"]]


def test_a_team_message_is_read_by_the_team_and_nobody_else(team_game, four, charlie):
    alice, bob, carol, dave = four
    posted = token_client_for(alice).post(url(team_game), {"text": "attack bob in asia", "team": True},
                             format="json")
    assert posted.status_code == 201, posted.content
    assert posted.json()["team"] == 0
    token_client_for(bob).post(url(team_game), {"text": "hello all"}, format="json")
    assert texts(token_client_for(carol).get(url(team_game))) == ["attack bob in asia", "hello all"]
    for outsider in (bob, dave, charlie, None):
        answer = token_client_for(outsider).get(url(team_game))
        assert texts(answer) == ["hello all"]
        assert "attack bob" not in answer.content.decode()
    # The other team's own chat stays with it.
    token_client_for(dave).post(url(team_game), {"text": "hold the line", "team": True}, format="json")
    assert "hold the line" in texts(token_client_for(bob).get(url(team_game)))
    assert "hold the line" not in texts(token_client_for(alice).get(url(team_game)))


def test_moderators_read_every_team_where_they_moderate_unless_they_play(team_game, four):
    alice, *_ = four
    token_client_for(alice).post(url(team_game), {"text": "secret plan", "team": True}, format="json")
    maud = moderator("maud")
    # Where players read, a moderator reads as anyone in their place does.
    assert texts(token_client_for(maud).get(url(team_game))) == []
    assert "secret plan" not in client_for(maud).get(f"/games/{team_game.pk}/").content.decode()
    assert "secret plan" in client_for(maud).get(f"/moderation/games/{team_game.pk}/").content.decode()
    assert "secret plan" in client_for(maud).get(
        "/admin/moderation/chatmessage/").content.decode()
    # A moderator seated in the other team reads no more than a player.
    playing = moderator("bob")
    assert texts(token_client_for(playing).get(url(team_game))) == []
    assert "secret plan" not in client_for(playing).get(
        "/admin/moderation/chatmessage/").content.decode()
    assert "secret plan" not in client_for(playing).get(
        f"/moderation/games/{team_game.pk}/").content.decode()


def test_team_chat_is_refused_without_teams(db, four):
    game = started_game(four[:2])
    answer = token_client_for(four[0]).post(url(game), {"text": "hi", "team": True}, format="json")
    assert answer.status_code == 400 and answer.json()["error"] == "bad_request"
    assert "no teams" in answer.json()["detail"]
    assert not ChatMessage.objects.exists()
    answer = token_client_for(four[0]).post(url(game), {"text": "hi", "team": "yes"}, format="json")
    assert answer.status_code == 400 and not ChatMessage.objects.exists()


def test_the_chat_box_offers_the_team_and_marks_team_lines(team_game, four):
    alice, bob, carol, dave = four
    box = client_for(alice).get(f"/games/{team_game.pk}/").content.decode()
    assert 'name="to" value="team"' in box and "Team 1" in box
    answer = client_for(carol).post(f"/games/{team_game.pk}/chat/", {"text": "with you", "to": "team"})
    assert answer.status_code == 302
    assert ChatMessage.objects.get().team == 0
    page = client_for(alice).get(f"/games/{team_game.pk}/").content.decode()
    assert "with you" in page and "team-line" in page
    assert "with you" not in client_for(bob).get(f"/games/{team_game.pk}/").content.decode()
    assert "with you" not in client_for(None).get(f"/games/{team_game.pk}/chat/").content.decode()


def test_turn_mail_carries_only_the_readers_team_chat(team_game, four):
    alice, bob, carol, dave = four
    token_client_for(alice).post(url(team_game), {"text": "red plan", "team": True}, format="json")
    token_client_for(bob).post(url(team_game), {"text": "blue plan", "team": True}, format="json")
    token_client_for(dave).post(url(team_game), {"text": "good luck all"}, format="json")
    for reader, own, other in ((carol, "red plan", "blue plan"), (dave, "blue plan", "red plan")):
        note = Notification.objects.create(user=reader, game=team_game, kind=Notification.TURN,
                                           event_seq=team_game.version)
        lines = Reader().chat(note, {})["chat"]
        assert any(own in line for line in lines) and any("good luck" in line for line in lines)
        assert not any(other in line for line in lines)


def test_a_player_cannot_report_another_teams_message(team_game, four):
    alice, bob, *_ = four
    token_client_for(alice).post(url(team_game), {"text": "our secret", "team": True}, format="json")
    message = ChatMessage.objects.get()
    answer = token_client_for(bob).post("/api/v1/reports/", {"game": team_game.pk, "message": message.pk,
                                                "reason": "guessing"}, format="json")
    assert answer.status_code == 404


def test_hiding_a_team_line_tells_only_that_team(team_game, four, charlie):
    alice, bob, carol, dave = four
    token_client_for(alice).post(url(team_game), {"text": "our plan", "team": True}, format="json")
    message = ChatMessage.objects.get()
    maud = moderator("maud")
    hidden = client_for(maud).post(f"/moderation/messages/{message.pk}/hide/",
                            {"reason": "quoting the plan: our plan"})
    assert hidden.status_code == 302 and ChatMessage.objects.get().hidden

    def hide_event(who):
        events = token_client_for(who).get(f"/api/v1/games/{team_game.pk}/events/").json()["events"]
        return [e for e in events if e["type"] == "chat_hidden"][-1]

    for mate in (alice, carol):
        data = hide_event(mate)["data"]
        assert data["message"] == message.pk and data["reason"].startswith("quoting")
    for outsider in (bob, dave, charlie, None):
        assert hide_event(outsider)["data"] == {}
    # The log in words says as little.
    page = client_for(bob).get(f"/games/{team_game.pk}/").content.decode()
    assert "hid a line of another team" in page and "maud" not in page
