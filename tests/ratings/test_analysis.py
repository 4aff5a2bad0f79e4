"""A finished game's analysis (ratings.analysis): computed once, in chunks leased through its
row, at a bounded cost, the same for a game and its seed; GET /api/v1/games/{id}/analysis/
read as stored; nothing of a fogged game before its end; the page's charts and the end
mail's turning point."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from bots import outlook
from games.models import Game
from games.store import log as games_log
from games.store.states import stored_events
from ratings import analysis
from ratings.models import GameAnalysis
from tests import games_in_states
from tests.games.api_support import assert_error
from tests.games_in_states import play_turns
from tests.ratings.support import finished_game, players, started_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def short_playouts(settings, monkeypatch):
    """Few, short play-outs: what is tested is what is done with them."""
    settings.CONQUEST_ANALYSIS_PLAYOUTS = 8
    settings.CONQUEST_ANALYSIS_CHUNK_SECONDS = 0  # a position a chunk
    settings.CONQUEST_ANALYSIS_CPU_SECONDS = 1000
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

    assert row.done_at is not None and row.playouts == 8 and row.state == "done"
    assert row.chunks == len(story.turns)  # a position a chunk: every turn's played out
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


def test_a_copy_of_a_chunks_message_does_nothing():
    alice, bob = players("alice", "bob")
    game = finished_game([alice, bob])
    token = analysis.queue(game.pk)
    assert analysis.queue(game.pk) is None  # opened once, whoever asks

    following = analysis.run_chunk(game.pk, token)

    assert following and following != token
    assert analysis.run_chunk(game.pk, token) is None  # the copy: another token holds it
    assert GameAnalysis.objects.get(game=game).turns_done == 1
    assert analysis.run_chunk(game.pk, following) is not None


def test_a_chunk_claimed_by_another_worker_meanwhile_is_not_saved_over(monkeypatch):
    alice, bob = players("alice", "bob")
    game = finished_game([alice, bob])
    token = analysis.queue(game.pk)
    real = analysis.estimate

    def the_sweep_requeues_it_meanwhile(*args, **kwargs):
        GameAnalysis.objects.filter(game=game).update(state="queued", token="theirs")
        return real(*args, **kwargs)
    monkeypatch.setattr(analysis, "estimate", the_sweep_requeues_it_meanwhile)

    assert analysis.run_chunk(game.pk, token) is None

    row = GameAnalysis.objects.get(game=game)
    assert row.token == "theirs" and row.estimates == [] and row.state == "queued"


def test_the_sweep_queues_each_analysis_once_and_again_only_when_its_lease_lapsed():
    alice, bob = players("alice", "bob")
    lost, running = finished_game([alice, bob]), finished_game([alice, bob], seed=2)
    GameAnalysis.objects.all().delete()  # their messages were lost with the broker
    assert analysis.queue(running.pk)

    first = analysis.sweep()
    again = analysis.sweep()

    assert [game for game, _ in first] == [lost.pk] and again == []
    assert GameAnalysis.objects.get(game=lost).token == first[0][1]
    GameAnalysis.objects.filter(game=running).update(
        state="running", lease_until=timezone.now() - timedelta(seconds=1))  # its worker died
    requeued = analysis.sweep()
    assert [game for game, _ in requeued] == [running.pk]
    assert GameAnalysis.objects.get(game=running).state == "queued"


def test_a_long_game_is_played_out_at_a_bounded_number_of_positions(settings):
    settings.CONQUEST_ANALYSIS_POINTS = 3
    alice, bob, dave = players("alice", "bob", "dave")
    game = finished_game([alice, bob, dave], leave=[dave, bob])
    turns = len(analysis.story_of(game).turns)
    assert turns > 3

    row = analysed(game)

    assert row.chunks == 3 and sorted(row.sampled) == [0, turns // 2, turns - 1] or \
        len(row.sampled) == 3
    assert len(row.chances) == turns + 1 and row.chances[-1] == [1.0, 0.0, 0.0]
    by_index = {index: chances for index, chances, _ in row.estimates}
    assert row.chances[0] == by_index[0]
    assert all(abs(sum(point) - 1) < 1e-9 for point in row.chances)
    assert all(point["index"] - 1 in range(turns) for point in row.turning_points)


def test_the_cpu_ceiling_ends_the_analysis_whatever_is_left(settings):
    settings.CONQUEST_ANALYSIS_CPU_SECONDS = 0  # spent by reading the log: nothing played
    alice, bob, dave = players("alice", "bob", "dave")
    game = finished_game([alice, bob, dave], leave=[dave, bob])

    row = analysed(game)

    assert row.chunks == 1 and row.done_at is not None and row.estimates == []
    assert row.cpu_seconds > 0 and analysis.stored(game.pk).state == "not_analysed"
    assert get(game.pk).json()["status"] == "not_analysed"


def test_with_analysis_off_nothing_is_queued_and_the_api_says_so(settings):
    settings.CONQUEST_ANALYSIS = False
    alice, bob = players("alice", "bob")
    game = finished_game([alice, bob])

    assert analysis.queue(game.pk) is None and analysis.sweep() == []
    answer = get(game.pk)

    assert answer.status_code == 200 and answer.json()["status"] == "off"
    assert answer.json()["turns"] == [] and not GameAnalysis.objects.exists()


def test_a_game_that_ended_in_its_setup_is_analysed_as_nothing_played():
    alice, bob = players("alice", "bob")
    game = started_game([alice, bob], placement_batch=1)
    games_in_states.finish(game, [bob])

    row = analysed(game)
    answer = get(game.pk)

    assert row.done_at is not None and row.chances == []
    assert answer.status_code == 200 and answer.json()["status"] == "not_analysed"


def test_the_api_answers_pending_then_the_analysis_with_the_charts_numbers():
    alice, bob, dave = players("alice", "bob", "dave")
    game = finished_game([alice, bob, dave], leave=[dave, bob])

    pending = get(game.pk)
    assert pending.status_code == 202, pending.content
    assert pending.json()["status"] == "pending" and pending.json()["turns"] == []
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
    assert all(point["played_out"] for point in body["turns"])  # a short game: every turn


def test_the_api_reads_a_finished_games_analysis_as_stored_never_its_log(monkeypatch):
    alice, bob = players("alice", "bob")
    game = finished_game([alice, bob])
    analysed(game)

    def replayed(*args, **kwargs):
        raise AssertionError("the log was read")
    monkeypatch.setattr(analysis, "story_of", replayed)
    answer = get(game.pk)

    assert answer.status_code == 200 and answer.json()["status"] == "done"
    assert len(answer.json()["turns"]) > 1 and "chances" in answer.json()["turns"][-1]


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


def test_a_game_in_the_open_is_charted_from_the_moves_since_the_last_read(monkeypatch):
    """Its story is carried on from what the last read left (ratings.stories), not read
    from the log again on every request."""
    alice, bob = players("alice", "bob")
    game = started_game([alice, bob])
    play_turns(game, 2)
    assert get(game.pk).status_code == 200
    game.refresh_from_db()
    before = game.version
    play_turns(game, 3, seed=2)
    game.refresh_from_db()
    whole = analysis.charts(analysis.story_of(game))["turns"]  # the log read from its start
    read = []
    stored = games_log.stored_events

    def counting(game_, after=0, upto=None, **kwargs):
        found = stored(game_, after, upto, **kwargs)
        read.append((after, len(found)))
        return found
    monkeypatch.setattr(games_log, "stored_events", counting)

    answer = get(game.pk)

    assert answer.status_code == 200 and answer.json()["status"] == "in_play"
    assert read == [(before, game.version - before)], read
    assert answer.json()["turns"] == whole


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
    assert before.count('class="story-sides chart-key"') == 1  # the board charts' key
    row = analysed(game)

    page = client.get(f"/games/{game.pk}/").content.decode()

    assert "win-chart" in page and "armies-chart" in page and "income-chart" in page
    # with no teams the win chance's sides are the players: its key serves every chart
    assert page.count('class="story-sides chart-key"') == 1
    assert page.count('class="chart-line red"') == 1 + 4  # the key's line and four charts'
    assert page.count('class="chart-mark"') == len(row.turning_points)
    assert f"come from at least {row.playouts} games" in page
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



def test_a_game_still_in_its_setup_answers_its_empty_story_not_500():
    alice, bob = players("alice", "bob")
    game = started_game([alice, bob], placement_batch=1)  # armies still placed one by one

    answer = get(game.pk)

    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "in_play" and answer.json()["turns"] == []


def test_the_page_says_not_analysed_rather_than_pending_when_analysis_is_off(client, settings):
    settings.CONQUEST_ANALYSIS = False
    alice, bob = players("alice", "bob")
    game = finished_game([alice, bob])

    page = client.get(f"/games/{game.pk}/").content.decode()

    assert "was not analysed" in page and "being worked out" not in page
