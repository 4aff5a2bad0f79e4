"""engine/odds.py: the one odds model against dice counted by hand and a plain recursion in
exact fractions."""

from __future__ import annotations

import re
from fractions import Fraction
from functools import cache
from itertools import product
from pathlib import Path

import pytest

from engine import odds
from engine.turn import losses


def test_it_compares_the_dice_as_the_rules_do():
    for attacker in (1, 2, 3):
        for defender in (1, 2):
            for roll in product(range(1, 7), repeat=attacker + defender):
                a, d = roll[:attacker], roll[attacker:]
                assert odds.losses(a, d) == losses(a, d)


def test_it_imports_nothing_of_the_project():
    # The computer players read it, and they may read nothing of the engine but the board.
    source = Path(odds.__file__).read_text()
    assert not re.search(r"^(from|import) (games|bots|lib|accounts)", source, re.MULTILINE)


def test_it_counts_one_roll_of_one_die_each():
    outcomes = {(a, d): p for a, d, p in odds.one_roll(2, 1)}

    assert outcomes == pytest.approx({(0, 1): 15 / 36, (1, 0): 21 / 36})


def test_it_counts_the_classic_three_against_two():
    outcomes = {(a, d): p for a, d, p in odds.one_roll(4, 2)}

    assert outcomes == pytest.approx(
        {(0, 2): 2890 / 7776, (1, 1): 2611 / 7776, (2, 0): 2275 / 7776})


def test_one_die_must_beat_both_defending_dice():
    # (0 + 1 + 4 + 9 + 16 + 25) / 216: the attacker's a beats both dice below it.
    outcomes = {(a, d): p for a, d, p in odds.one_roll(5, 3, dice=1)}

    assert outcomes[(0, 1)] == pytest.approx(55 / 216)


def test_two_against_one_repeated_is_one_roll():
    result = odds.assault(2, 1)

    assert result.conquer == pytest.approx(15 / 36)
    assert result.taken[2] == pytest.approx(15 / 36)
    assert result.held[1] == pytest.approx(21 / 36)
    assert result.attacker_losses == pytest.approx(21 / 36)
    assert result.defender_losses == pytest.approx(15 / 36)
    assert result.move_in() == pytest.approx({1: 1.0})


def test_three_against_one_has_a_second_chance():
    # Two dice win at once 125/216 of the time; otherwise 2 armies try once more at 15/36.
    result = odds.assault(3, 1)

    assert result.taken[3] == pytest.approx(125 / 216)
    assert result.taken[2] == pytest.approx(91 / 216 * 15 / 36)
    assert result.conquer == pytest.approx(125 / 216 + 91 / 216 * 15 / 36)


def test_the_defenders_standing_order_changes_the_odds():
    assert odds.assault(4, 2).conquer == pytest.approx(0.656, abs=0.001)
    assert odds.assault(4, 2, defense="one").conquer > odds.assault(4, 2).conquer
    # One defending die can never lose two armies in one roll.
    assert all(d <= 1 for _, d, _ in odds.one_roll(4, 2, defense="one"))


def test_the_neutrals_dice_follow_the_rule_option():
    assert odds.defense_of("one", neutral=True) == "max"
    assert odds.defense_of("one", neutral=True, neutral_dice="opponent") == "one"
    assert odds.defense_of("one") == "one"


@cache
def exact(armies: int, defenders: int, dice: int, defense: str) -> dict:
    """{(armies, defenders) where it ends: chance} in fractions, battle by battle."""
    if defenders == 0 or armies < 2:
        return {(armies, defenders): Fraction(1)}
    ends: dict = {}
    rolled = (odds.attacker_dice(armies, dice), odds.defender_dice(defenders, defense))
    rolls = 6 ** sum(rolled)
    for lost_a, lost_d, n in odds.battle_counts(*rolled):
        for end, p in exact(armies - lost_a, defenders - lost_d, dice, defense).items():
            ends[end] = ends.get(end, 0) + Fraction(n, rolls) * p
    return ends


@pytest.mark.parametrize("dice", [1, 2, 3])
@pytest.mark.parametrize("defense", ["max", "one"])
def test_it_agrees_with_a_plain_recursion_in_fractions(dice, defense):
    for armies in range(2, 13):
        for defenders in range(1, 11):
            ends = exact(armies, defenders, dice, defense)
            result = odds.assault(armies, defenders, dice, defense)
            for a in range(armies + 1):
                assert result.taken[a] == pytest.approx(float(ends.get((a, 0), 0)), abs=1e-12)
            for d in range(1, defenders + 1):
                assert result.held[d] == pytest.approx(float(ends.get((1, d), 0)), abs=1e-12)
            lost = sum((armies - a) * p for (a, _), p in ends.items())
            assert result.attacker_losses == pytest.approx(float(lost), abs=1e-12)


@pytest.mark.parametrize("defense", ["max", "one"])
def test_the_computer_players_table_reads_the_same_chain(defense):
    for armies in range(2, 30):
        for defenders in range(1, 30):
            result = odds.assault(armies, defenders, defense=defense)
            assert odds.conquer_probability(armies, defenders, defense) == pytest.approx(
                result.conquer, abs=1e-12)
            # (the raw chance: `conquer` as told stays a hair from 0 and 1)
            left = sum(a * p for a, p in enumerate(result.taken)) / sum(result.taken)
            assert odds.armies_left(armies, defenders, defense) == pytest.approx(left)


def test_a_hundred_against_a_hundred_is_a_distribution():
    result = odds.assault(100, 100)

    assert sum(result.taken) + sum(result.held) == pytest.approx(1.0, abs=1e-12)
    assert sum(result.move_in().values()) == pytest.approx(1.0, abs=1e-12)
    assert 0.80 < result.conquer < 0.81
