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
# What a turn's deed says when its player took nothing: a setback, though it names the verb.
NOTHING = {"en": " took no territory", "cs": " nedobyl žádné území",
           "pl": " nie zdobył żadnego terytorium"}


@pytest.fixture(autouse=True)
def short_playouts(settings, monkeypatch):
    settings.CONQUEST_ANALYSIS_PLAYOUTS = 8
    settings.CONQUEST_ANALYSIS_CHUNK_SECONDS = 1000  # a game's positions in one chunk
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
            deed = point["text"].split(":")[1].replace(NOTHING[language], "")
            assert not any(word in deed for word in GAINS[language]), point["text"]


@pytest.mark.parametrize("seed", [2, 5, 9])
def test_on_random_finished_games_the_points_cite_the_series_and_tell_what_happened(seed):
    alice, bob, dave = players("alice", "bob", "dave")
    game = finished_game([alice, bob, dave], leave=[dave, bob], seed=seed)
    analysed(game)

    for language in ("en", "cs", "pl"):
        assert_agrees(body_in(game, language), language)


@pytest.mark.parametrize("seed", [3, 7])
def test_with_few_positions_played_out_a_point_between_them_cites_the_line_drawn(
        client, settings, seed):
    """Older analyses kept a round's means (30.4 % → 67.4 % where the table said 58.6), and
    could say "took" of a turn in which its player's chance fell. With few positions played
    out, most turns lie on a line drawn between two, and the turn that tells most of the
    stretch stands for it: its numbers are still the series' at that turn."""
    settings.CONQUEST_ANALYSIS_POINTS = 3
    alice, bob, dave = players("alice", "bob", "dave")
    game = finished_game([alice, bob, dave], leave=[dave, bob], seed=seed)
    row = analysed(game)
    assert 0 < len(row.sampled or []) <= 3 < len(row.chances) - 1

    for language in ("en", "cs", "pl"):
        body = body_in(game, language)
        assert body["turning_points"]
        assert_agrees(body, language)
    page = client.get(f"/games/{game.pk}/").content.decode()
    told = page.split('class="turning-points"')[1].split("</ol>")[0]
    for point in body_in(game, "en")["turning_points"]:
        assert f"{percent(point['before'])} → {percent(point['after'])}" in told
