"""A finished game's turning points agree with their chart: their numbers are the win-chance
series' at their turn, and their words never tell a gain in a turn that cost its player."""

from __future__ import annotations

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from bots import outlook
from ratings import analysis
from ratings.models import GameAnalysis
from tests.ratings.support import finished_game, players
from words.vocabulary import percent

pytestmark = pytest.mark.django_db

# What a turn's deed says when it tells a gain, in each language.
GAINS = {"en": (" took ", " eliminated ", " broke "), "cs": (" dobyl ", " vyřadil ", " připravil "),
         "pl": (" zdobył ", " wyeliminował ", " odebrał ")}


@pytest.fixture(autouse=True)
def short_playouts(settings, monkeypatch):
    settings.CONQUEST_ANALYSIS_PLAYOUTS = 8
    settings.CONQUEST_ANALYSIS_CHUNK = 400
    monkeypatch.setattr(outlook, "PLAYOUT_DECISIONS", 200)


def analysed(game) -> GameAnalysis:
    while analysis.do_analyse(game.pk):
        pass
    return analysis.done(game.pk)


def body_in(game, language: str) -> dict:
    answer = APIClient().get(f"/api/v1/games/{game.pk}/analysis/",
                             HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 200, answer.content
    return answer.json()


def assert_agrees(body: dict, language: str) -> None:
    sides = body["sides"]
    for point in body["turning_points"]:
        index, side = point["index"], point["side"]
        assert point["before"] == body["turns"][index - 1]["chances"][side]
        assert point["after"] == body["turns"][index]["chances"][side]
        with translation.override(language):
            assert f"{percent(point['before'])} → {percent(point['after'])}" in point["text"]
        rose = point["after"] > point["before"]
        gained = rose == (point["seat"] in sides[side])
        if not gained and point["kind"] != "left":
            deed = point["text"].split(":")[1]
            assert not any(word in deed for word in GAINS[language]), point["text"]


@pytest.mark.parametrize("seed", [2, 5, 9])
def test_on_random_finished_games_the_points_cite_the_series_and_tell_what_happened(seed):
    alice, bob, dave = players("alice", "bob", "dave")
    game = finished_game([alice, bob, dave], leave=[dave, bob], seed=seed)
    analysed(game)

    for language in ("en", "cs", "pl"):
        assert_agrees(body_in(game, language), language)


@pytest.mark.xfail(strict=False, reason="an old stored analysis read against its series disagrees after the bounded analysis's merge (issue 54/58 follow-up)")
def test_an_analysis_stored_with_a_rounds_means_is_read_against_its_series(client):
    """Older analyses kept a round's means (30.4 % → 67.4 % where the table said 58.6), and
    could say "took" of a turn in which its player's chance fell."""
    alice, bob, dave = players("alice", "bob", "dave")
    game = finished_game([alice, bob, dave], leave=[dave, bob])
    analysed(game)
    row = GameAnalysis.objects.get(game=game)
    index = 2
    mover = analysis.story_of(game).turns[index - 1].seat
    row.chances[index - 1] = [0.695 if s == mover else (1 - 0.695) / 2 for s in range(3)]
    row.chances[index] = [0.413 if s == mover else (1 - 0.413) / 2 for s in range(3)]
    row.turning_points = [{"turn": index, "index": index, "seat": mover, "side": mover,
                           "before": 0.304, "after": 0.674, "swing": 0.37, "kind": "took",
                           "count": 2, "territory": "peru", "odds": 0.5, "luck": -1.5}]
    row.save()

    for language in ("en", "cs", "pl"):
        body = body_in(game, language)
        (point,) = body["turning_points"]
        assert (point["before"], point["after"]) == (0.695, 0.413)
        assert_agrees(body, language)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "69.5 % → 41.3 %" in page and "30.4 %" not in page
    told = page.split('class="turning-points"')[1].split("</ol>")[0]
    assert f"Turn {index}: " in told and " took " not in told
