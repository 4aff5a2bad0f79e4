"""A finished game's analysis (ratings.analysis): computed once, in chunks, the same for a
game and its seed; GET /api/v1/games/{id}/analysis/; nothing of a fogged game before its end;
the page's charts and the end mail's turning point."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from bots import outlook
from games.models import Game
from games.states import stored_events
from ratings import analysis
from ratings.models import GameAnalysis
from tests.games.api_support import assert_error
from tests.ratings.support import finished_game, play_turns, players, started_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def short_playouts(settings, monkeypatch):
    """Few, short play-outs: what is tested is what is done with them."""
    settings.CONQUEST_ANALYSIS_PLAYOUTS = 8
    settings.CONQUEST_ANALYSIS_CHUNK = 16
    monkeypatch.setattr(outlook, "PLAYOUT_DECISIONS", 200)


def analysed(game: Game) -> GameAnalysis:
    chunks = 1
    while analysis.do_analyse(game.pk):
        chunks += 1
    row = GameAnalysis.objects.get(game=game)
    row.chunks = chunks
    return row


def get(game_id, client=None):
    return (client or APIClient()).get(f"/api/v1/games/{game_id}/analysis/")


def test_it_estimates_every_turn_in_chunks_and_ends_on_the_result():
    alice, bob, dave = players("alice", "bob", "dave")
    game = finished_game([alice, bob, dave], leave=[dave, bob])
    story = analysis.story_of(game)

    row = analysed(game)

    assert row.done_at is not None and row.playouts == 8
    assert row.chunks == -(-len(story.turns) // 2)  # 16 play-outs a chunk: two turns
    assert len(row.chances) == len(story.turns) + 1
    assert row.chances[-1] == [1.0, 0.0, 0.0]  # alice (seat 0) won
    assert all(abs(sum(point) - 1) < 1e-9 for point in row.chances)
    assert 1 <= len(row.turning_points) <= 3
    assert all("luck" in point for point in row.turning_points)
    assert analysis.do_analyse(game.pk) is False  # computed once


def test_the_same_game_and_seed_give_the_same_analysis():
    alice, bob, dave = players("alice", "bob", "dave")
    game = finished_game([alice, bob, dave], leave=[dave, bob])
    first = analysed(game)
    chances, points = first.chances, first.turning_points
    first.delete()

    again = analysed(game)

    assert again.chances == chances and again.turning_points == points


def test_a_chunk_saved_by_another_worker_meanwhile_is_not_saved_over(monkeypatch):
    alice, bob = players("alice", "bob")
    game = finished_game([alice, bob])
    analysis.do_analyse(game.pk)
    row = GameAnalysis.objects.get(game=game)
    theirs = [*row.chances, [0.25, 0.75], [0.25, 0.75]]
    real = analysis.estimate

    def another_worker_saves_first(*args):
        GameAnalysis.objects.filter(game=game).update(chances=theirs, turns_done=len(theirs))
        return real(*args)
    monkeypatch.setattr(analysis, "estimate", another_worker_saves_first)

    analysis.do_analyse(game.pk)

    assert GameAnalysis.objects.get(game=game).chances == theirs


def test_the_api_answers_pending_then_the_analysis_with_the_charts_numbers():
    alice, bob, dave = players("alice", "bob", "dave")
    game = finished_game([alice, bob, dave], leave=[dave, bob])

    pending = get(game.pk)
    assert pending.status_code == 202, pending.content
    assert pending.json()["status"] == "pending"
    analysed(game)
    answer = get(game.pk)

    assert answer.status_code == 200
    body = answer.json()
    story = analysis.story_of(game)
    assert body["status"] == "done" and body["playouts"] == 8 and body["margin"] == 34.6
    assert len(body["turns"]) == len(story.turns) + 1
    last = story.turns[-1]
    assert body["turns"][-1]["territories"] == last.territories
    assert body["turns"][-1]["armies"] == last.armies
    assert body["turns"][-1]["chances"] == [1.0, 0.0, 0.0]
    assert body["turns"][0]["seat"] is None and body["turns"][1]["seat"] == story.turns[0].seat
    assert body["names"] == {"0": "alice", "1": "bob", "2": "dave"}
    assert all(point["text"].startswith(f"Turn {point['turn']}: ")
               for point in body["turning_points"])


def test_a_fogged_game_shows_nothing_before_its_end_and_an_open_one_shows_its_charts():
    alice, bob = players("alice", "bob")
    fogged = started_game([alice, bob], fog=True)
    play_turns(fogged, 1)
    client = APIClient()
    client.force_authenticate(alice)

    refused = get(fogged.pk, client)

    assert_error(refused, 409, "game_not_finished")
    assert "fog" in refused.json()["detail"]
    open_game = started_game([alice, bob])
    play_turns(open_game, 1)
    answer = get(open_game.pk)
    assert answer.status_code == 200 and answer.json()["status"] == "in_play"
    assert "chances" not in answer.json()["turns"][-1]
    assert_error(get(999999), 404, "not_found")


def test_a_fogged_game_is_analysed_and_shown_once_over():
    alice, bob, dave = players("alice", "bob", "dave")
    game = finished_game([alice, bob, dave], leave=[dave, bob], fog=True)
    analysed(game)

    answer = get(game.pk)

    assert answer.status_code == 200 and answer.json()["status"] == "done"


def test_the_game_page_draws_the_charts_and_the_win_chance_with_its_turning_points(client):
    alice, bob, dave = players("alice", "bob", "dave")
    game = finished_game([alice, bob, dave], leave=[dave, bob])
    before = client.get(f"/games/{game.pk}/").content.decode()
    assert "territories-chart" in before and "win-chart" not in before
    assert "being worked out" in before
    row = analysed(game)

    page = client.get(f"/games/{game.pk}/").content.decode()

    assert "win-chart" in page and "armies-chart" in page and "income-chart" in page
    assert page.count('class="chart-mark"') == len(row.turning_points)
    assert f"come from {row.playouts} games" in page
    for point in row.turning_points:
        assert f"Turn {point['turn']}: " in page


def test_the_page_of_a_fogged_game_in_play_says_its_charts_come_at_the_end(client):
    alice, bob = players("alice", "bob")
    game = started_game([alice, bob], fog=True)
    play_turns(game, 1)
    client.force_login(alice)

    page = client.get(f"/games/{game.pk}/").content.decode()

    assert "shown once it is over" in page and "territories-chart" not in page


def test_a_game_in_the_open_charts_its_turns_so_far_and_the_history_view_up_to_its_move(
        client):
    alice, bob = players("alice", "bob")
    game = started_game([alice, bob])
    play_turns(game, 2)
    client.force_login(alice)
    story = analysis.story_of(game)
    first_turn_over = next(e.seq for e in stored_events(game)
                           if e.type == "turn_started" and e.data["turn"] == 2)

    page = client.get(f"/games/{game.pk}/").content.decode()
    past = client.get(f"/games/{game.pk}/?at={first_turn_over}").content.decode()

    assert "territories-chart" in page and "win-chart" not in page
    assert f"<th scope=\"row\">{story.turns[-1].turn}</th>" in page
    assert "<th scope=\"row\">1</th>" in past and "<th scope=\"row\">2</th>" in past
    assert "<th scope=\"row\">3</th>" not in past

