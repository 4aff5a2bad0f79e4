"""A stream refuses a Last-Event-ID that is not a whole number, naming the id it wants: a
game event's seq on a game stream, a notice id on the user stream."""

from __future__ import annotations

from functools import partial

import pytest
from django.test import AsyncRequestFactory

from live import views
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
