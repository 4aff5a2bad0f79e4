"""engine.odds.assault reads the states far from an assault's end from one table per dice
(the open field) and walks only the states near the end: the very numbers of the whole
chain, for a share of its work."""

from __future__ import annotations

import tracemalloc

import pytest

from engine import odds


def whole_chain(attackers, defenders, dice=3, defense="max") -> odds.Assault:
    """Every state of the assault visited, as the chain was first written."""
    chance = [[0.0] * (defenders + 1) for _ in range(attackers + 1)]
    chance[attackers][defenders] = 1.0
    for a in range(attackers, 1, -1):
        for d in range(defenders, 0, -1):
            here = chance[a][d]
            if here:
                for lost_a, lost_d, p in odds.battle(odds.attacker_dice(a, dice),
                                                     odds.defender_dice(d, defense)):
                    chance[a - lost_a][d - lost_d] += here * p
    return odds.Assault(attackers, defenders, tuple(row[0] for row in chance),
                        tuple(chance[1]))


@pytest.mark.parametrize("dice", [1, 2, 3])
@pytest.mark.parametrize("defense", odds.DEFENSES)
def test_it_gives_the_whole_chains_very_numbers(dice, defense):
    pairs = [(a, d) for a in range(1, 25) for d in range(1, 25)] + [(150, 90), (60, 200)]
    for attackers, defenders in pairs:
        assert odds.assault.__wrapped__(attackers, defenders, dice, defense) == whole_chain(
            attackers, defenders, dice, defense), (attackers, defenders)


def test_a_large_answer_keeps_only_the_states_near_the_end():
    odds.assault.__wrapped__(600, 600, 1, "one")  # the table, filled once for every pair
    tracemalloc.start()
    try:
        result = odds.assault.__wrapped__(599, 597, 1, "one")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    # The whole chain held 600 x 600 states (some 10 MB); what is near the end is some
    # 600 + 600 of them.
    assert peak < 1_000_000, peak
    assert sum(result.taken) + sum(result.held) == pytest.approx(1.0, abs=1e-9)
