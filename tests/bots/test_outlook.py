"""A game's story read from its log (engine.story) and the win chance's play-outs and turning
points (bots.outlook): pure, no database."""

from __future__ import annotations

import random
from functools import cache

from bots.arena import play
from bots.outlook import estimate, margin, playouts_per_turn, result_point, turning_points
from engine import events as ev
from engine import replay
from engine.story import Conquest, Story, Turn, read_story, series


@cache
def recorded(seed: int = 5):
    return play(("normal", "normal", "normal"), seed=seed, record=True)[1]


def test_it_counts_each_seats_territories_and_armies_after_every_turn_as_the_log_says():
    events = recorded()
    story = read_story(events)
    numbers = series(story)
    starts = [i for i, e in enumerate(events) if e.type == ev.TURN_STARTED]
    # After k turns: the board as replaying the log up to turn k+1's start leaves it.
    for k, start in enumerate(starts):
        state = replay(events[:start])
        for seat in range(3):
            owned = [t for t, o in state.owner.items() if o == seat]
            assert numbers["territories"][seat][k] == len(owned)
            assert numbers["armies"][seat][k] == sum(state.armies[t] for t in owned)
    assert numbers["turns"] == list(range(len(starts) + 1))
    assert sum(numbers["territories"][s][0] for s in range(3)) == 42


def test_it_counts_income_as_the_turns_reinforcements_and_the_sets_traded_in_it():
    events = recorded()
    numbers = series(read_story(events))
    expected, income, turn = [], [None, None, None], 0
    for event in events:
        if event.type == ev.TURN_STARTED:
            expected.append(list(income))
            turn = event.data
            income[turn["seat"]] = turn["total"]
        elif event.type == ev.CARDS_TRADED and event.data["seat"] == turn["seat"]:
            income[turn["seat"]] += event.data["value"]
    expected = expected[1:] + [income]
    assert [[numbers["income"][s][k + 1] for s in range(3)] for k in range(len(expected))] \
        == expected
    assert any(event.type == ev.CARDS_TRADED for event in events)  # the sum was tried


def test_it_tells_each_conquest_with_the_odds_of_its_assault():
    story = read_story(recorded())
    conquests = [c for turn in story.turns for c in turn.conquests]
    taken = [e.data["to"] for e in recorded() if e.type == ev.BATTLE and e.data["conquered"]]
    assert [c.territory for c in conquests] == taken
    assert all(0 < c.odds <= 1 for c in conquests)


def test_the_same_position_and_seed_give_the_same_estimate_and_another_seed_another():
    story = read_story(recorded(), keep_positions=True)
    position = story.positions[10]
    armies = dict(position.armies)
    # (Three play-outs each: every one plays the game on to its end, and the recorded game
    # and the seeds are fixed, so what differs here differs every run.)
    first = estimate(position, story.teams, "seed-a", 11, 3)
    assert first == estimate(position, story.teams, "seed-a", 11, 3)
    assert position.armies == armies  # the position itself is left as it was
    assert abs(sum(first) - 1) < 1e-9
    others = [estimate(position, story.teams, f"seed-{n}", 11, 3) for n in "bc"]
    assert any(other != first for other in others)


def test_the_margin_and_the_play_outs_a_turn_gets():
    assert margin(100) == 9.8
    assert margin(400) == 4.9
    assert playouts_per_turn(640, 40) == 16
    assert playouts_per_turn(512, 39) == 13
    assert playouts_per_turn(640, 200) == 8


def _crafted() -> Story:
    """A 3-player game of 9 turns: turn 3 (Green) took Asia at 23 % odds, turn 7 (Red)
    eliminated Green; Red won."""
    story = Story(3, 3, finished=True, winners=[0])
    for number in range(1, 10):
        story.turns.append(Turn(number, (number - 1) % 3))
    story.turns[2].conquests = [Conquest("siam", 0, 0.8), Conquest("kamchatka", 2, 0.23)]
    story.turns[2].continents_taken = ["asia"]
    story.turns[6].eliminated = [2]
    story.turns[6].conquests = [Conquest("peru", 2, 0.5)]
    story.turns[6].battles = [{"seat": 0, "attacker_losses": 3}, {"seat": 2,
                                                                   "attacker_losses": 9}]

    class Board:
        continent_territories = {"asia": frozenset({"kamchatka", "siam"})}
    story.board = Board()
    return story


def test_it_marks_the_turns_that_moved_the_chances_most_and_tells_what_they_did():
    story = _crafted()
    flat = [1 / 3, 1 / 3, 1 / 3]
    green = [0.2, 0.1, 0.7]
    chances = [flat, flat, flat, green, green, green, green, [0.7, 0.3, 0.0],
               [0.7, 0.3, 0.0], [0.7, 0.3, 0.0]]
    chances.append(result_point(story, chances))
    assert chances[-1] == [1.0, 0.0, 0.0]

    points = turning_points(story, chances, count=2)

    assert [p["turn"] for p in points] == [3, 7]
    asia, elimination = points
    assert asia["kind"] == "continent" and asia["territory"] == "kamchatka"
    assert asia["odds"] == 0.23 and asia["side"] == 2 and asia["seat"] == 2
    # The numbers are the series' at the turn (after 2 turns, after 3), not a round's means.
    assert (asia["before"], asia["after"]) == (0.333, 0.7)
    assert elimination["kind"] == "eliminated" and elimination["seats"] == [2]
    assert (elimination["side"], elimination["before"], elimination["after"]) == (2, 0.7, 0.0)
    assert elimination["lost"] == 3  # the mover's own losses, not the defender's


def test_on_random_games_each_turning_point_cites_the_series_at_its_turn():
    for seed in (3, 7, 11):
        story = read_story(play(("normal", "normal"), seed=seed, record=True)[1])
        rng = random.Random(seed)
        chances = []
        for _ in story.turns:
            first = rng.random()
            chances.append([first, 1 - first])
        chances.append(result_point(story, chances))
        points = turning_points(story, chances)
        assert points
        for point in points:
            index, side = point["index"], point["side"]
            assert point["before"] == round(chances[index - 1][side], 3)
            assert point["after"] == round(chances[index][side], 3)
        # The largest single-turn move of the game is among them.
        largest = max(range(1, len(chances)),
                      key=lambda k: max(abs(chances[k][s] - chances[k - 1][s]) for s in (0, 1)))
        assert largest in [p["index"] for p in points]


def test_a_game_that_never_started_has_an_empty_story():
    story = read_story([])
    assert story.turns == [] and story.points() == [] and not story.finished
