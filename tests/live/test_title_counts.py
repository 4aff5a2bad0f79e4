"""Every page's "(N) Your move" follows the user stream, in a real browser at a laptop's and
a phone's size, served as `make run` serves it: alice has the lobby, home and her profile
open; when her move is made (by her, in another tab, or by the clock) the count goes down
at once, with no notice to bring it, and comes back when bob hands her the next move; the
header's badge of unread notifications drops when she reads them elsewhere."""

from __future__ import annotations

import pytest

from accounts import tokens
from engine.moves import seats_to_act
from games.models import Seat
from notifications import notices
from tests.live.test_counters import opened, shows
from tests.people import with_password
from tests.play import play_until
from tests.web.support import started_game

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"laptop": (1366, 768), "phone": (390, 844)}


def next_moves(stream) -> dict:
    kind, _, data = stream.next()
    while kind != "moves":
        kind, _, data = stream.next()
    return data


def sized(page, size):
    page.set_viewport_size({"width": size[0], "height": size[1]})
    return page


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
def test_the_titles_follow_her_moves_both_ways(browser, contexts, stream_server, size):
    base = f"http://127.0.0.1:{stream_server.port}"
    alice, bob = with_password("alice"), with_password("bob")
    game = started_game([alice, bob])
    alice_seat = Seat.objects.get(game=game, user=alice).seat
    play_until(game, None, lambda s: seats_to_act(s) == [alice_seat])
    lobby = sized(opened(browser, contexts, base, alice, "/games/"), size)
    home = sized(opened(browser, contexts, base, alice, "/"), size)
    profile = sized(opened(browser, contexts, base, alice, "/accounts/profile/"), size)
    for page in (lobby, home, profile):
        assert page.title().startswith("(1) Your move · "), page.title()
    assert home.locator("#home-games li.your-turn").count() == 1
    assert lobby.locator("#my-games tr.your-turn").count() == 1

    # Her move made elsewhere (another tab, the API): no notice comes to her of it.
    play_until(game, None, lambda s: seats_to_act(s) == [1 - alice_seat])
    for page in (lobby, home, profile):
        assert shows(page, lambda page=page: not page.title().startswith("(")), \
            f"the title kept its count: {page.title()!r}"
    assert lobby.title().endswith("Games — Conquest")
    assert shows(lobby, lambda: lobby.locator("#my-games tr.your-turn").count() == 0)
    assert shows(home, lambda: home.locator("#home-games li.your-turn").count() == 0)
    assert "waiting for your move" not in home.locator("#home-welcome").inner_text()

    play_until(game, None, lambda s: seats_to_act(s) == [alice_seat])  # bob's turn done
    for page in (lobby, home, profile):
        assert shows(page, lambda page=page: page.title().startswith("(1) Your move · ")), \
            f"the title never said it was her move again: {page.title()!r}"
    assert shows(home, lambda: "1 game is waiting for your move" in (
        home.locator("#home-welcome").inner_text()))
    # Her notices read elsewhere (the list in another tab): the header's badge drops on
    # every page, by the stream's next look (a heartbeat), with no notice to bring it.
    assert notices.unread_count(alice) > 0
    for page in (lobby, home, profile):
        assert shows(page, lambda page=page: page.locator("#inbox-link .unread-count").count())
    notices.mark_read(alice)
    for page in (lobby, home, profile):
        assert shows(page, lambda page=page: page.locator(
            "#inbox-link .unread-count").count() == 0, within=30), "the badge stayed"
    for page in (lobby, home, profile):
        assert page.evaluate("performance.getEntriesByType('navigation').length") == 1


def test_the_stream_tells_pages_only_of_moves(stream_server, django_db_setup):
    """`event: moves` is the pages' (?moves=1): a program's stream hears notices alone."""
    alice, bob = with_password("alice"), with_password("bob")
    game = started_game([alice, bob])
    alice_seat = Seat.objects.get(game=game, user=alice).seat
    play_until(game, None, lambda s: seats_to_act(s) == [alice_seat])
    token = tokens.issue(alice)
    pages = stream_server.open("/api/v1/stream/?moves=1", token)
    unread = notices.unread_count(alice)
    assert next_moves(pages) == {"count": 1, "games": [game.pk], "unread": unread,
                                 "messages": 0}
    program = stream_server.open("/api/v1/stream/", token)
    play_until(game, None, lambda s: seats_to_act(s) == [1 - alice_seat])
    assert games_in(next_moves(pages)) == (0, [])
    play_until(game, None, lambda s: seats_to_act(s) == [alice_seat])
    moves = next_moves(pages)
    while games_in(moves) != (1, [game.pk]):  # her notices may be counted before
        moves = next_moves(pages)
    assert moves["unread"] == notices.unread_count(alice) > 0
    kinds, data = [], {"pending": True}
    while data.get("pending"):  # what she owed as it opened, then bob's move's notice
        kind, _, data = program.next()
        kinds.append(kind)
    assert set(kinds) == {"notice"} and data["kind"] == "your_move"
    # She reads her notices elsewhere (another tab, the game's page): no notice comes, and
    # the pages' header badge drops all the same (at the stream's next look, a heartbeat).
    notices.mark_read(alice)
    moves = next_moves(pages)
    while moves["unread"]:
        moves = next_moves(pages)
    assert games_in(moves) == (1, [game.pk]) and moves["messages"] == 0
    pages.close()
    program.close()


def games_in(moves: dict) -> tuple[int, list[int]]:
    return moves["count"], moves["games"]
