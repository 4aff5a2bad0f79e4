"""Dice luck against the exact odds of the dice rolled."""

from __future__ import annotations

import pytest

from ratings.luck import expected_losses, luck_by_seat


@pytest.mark.parametrize("dice, attacker, defender", [
    ((1, 1), 21 / 36, 15 / 36),
    ((3, 2), (2 * 2275 + 2611) / 7776, (2 * 2890 + 2611) / 7776),
])
def test_it_knows_the_exact_odds(dice, attacker, defender):
    assert expected_losses(*dice) == pytest.approx((attacker, defender))


def test_it_counts_each_side_of_a_battle_for_its_seat():
    battles = [
        {"seat": 0, "defender": 1, "attacker_dice": [6, 6, 6], "defender_dice": [1, 1],
         "attacker_losses": 0, "defender_losses": 2},
        {"seat": 0, "defender": "neutral", "attacker_dice": [1], "defender_dice": [6],
         "attacker_losses": 1, "defender_losses": 0},
    ]

    luck = luck_by_seat(battles, 2)

    three_two = expected_losses(3, 2)
    one_one = expected_losses(1, 1)
    assert luck[0].battles == 2 and luck[1].battles == 1
    assert luck[0].lost == 1 and luck[0].taken == 2
    assert luck[0].expected_lost == pytest.approx(three_two[0] + one_one[0])
    assert luck[1].net == pytest.approx((three_two[1] - 2) + (0 - three_two[0]))
    assert luck[0].net == pytest.approx((luck[0].expected_lost - 1) + (2 - luck[0].expected_taken))
