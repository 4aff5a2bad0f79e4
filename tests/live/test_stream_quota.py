"""Open streams are counted across the site's server processes, not per process: a lease
per stream, in Redis when the streams have it, else in the database, renewed while the
stream is open; those of a process that died lapse."""

from __future__ import annotations

import pytest
from django.test import AsyncRequestFactory

from accounts.tokens import issue
from live import quota, views
from tests.live.calls import answer_of


@pytest.fixture(params=["database", "redis"])
def store(request, settings, db):
    """Where the leases are kept; Redis only where the streams have it (the server pass)."""
    if request.param == "redis":
        if not settings.CONQUEST_STREAM_REDIS_URL:
            pytest.skip("the streams have no Redis here")
    else:
        settings.CONQUEST_STREAM_REDIS_URL = ""
    yield request.param
    quota.forget("alice-test", "bob-test")


def test_it_refuses_a_lease_past_the_cap_wherever_the_others_were_taken(store):
    held = [quota.take("alice-test", 2, now=100.0) for _ in range(2)]

    assert all(held)
    assert quota.take("alice-test", 2, now=101.0) is None
    assert quota.take("bob-test", 2, now=101.0) is not None  # another's count


def test_a_lease_given_back_frees_its_place(store):
    first = quota.take("alice-test", 1, now=100.0)
    quota.give_back(first)

    assert quota.take("alice-test", 1, now=101.0) is not None


def test_a_lease_nobody_renews_lapses_and_a_renewed_one_holds(store):
    kept = quota.take("alice-test", 2, now=100.0)
    quota.take("alice-test", 2, now=100.0)
    quota.renew([kept], now=100.0 + quota.LEASE_SECONDS - 1)

    later = 100.0 + quota.LEASE_SECONDS + 1
    assert quota.take("alice-test", 2, now=later) is not None  # the other lapsed
    assert quota.take("alice-test", 2, now=later) is None


def test_a_stream_past_the_cap_held_elsewhere_is_refused_with_429(
        store, transactional_db, alice, settings):
    settings.CONQUEST_STREAMS_PER_USER = 1
    quota.take(str(alice.pk), 1)  # a stream open on another process
    request = AsyncRequestFactory().get(
        "/api/v1/stream/", headers={"Authorization": f"Token {issue(alice)}"})

    answer = answer_of(views.user_stream, request)

    assert answer.status_code == 429
    assert b"too_many_streams" in answer.content
    quota.forget(str(alice.pk))


def test_a_stream_refused_after_its_lease_was_taken_gives_it_back(store, transactional_db,
                                                                  settings):
    settings.CONQUEST_STREAMS_PER_USER = 1
    signed_out = [answer_of(views.user_stream, AsyncRequestFactory().get("/api/v1/stream/"))
                  for _ in range(3)]
    no_game = [answer_of(views.game_stream, AsyncRequestFactory().get("/"), 999999)
               for _ in range(3)]

    assert [a.status_code for a in signed_out] == [401] * 3
    assert [a.status_code for a in no_game] == [404] * 3
    quota.forget("address:127.0.0.1")
