"""A player who sits a round out (a bye: two seats a table, an odd count) hears of it: an
entry in the site's notification list and a mail (unless their preferences say no game
mail), saying they go through (knockout) or score a win's points (round robin)."""

from __future__ import annotations

import pytest
from django.core import mail

from accounts.models import Preferences
from notifications import delivery
from notifications.models import Notification
from tests import people
from tests.people import api_client_for
from tests.tournaments.support import close_signup, create
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


def _drawn(count: int, **fields):
    players = people.players(count)
    made = create(players[0], **fields)
    for player in players:
        assert api_client_for(player).post(f"/api/v1/tournaments/{made['id']}/join/").status_code == 200
    return made["id"], players


def _bye_player(tournament_id: int, round_number: int):
    entry = next(e for e in Entry.objects.filter(tournament_id=tournament_id).select_related("user")
                 if round_number in e.byes)
    return entry.user


def _listed_texts(user) -> list[str]:
    body = api_client_for(user).get("/api/v1/notifications/").json()
    return [row["text"] for row in body["results"]]


def test_a_knockout_bye_is_told_on_the_site_and_by_mail():
    tournament_id, players = _drawn(3, seats=2, advance=1)
    close_signup(tournament_id)
    lucky = _bye_player(tournament_id, 1)

    news = Notification.objects.get(kind="tournament", payload__what="bye")
    assert news.user == lucky and news.payload["round"] == 1
    sentence = ("You have a bye in round 1 of Spring cup: you go through to the next round "
                "without a game.")
    assert sentence in _listed_texts(lucky)
    assert delivery.send_one(news.pk) == "sent"
    message = mail.outbox[-1]
    assert message.to == [lucky.email]
    assert sentence in message.body
    assert f"/tournaments/{tournament_id}/" in message.body
    # The seated players hear of their table, not of a bye.
    for player in players:
        if player != lucky:
            assert not any("bye" in text for text in _listed_texts(player))


def test_a_round_robin_bye_says_what_it_scores():
    tournament_id, _ = _drawn(5, format="round_robin", seats=2, rounds=3)
    close_signup(tournament_id)
    lucky = _bye_player(tournament_id, 1)

    sentence = ("You sit out round 1 of Spring cup (a bye): it counts as a win, 1 point.")
    assert sentence in _listed_texts(lucky)
    news = Notification.objects.get(kind="tournament", payload__what="bye", user=lucky)
    assert delivery.send_one(news.pk) == "sent"
    assert sentence in mail.outbox[-1].body
    (html, _), = mail.outbox[-1].alternatives
    assert sentence in html


def test_a_bye_is_not_mailed_to_who_wants_no_game_mail():
    players = people.players(3)
    for player in players:
        Preferences.objects.update_or_create(user=player, defaults={"game_mail": False})
    made = create(players[0], seats=2, advance=1)
    for player in players:
        api_client_for(player).post(f"/api/v1/tournaments/{made['id']}/join/")
    close_signup(made["id"])
    lucky = _bye_player(made["id"], 1)

    news = Notification.objects.get(kind="tournament", payload__what="bye")
    assert delivery.send_one(news.pk) == "skipped"
    assert not mail.outbox
    assert any("You have a bye" in text for text in _listed_texts(lucky))  # still on the site


def test_the_bye_is_told_in_czech_and_polish():
    from django.utils import translation

    from notifications.notices import text_of

    tournament_id, _ = _drawn(5, format="round_robin", seats=2, rounds=3)
    close_signup(tournament_id)
    news = Notification.objects.get(kind="tournament", payload__what="bye")
    with translation.override("cs"):
        assert "(volný los): počítá se jako výhra, 1 bod." in text_of(news)
    with translation.override("pl"):
        assert "(wolny los): liczy się to jak wygrana, 1 punkt." in text_of(news)
