"""Exact battle odds: the dice probabilities of RULES.md, never a simulation.

One battle rolls min(3, armies - 1) attacking dice against min(2, defenders) dice (one
die under the defender's `one` policy); sorted high to low, highest meets highest and
second meets second, ties to the defender. An assault repeats battles until the territory
falls or the attacker is down to one army (the `repeat` of CONTRACT.md's attack).
"""

from __future__ import annotations

from functools import cache
from itertools import product


@cache
def battle(attacker_dice: int, defender_dice: int) -> tuple[tuple[int, int, float], ...]:
    """(attacker losses, defender losses, probability) for every outcome of one battle."""
    counts: dict[tuple[int, int], int] = {}
    rolls = 0
    for dice in product(range(1, 7), repeat=attacker_dice + defender_dice):
        attack = sorted(dice[:attacker_dice], reverse=True)
        defend = sorted(dice[attacker_dice:], reverse=True)
        lost = [0, 0]
        for a, d in zip(attack, defend, strict=False):
            lost[0 if a <= d else 1] += 1
        counts[tuple(lost)] = counts.get(tuple(lost), 0) + 1
        rolls += 1
    return tuple((a, d, n / rolls) for (a, d), n in sorted(counts.items()))


def _dice(armies: int, defenders: int, defense: str) -> tuple[int, int]:
    return min(3, armies - 1), (1 if defense == "one" else min(2, defenders))


class _Table:
    """P(conquer) and E[attacking armies left, if it falls] for an assault, filled in
    bottom-up as larger armies are asked for (one table per defence policy)."""

    def __init__(self, defense: str) -> None:
        self.defense = defense
        self.size = (1, 0)
        # win[a][d]: probability that `a` armies on the source take `d` defenders;
        # left[a][d]: E[armies on the source at the fall, times the fall's indicator].
        self.win = [[1.0], [1.0]]
        self.left = [[0.0], [1.0]]

    def grow(self, armies: int, defenders: int) -> None:
        have_a, have_d = self.size
        if armies <= have_a and defenders <= have_d:
            return
        top_a, top_d = max(armies, have_a), max(defenders, have_d)
        win = [[0.0] * (top_d + 1) for _ in range(top_a + 1)]
        left = [[0.0] * (top_d + 1) for _ in range(top_a + 1)]
        for a in range(top_a + 1):
            win[a][0] = 1.0
            left[a][0] = float(a)
            for d in range(1, top_d + 1):
                if a < 2:
                    continue
                p_win = p_left = 0.0
                for lost_a, lost_d, p in battle(*_dice(a, d, self.defense)):
                    na, nd = a - lost_a, max(0, d - lost_d)
                    p_win += p * win[na][nd]
                    p_left += p * left[na][nd]
                win[a][d], left[a][d] = p_win, p_left
        self.win, self.left, self.size = win, left, (top_a, top_d)


_TABLES = {"max": _Table("max"), "one": _Table("one")}


def conquer_probability(armies: int, defenders: int, defense: str = "max") -> float:
    """Probability that an all-out assault from a territory of `armies` takes one held by
    `defenders` (the source keeps one army back, so 1 army can never attack)."""
    if defenders <= 0:
        return 1.0
    if armies < 2:
        return 0.0
    table = _TABLES[defense]
    table.grow(armies, defenders)
    return table.win[armies][defenders]


def armies_left(armies: int, defenders: int, defense: str = "max") -> float:
    """Expected armies on the source when the territory falls, given that it falls."""
    p = conquer_probability(armies, defenders, defense)
    if p <= 0.0:
        return 1.0
    if defenders <= 0:
        return float(armies)
    return _TABLES[defense].left[armies][defenders] / p
