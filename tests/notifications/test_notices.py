"""notifications/notices.py and its page and API: the site's notification list, the unread
count in every page's header, chat mentions, and the game page's tab title."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.store.states import load_state
from moderation.chat import post_message
from notifications.models import Notification
from tests.notifications.support import place_setup, rows, started, user_at
from tests.people import client_for, token_client_for, user


@pytest.fixture
def mover(game):
    """Whoever plays first (the draw depends on the game's id): the game started, and it
    is their move."""
    return user_at(game, load_state(game).current)


def header_count(page: str) -> int | None:
    found = re.search(r'id="inbox-link">[^<]*<span class="unread-count">(\d+)', page)
    return int(found[1]) if found else None


def test_every_page_shows_the_unread_count_in_the_header(game, mover):
    for path in ("/", "/games/", "/accounts/profile/", "/leaderboard/", "/tournaments/"):
        page = client_for(mover).get(path).content.decode()
        assert header_count(page) == 2, path  # the game started, and its move
    assert 'id="inbox-link"' not in Client().get("/").content.decode()


def test_the_api_lists_the_entries_and_marks_them_read(game, mover):
    answer = token_client_for(mover).get("/api/v1/notifications/")

    assert answer.status_code == 200
    body = answer.json()
    assert body["unread"] == 2
    assert {e["text"] for e in body["results"]} == {"Moscow 1812 has started",
                                                   "Your move in Moscow 1812"}
    assert all(e["url"] == f"/games/{game.pk}/" and not e["read"] for e in body["results"])

    first = body["results"][0]["id"]
    read = token_client_for(mover).post("/api/v1/notifications/read/", {"ids": [first]}, format="json")
    assert read.json()["unread"] == 1
    assert token_client_for(mover).post("/api/v1/notifications/read/", {}, format="json").json()[
        "unread"] == 0


@pytest.mark.parametrize("body", [{"ids": "all"}, {"ids": [True]}, {"ids": ["1"]},
                                  {"ids": [2**70]}, [1, 2]])
def test_the_api_refuses_bad_ids_and_changes_nothing(game, mover, body):
    answer = token_client_for(mover).post("/api/v1/notifications/read/", body, format="json")

    assert answer.status_code == 400
    assert set(answer.json()) == {"error", "detail"}
    assert token_client_for(mover).get("/api/v1/notifications/").json()["unread"] == 2


def test_the_api_asks_for_sign_in_and_marks_nobody_elses(game, mover, alice, bob):
    assert APIClient().get("/api/v1/notifications/").status_code == 401
    other = bob if mover == alice else alice
    theirs = [e["id"] for e in token_client_for(other).get("/api/v1/notifications/").json()["results"]]

    token_client_for(mover).post("/api/v1/notifications/read/", {"ids": theirs}, format="json")

    assert token_client_for(other).get("/api/v1/notifications/").json()["unread"] == len(theirs)


def test_the_page_lists_them_and_marks_them_read(game, mover):
    client = client_for(mover)
    page = client.get("/notifications/").content.decode()
    assert "Your move in Moscow 1812" in page and 'class="unread"' in page

    answer = client.post("/notifications/read/")

    assert answer.status_code == 302
    page = client.get("/notifications/").content.decode()
    assert 'class="unread"' not in page and header_count(page) is None


def test_a_games_turn_entries_count_once(game, alice):
    place_setup(game)  # a placement turn each time: a "your move" row every time
    assert len(rows(game, kind=Notification.TURN, user=alice)) >= 3

    texts = [e["text"] for e in token_client_for(alice).get("/api/v1/notifications/").json()["results"]]

    assert texts.count("Your move in Moscow 1812") == 1


def test_a_mention_reaches_the_player_named_and_nobody_else(game, alice, bob):
    post_message(game, alice, "well played @Bob. and @alice and @nobody")

    entries = token_client_for(bob).get("/api/v1/notifications/").json()["results"]
    mention = next(e for e in entries if e["kind"] == "mention")
    assert mention["text"] == "alice mentioned you in Moscow 1812"
    assert mention["url"] == f"/games/{game.pk}/#chat"
    assert "well played" not in str(entries)  # the line itself may be hidden later
    assert not Notification.objects.filter(kind=Notification.MENTION, user=alice).exists()
    row = Notification.objects.get(kind=Notification.MENTION)
    assert row.sent_at is not None  # never mailed


def test_a_team_line_mentions_only_its_team(db):
    alice, bob, carol, dave = (user(n) for n in ("alice", "bob", "carol", "dave"))
    game = started(alice, bob, carol, dave, team_size=2)
    seats = {u.username: load_state(game).team_of(s) for s, u in
             ((s, user_at(game, s)) for s in range(4))}
    mate = next(n for n in ("bob", "carol", "dave") if seats[n] == seats["alice"])
    rival = next(n for n in ("bob", "carol", "dave") if seats[n] != seats["alice"])

    post_message(game, alice, f"@{mate} @{rival} go", team=True)

    named = set(Notification.objects.filter(kind=Notification.MENTION)
                .values_list("user__username", flat=True))
    assert named == {mate}


def test_the_game_page_title_says_your_move_to_whom_the_game_waits_for(game, alice, bob):
    state = load_state(game)
    mover, other = user_at(game, state.current), user_at(game, 1 - state.current)

    title = re.search(r"<title>(.*?)</title>", client_for(mover).get(f"/games/{game.pk}/")
                      .content.decode())[1]
    assert title.startswith("Your move · Moscow 1812")
    title = re.search(r"<title>(.*?)</title>", client_for(other).get(f"/games/{game.pk}/")
                      .content.decode())[1]
    assert "Your move" not in title
    live = client_for(mover).get(f"/games/{game.pk}/live/", HTTP_HX_REQUEST="true").content.decode()
    assert 'data-title="Your move · Moscow 1812' in live


def test_a_mention_is_never_mailed_even_if_a_worker_is_handed_it(game, alice, bob):
    from notifications import mail as mails

    post_message(game, alice, "@bob hello")
    row = Notification.objects.get(kind=Notification.MENTION)

    assert mails.render(row) is None
