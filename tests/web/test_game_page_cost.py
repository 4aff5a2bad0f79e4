"""What the game page reads of a long log (issue 54): a page of events told in words, never
the whole log; a finished game's parts worked out once and read back; the history paged;
what a seat sees kept apart from what anyone else sees; visitors' reads limited."""

from __future__ import annotations

import re

import pytest

import engine
from games import service
from games.models import Event, Game
from games.store import log as games_log
from tests.people import client_for
from tests.play import play_until
from tests.web.support import started_game
from web import game_log
from web.page.log_page import PAGE
from web.tasks import draw_finished_page

SNAPSHOT_EVERY = 20


@pytest.fixture
def reads(monkeypatch, settings):
    """What the pages read: events read from the log, events told in words, finished games'
    dice checked. Snapshots are taken every SNAPSHOT_EVERY events (a state costs as few)."""
    settings.CONQUEST_SNAPSHOT_EVERY = SNAPSHOT_EVERY
    counted = {"read": 0, "told": 0, "verified": 0}
    rows, describe, verify = games_log._event_rows, game_log.describe, engine.verify

    def counting_rows(*args, **kwargs):
        found = rows(*args, **kwargs)
        counted["read"] += len(found)
        return found

    def counting_describe(*args, **kwargs):
        counted["told"] += 1
        return describe(*args, **kwargs)

    def counting_verify(*args, **kwargs):
        counted["verified"] += 1
        return verify(*args, **kwargs)

    monkeypatch.setattr(games_log, "_event_rows", counting_rows)
    monkeypatch.setattr(game_log, "describe", counting_describe)
    monkeypatch.setattr(engine, "verify", counting_verify)
    return counted


def _zero(counted: dict) -> None:
    counted.update(dict.fromkeys(counted, 0))


def _shown_seqs(html: str) -> list[int]:
    return [int(seq) for seq in re.findall(r'<li class="event [^"]*" value="(\d+)"', html)]


@pytest.fixture
def long_game(alice, bob, charlie, reads):
    game = started_game([alice, bob, charlie], setup="random")
    play_until(game, [alice, bob, charlie], lambda s: s.version >= 8 * PAGE)
    game.refresh_from_db()
    return game


def test_it_reads_and_tells_a_page_of_a_long_games_log_not_all_of_it(alice, bob, charlie,
                                                                      long_game, client,
                                                                      reads):
    client.get(f"/games/{long_game.pk}/")  # the game's story read once
    version = long_game.version
    play_until(long_game, [alice, bob, charlie], lambda s: s.version > version, seed=2)
    _zero(reads)
    answer = client.get(f"/games/{long_game.pk}/")

    assert answer.status_code == 200
    assert len(_shown_seqs(answer.content.decode())) == PAGE
    assert reads["told"] <= PAGE, reads
    # The page's events, the states before them and now (a snapshot and a few events
    # each), the story carried on with the moves since the last view.
    assert reads["read"] <= PAGE + 3 * SNAPSHOT_EVERY < long_game.version / 2, reads

    _zero(reads)
    older = client.get(f"/games/{long_game.pk}/?log={3 * PAGE}")  # a page further back
    assert older.status_code == 200
    assert reads["told"] <= 2 * PAGE and reads["read"] <= 2 * PAGE + 3 * SNAPSHOT_EVERY, reads


def test_the_history_view_stepping_forward_reads_the_moves_since(long_game, client, reads):
    client.get(f"/games/{long_game.pk}/")  # the present's story read
    client.get(f"/games/{long_game.pk}/?at={4 * PAGE}")  # and that of a past move
    _zero(reads)

    answer = client.get(f"/games/{long_game.pk}/?at={4 * PAGE + 1}")  # one step on

    assert answer.status_code == 200 and _shown_seqs(answer.content.decode())[0] == 4 * PAGE + 1
    assert reads["told"] <= PAGE and reads["read"] <= PAGE + 3 * SNAPSHOT_EVERY, reads


def test_a_running_games_history_is_paged_with_links_to_older_moves(long_game, client):
    version = long_game.version
    html = client.get(f"/games/{long_game.pk}/").content.decode()

    assert _shown_seqs(html) == list(range(version, version - PAGE, -1))
    older = re.search(r'class="log-older" href="\?log=(\d+)#log"', html)
    assert older and int(older.group(1)) == version - PAGE
    assert "log-newer" not in html and "log-newest" not in html

    html = client.get(f"/games/{long_game.pk}/?log={older.group(1)}").content.decode()
    assert _shown_seqs(html) == list(range(version - PAGE, version - 2 * PAGE, -1))
    assert "log-newest" in html and "log-older" in html

    first = client.get(f"/games/{long_game.pk}/?log={PAGE}").content.decode()
    assert _shown_seqs(first) == list(range(PAGE, 0, -1))
    assert "The game started. Turn order:" in first and "log-older" not in first

    # A past move's page: its log ends at that move, and its links keep it.
    past = client.get(f"/games/{long_game.pk}/?at={3 * PAGE}").content.decode()
    assert _shown_seqs(past)[0] == 3 * PAGE
    assert f'href="?at={3 * PAGE}&amp;log={2 * PAGE}#log"' in past


