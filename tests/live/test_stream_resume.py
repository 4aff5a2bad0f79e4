"""A stream refuses a Last-Event-ID that is not a whole number, naming the id it wants: a
game event's seq on a game stream, a notice id on the user stream; and one from the future
(beyond the game's version, or the caller's newest notice), whose events would be skipped."""

from __future__ import annotations

from functools import partial

import pytest
from django.db.models import Max
from django.test import AsyncRequestFactory

from accounts.tokens import issue
from games.models import Game
from live import quota, views
from notifications.models import Notification
from tests.games_in_states import started_game
from tests.live.calls import answer_of


@pytest.mark.parametrize("stream, wanted", [
    (partial(views.game_stream, game_id=1), "(a seq)"),
    (views.user_stream, "(a notice id)"),
])
def test_a_bad_last_event_id_is_refused_naming_the_id_it_wants(stream, wanted):
    request = AsyncRequestFactory().get("/api/v1/stream/", headers={"Last-Event-ID": "x1"})

    answer = answer_of(stream, request)

    assert answer.status_code == 400
    assert wanted in answer.content.decode()


def _asked(path: str, user, last_event_id: str):
    return AsyncRequestFactory().get(path, headers={"Authorization": f"Token {issue(user)}",
                                                    "Last-Event-ID": last_event_id})


def test_a_game_stream_resumed_beyond_the_games_version_is_refused(transactional_db, alice,
                                                                   bob):
    game_id = started_game([alice, bob]).pk
    version = Game.objects.get(pk=game_id).version

    beyond = answer_of(views.game_stream, _asked("/", alice, str(version + 100)), game_id)
    then = answer_of(views.game_stream, _asked("/", alice, str(version + 1)), game_id)

    for answer in (beyond, then):
        assert answer.status_code == 400, answer
        assert b"beyond the game's version" in answer.content
    quota.forget(str(alice.pk))


def test_a_user_stream_resumed_beyond_the_newest_notice_is_refused(transactional_db, alice,
                                                                   bob):
    started_game([alice, bob])
    newest = Notification.objects.filter(user=alice).aggregate(m=Max("pk"))["m"] or 0

    answer = answer_of(views.user_stream, _asked("/api/v1/stream/", alice, str(newest + 1)))

    assert answer.status_code == 400
    assert b"beyond your newest notice" in answer.content
    quota.forget(str(alice.pk))
