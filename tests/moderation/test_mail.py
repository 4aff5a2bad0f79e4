"""Table talk in the turn mail: recent visible lines, escaped in the HTML part; a moderator's
action mailed to the table in the narrator's words."""

from __future__ import annotations

from datetime import timedelta

from accounts.models import Preferences
from games.moderation import moderate
from moderation.chat import hide_message, post_message
from notifications.mail import render
from notifications.models import Notification


def turn_mail(game, user):
    notification = Notification.objects.filter(game=game, user=user,
                                               kind=Notification.TURN).order_by("-id").first()
    message = render(notification)
    return message.body, message.alternatives[0][0]


def test_it_puts_recent_chat_lines_in_the_turn_mail(game, alice, bob, maud):
    state_seat = game.current_seat
    players = {0: alice, 1: bob}
    post_message(game, alice, "Hello <b>there</b>\nsecond line")
    rude = post_message(game, bob, "rude words")
    hide_message(rude, maud, "insult")
    moderate(game, maud, "end_turn", "absent")  # a new turn mail for the other player
    game.refresh_from_db()
    receiver = players[game.current_seat]
    assert game.current_seat != state_seat
    text, html = turn_mail(game, receiver)
    assert "Table talk:" in text and "- alice: Hello <b>there</b> second line" in text
    assert "alice: Hello &lt;b&gt;there&lt;/b&gt; second line" in html
    assert "<b>there</b>" not in html
    assert "rude words" not in text and "rude words" not in html


def test_it_leaves_chat_out_of_other_mails_and_quiet_games(game, alice):
    text, _ = turn_mail(game, alice if game.current_seat == 0 else game.seats.get(seat=1).user)
    assert "Table talk" not in text


def moderated_mail(game, user):
    notification = Notification.objects.get(game=game, user=user, kind=Notification.MODERATED)
    message = render(notification)
    return message.body, message.alternatives[0][0]


def test_a_moderator_s_action_is_mailed_in_the_game_log_s_words(game, alice, maud):
    moderate(game, maud, "pause", "a <b>break</b>")

    text, html = moderated_mail(game, alice)

    assert "Moderator maud paused the game.\nReason: a <b>break</b>" in text
    assert "<p>Moderator maud paused the game.</p><p>Reason: a &lt;b&gt;break&lt;/b&gt;</p>" in html


def test_a_moderator_s_action_is_mailed_in_the_reader_s_language(game, alice, maud):
    Preferences.objects.update_or_create(user=alice, defaults={"language": "cs"})
    moderate(game, maud, "extend_deadline", "holiday", until=game.deadline + timedelta(days=1))

    text, _ = moderated_mail(game, alice)

    assert text.splitlines()[2].startswith("Moderátor maud prodloužil")
