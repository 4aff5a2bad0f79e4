"""Game chat on the web: seated players post, everyone reads, moderators hide (an event),
a rate limit, and hostile text shown as text."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import service
from games.models import Event, Game
from games.store.states import load_state
from moderation.models import ChatMessage
from tests.games_in_states import open_game
from tests.moderation.support import event_count, last_event
from tests.people import client_for

HOSTILE = ('<script>alert("x")</script><img src=x onerror="alert(1)">'
           '<a href="javascript:alert(2)">click</a>')


def post(client, game, text, **headers):
    return client.post(f"/games/{game.pk}/chat/", {"text": text}, **headers)


def test_it_posts_a_players_message_without_moving_the_game(game, alice):
    version = game.version
    answer = post(client_for(alice), game, "Good luck, bob!")
    assert answer.status_code == 302 and answer["Location"] == f"/games/{game.pk}/#chat"
    message = ChatMessage.objects.get()
    assert (message.user, message.seat, message.text) == (alice, 0, "Good luck, bob!")
    game.refresh_from_db()
    assert game.version == version and event_count(game) == version


def test_it_shows_the_chat_to_spectators_and_anonymous_visitors(game, alice, charlie):
    post(client_for(alice), game, "Hello table")
    for client in (client_for(charlie), client_for(None)):
        page = client.get(f"/games/{game.pk}/chat/").content.decode()
        assert "Hello table" in page and 'name="text"' not in page


def test_it_shows_the_chat_on_the_game_page(game, alice, bob):
    post(client_for(alice), game, "Watch Ukraine")
    page = client_for(bob).get(f"/games/{game.pk}/").content.decode()
    assert 'id="chat"' in page and "Watch Ukraine" in page
    assert f'action="/games/{game.pk}/chat/"' in page


def test_it_answers_htmx_with_the_chat_box(game, alice):
    answer = post(client_for(alice), game, "via htmx", HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    body = answer.content.decode()
    assert body.lstrip().startswith('<section class="chat') and "via htmx" in body
    lines = client_for(alice).get(f"/games/{game.pk}/chat/?part=lines", HTTP_HX_REQUEST="true")
    assert lines.content.decode().lstrip().startswith("<ol")


def test_it_answers_the_chat_script_with_pieces_of_the_box(game, alice, maud):
    answer = post(client_for(alice), game, "via script", HTTP_X_CHAT_FRAGMENT="box")
    assert answer.status_code == 200 and 'id="chat"' in answer.content.decode()
    lines = client_for(None).get(f"/games/{game.pk}/chat/?part=lines", HTTP_X_CHAT_FRAGMENT="lines")
    body = lines.content.decode()
    assert body.lstrip().startswith('<ol') and "via script" in body
    stamp = body.split('data-stamp="')[1].split('"')[0]
    hide(client_for(maud), ChatMessage.objects.get())
    again = client_for(None).get(f"/games/{game.pk}/chat/?part=lines", HTTP_X_CHAT_FRAGMENT="lines")
    assert again.content.decode().split('data-stamp="')[1].split('"')[0] != stamp
    refused = post(client_for(alice), game, "", HTTP_X_CHAT_FRAGMENT="box")
    assert refused.status_code == 400 and 'role="alert"' in refused.content.decode()


def test_it_refuses_spectators(game, charlie):
    answer = post(client_for(charlie), game, "let me in")
    assert answer.status_code == 403 and ChatMessage.objects.count() == 0
    assert "only the players" in answer.content.decode()


def test_it_sends_anonymous_posters_to_sign_in(game):
    answer = post(client_for(None), game, "hi")
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]
    assert ChatMessage.objects.count() == 0


def test_it_keeps_the_chat_closed_until_the_game_starts(alice):
    game = open_game(alice, 3, "Lobby")
    answer = post(client_for(alice), game, "anyone?")
    assert answer.status_code == 400 and ChatMessage.objects.count() == 0


@pytest.mark.parametrize("text", ["", "   ", "x" * 1001, "nul\x00byte", "bell\x07"])
def test_it_refuses_bad_text_and_keeps_the_draft(game, alice, text):
    answer = post(client_for(alice), game, text)
    assert answer.status_code == 400 and ChatMessage.objects.count() == 0


def test_it_rate_limits_each_player_per_game(game, alice, bob, settings):
    settings.CONQUEST_CHAT_PER_MINUTE = 3
    for n in range(3):
        assert post(client_for(alice), game, f"line {n}").status_code == 302
    answer = post(client_for(alice), game, "one too many")
    assert answer.status_code == 429
    body = answer.content.decode()
    assert "at most 3 messages a minute" in body and "one too many" in body  # the draft
    assert post(client_for(bob), game, "bob may still talk").status_code == 302
    ChatMessage.objects.filter(user=alice).update(
        created_at=timezone.now() - timedelta(minutes=2))
    assert post(client_for(alice), game, "a minute later").status_code == 302


def test_it_shows_hostile_text_as_text(game, alice, maud):
    post(client_for(alice), game, HOSTILE)
    for client, url in ((client_for(alice), f"/games/{game.pk}/chat/"),
                        (client_for(alice), f"/games/{game.pk}/"),
                        (client_for(maud), f"/moderation/games/{game.pk}/"),
                        (client_for(maud), "/admin/moderation/chatmessage/"),
                        (client_for(maud), f"/admin/moderation/chatmessage/{ChatMessage.objects.get().pk}/change/")):
        page = client.get(url).content.decode()
        assert "<script>alert" not in page and "<img src=x" not in page, url
        assert 'href="javascript:' not in page, url
        assert "&lt;script&gt;" in page, url


# ---- hiding ----------------------------------------------------------------------------
def hide(client, message, reason="insult"):
    return client.post(f"/moderation/messages/{message.pk}/hide/", {"reason": reason},
                       follow=True)


def test_it_hides_a_message_as_an_event(game, alice, maud):
    post(client_for(alice), game, "you are all idiots")
    message = ChatMessage.objects.get()
    version = game.version
    hide(client_for(maud), message, "insult")
    event = last_event(game)
    assert event.seq == version + 1 and event.type == "chat_hidden"
    assert event.user_id == maud.pk and event.actor is None
    assert event.data == {"message": message.pk, "author_seat": 0, "by": "maud",
                          "reason": "insult"}
    message.refresh_from_db()
    assert message.hidden and message.hidden_by == maud and message.hidden_seq == event.seq
    game.refresh_from_db()
    assert game.version == version + 1 and game.status == Game.ACTIVE
    assert load_state(game).version == version + 1
    page = client_for(alice).get(f"/games/{game.pk}/chat/").content.decode()
    assert "idiots" not in page and "A moderator hid this message." in page
    # The log, as any player reads it over the API, says it was hidden and by whom.
    events = client_for(alice).get(f"/api/v1/games/{game.pk}/events/?after={version}").json()
    assert events["events"][0]["type"] == "chat_hidden"
    assert events["events"][0]["data"]["by"] == "maud"


def test_it_keeps_the_deadline_when_hiding(game, alice, maud):
    deadline = game.deadline
    post(client_for(alice), game, "rude")
    hide(client_for(maud), ChatMessage.objects.get())
    game.refresh_from_db()
    assert game.deadline == deadline


def test_it_refuses_to_hide_a_message_twice(game, alice, maud):
    post(client_for(alice), game, "rude")
    message = ChatMessage.objects.get()
    hide(client_for(maud), message)
    before = event_count(game)
    answer = hide(client_for(maud), message)
    assert "already hidden" in " ".join(str(m) for m in answer.context["messages"])
    assert event_count(game) == before


def test_it_refuses_to_hide_without_a_reason(game, alice, maud):
    post(client_for(alice), game, "rude")
    before = event_count(game)
    hide(client_for(maud), ChatMessage.objects.get(), reason="")
    assert event_count(game) == before and not ChatMessage.objects.get().hidden


def test_it_lets_no_player_hide(game, alice, bob):
    post(client_for(alice), game, "rude")
    before = event_count(game)
    assert hide(client_for(bob), ChatMessage.objects.get()).status_code == 403
    assert event_count(game) == before and not ChatMessage.objects.get().hidden


def test_it_hides_in_a_finished_game_without_ending_it_again(game, alice, bob, maud):
    post(client_for(alice), game, "gg noob")
    service.submit(service.player(bob), game, {"type": "resign"})
    game.refresh_from_db()
    finished_at, winner = game.finished_at, game.winner
    hide(client_for(maud), ChatMessage.objects.get())
    game.refresh_from_db()
    assert game.status == Game.FINISHED and game.winner == winner
    assert game.finished_at == finished_at
    assert Event.objects.filter(game=game, type="chat_hidden").count() == 1