def test_a_finished_games_page_is_worked_out_once_and_read_back(alice, bob, as_alice, client,
                                                                 reads):
    game = started_game([alice, bob], setup="random")
    play_until(game, [alice, bob], lambda s: s.turn >= 6)
    service.submit(service.player(bob), game, {"type": "resign"})
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    first = as_alice.get(f"/games/{game.pk}/").content.decode()
    assert reads["verified"] == 1

    _zero(reads)
    second = client.get(f"/games/{game.pk}/").content.decode()  # someone else, signed out

    assert reads == {"read": reads["read"], "told": 0, "verified": 0}
    assert reads["read"] < SNAPSHOT_EVERY  # the state now (a snapshot and what follows it)
    assert "Verified: the seed matches its hash" in second and game.seed in second

    def summary(page):
        return page.split('id="summary-title"', 1)[1].split("</section>", 1)[0]

    assert summary(first) == summary(second)
    assert _shown_seqs(first) == _shown_seqs(second)
    # What is the viewer's own stays theirs: alice's headline is not the visitor's.
    assert "You won" in first and "You won" not in second


def test_a_finished_games_page_is_drawn_ahead_by_the_analysis_worker(
        alice, bob, client, reads, monkeypatch, django_capture_on_commit_callbacks, settings):
    """A long game's first view cost its web process seconds: the game's end queues its
    page's parts on the analysis queue, drawn there once in every language, so that even
    the first view of it, in any language, checks no dice and reads no more than a
    running game's page (the log's last page, told in words, and the state now)."""
    game = started_game([alice, bob], setup="random")
    play_until(game, [alice, bob], lambda s: s.turn >= 6)
    queued = []
    monkeypatch.setattr("lib.publish.publish_later",
                        lambda task, args=(), countdown=0: queued.append((task, args)))
    with django_capture_on_commit_callbacks(execute=True):
        service.submit(service.player(bob), game, {"type": "resign"})
    (drawn,) = [(task, args) for task, args in queued if task is draw_finished_page]
    assert drawn[1] == (game.pk,)
    assert settings.CELERY_TASK_ROUTES[drawn[0].name] == {"queue": "analysis"}
    _zero(reads)

    assert drawn[0](*drawn[1]) is True  # as the worker runs it
    assert reads["verified"] == 1  # the dice checked once, for all the languages

    for language in ("en", "cs", "pl"):
        _zero(reads)
        page = client.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE=language)
        assert page.status_code == 200
        assert reads["verified"] == 0, (language, reads)
        assert reads["told"] <= PAGE and reads["read"] < PAGE + SNAPSHOT_EVERY, (language, reads)
    assert draw_finished_page(12345678) is False  # no such finished game: nothing to draw


def test_a_seats_page_kept_in_the_cache_is_never_shown_to_anyone_else(alice, bob, charlie,
                                                                     client):
    game = started_game([alice, bob], setup="random")
    play_until(game, [alice, bob], lambda s: len(s.players[0].cards) >= 1)
    drawn = Event.objects.filter(game=game, type="card_drawn", data__seat=0).latest("seq")

    def line(page: str) -> str:
        found = re.search(rf'<li class="event card_drawn[^"]*" value="{drawn.seq}">(.*?)</li>',
                          page, re.S)
        assert found, drawn.seq
        return found.group(1)

    url = f"/games/{game.pk}/"
    assert "drew a card." in line(client.get(url).content.decode())  # a visitor first
    assert "drew a card:" in line(client_for(alice).get(url).content.decode())  # hers
    for other in (client, client_for(bob), client_for(charlie)):
        told = line(other.get(url).content.decode())
        assert "drew a card:" not in told and "drew a card." in told


def test_visitors_reading_game_pages_too_fast_are_refused_for_a_while(alice, bob, as_alice,
                                                                      client, settings):
    settings.CONQUEST_THROTTLE_RATES = {**settings.CONQUEST_THROTTLE_RATES,
                                        "game_page_ip": "2/minute"}
    game = started_game([alice, bob], setup="random")
    url = f"/games/{game.pk}/"

    assert [client.get(url).status_code for _ in range(2)] == [200, 200]
    refused = client.get(url)
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert client.get(f"{url}board/").status_code == 429
    # A player signed in is not counted.
    assert [as_alice.get(url).status_code for _ in range(3)] == [200, 200, 200]
