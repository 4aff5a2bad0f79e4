"""Exact battle odds against the dice counted by hand and a plain recursion."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest

from engine.odds import armies_left, battle, conquer_probability


def test_it_counts_the_classic_three_against_two():
    outcomes = {(a, d): p for a, d, p in battle(3, 2)}

    assert outcomes[(0, 2)] == pytest.approx(2890 / 7776)
    assert outcomes[(1, 1)] == pytest.approx(2611 / 7776)
    assert outcomes[(2, 0)] == pytest.approx(2275 / 7776)


@pytest.mark.parametrize("attacker, defender, wins", [
    (1, 1, Fraction(15, 36)), (2, 1, Fraction(125, 216)), (3, 1, Fraction(855, 1296)),
])
def test_it_counts_one_defending_die(attacker, defender, wins):
    outcomes = {(a, d): p for a, d, p in battle(attacker, defender)}
    assert outcomes[(0, 1)] == pytest.approx(float(wins))


@cache
def by_recursion(armies: int, defenders: int, defense: str) -> float:
    if defenders == 0:
        return 1.0
    if armies < 2:
        return 0.0
    dice = (min(3, armies - 1), 1 if defense == "one" else min(2, defenders))
    return sum(p * by_recursion(armies - a, max(0, defenders - d), defense)
               for a, d, p in battle(*dice))


@pytest.mark.parametrize("defense", ["max", "one"])
def test_it_agrees_with_a_plain_recursion(defense):
    for armies in range(1, 25):
        for defenders in range(0, 20):
            assert conquer_probability(armies, defenders, defense) == pytest.approx(
                by_recursion(armies, defenders, defense), abs=1e-12)


def test_it_knows_the_textbook_figures():
    assert conquer_probability(4, 2) == pytest.approx(0.656, abs=0.001)
    assert conquer_probability(2, 1) == pytest.approx(15 / 36)
    assert conquer_probability(1, 1) == 0.0
    assert 1 < armies_left(10, 3) <= 10
