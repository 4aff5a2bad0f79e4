"""Tournament mail: each round's mail names the tournament, the round and the table, and
links to the game and the tournament."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string

from accounts.models import preferences_for
from notifications.mail import context_for
from notifications.models import Notification
from tests import people
from tests.people import api_client_for
from tests.tournaments.support import close_signup, create

pytestmark = pytest.mark.django_db


def test_the_round_mail_says_where_to_play():
    players = people.players(4)
    made = create(players[0])
    for player in players:
        api_client_for(player).post(f"/api/v1/tournaments/{made['id']}/join/")
    close_signup(made["id"])
    notification = Notification.objects.get(kind="tournament", user=players[1])

    context = context_for(notification, preferences_for(players[1]))
    text = render_to_string("mail/notification.txt", context)
    html = render_to_string("mail/notification.html", context)

    assert "Round 1 of Spring cup has begun: your game is table 1." in text
    assert f"/tournaments/{made['id']}/" in text and f"/tournaments/{made['id']}/" in html
    assert f"/games/{notification.game_id}/" in text or "/mail/" in text
