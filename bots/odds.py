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


# The table is exact up to this many armies a side (a 400 x 400 table, filled once in about a
# second). Larger stacks only happen in games where nobody attacks for many rounds; there the
# odds of (a, d) are read at the same ratio scaled down to the table, where the chance is
# already all but decided by the ratio.
LIMIT = 400


def _scaled(armies: int, defenders: int) -> tuple[int, int]:
    top = max(armies, defenders)
    if top <= LIMIT:
        return armies, defenders
    return max(1, round(armies * LIMIT / top)), max(1, round(defenders * LIMIT / top))


class _Table:
    """P(conquer) and E[attacking armies left, if it falls] for an assault, filled in
    bottom-up as larger armies are asked for (one table per defence policy). A cell only
    depends on cells with fewer armies, so growing keeps what is there and fills in the new
    rows and columns; it grows to at least twice its size so that a game whose stacks creep
    up by one a turn does not refill it every turn."""

    def __init__(self, defense: str) -> None:
        self.defense = defense
        # win[a][d]: probability that `a` armies on the source take `d` defenders;
        # left[a][d]: E[armies on the source at the fall, times the fall's indicator].
        self.win: list[list[float]] = []
        self.left: list[list[float]] = []
        self.size = (-1, -1)

    def grow(self, armies: int, defenders: int) -> None:
        have_a, have_d = self.size
        if armies <= have_a and defenders <= have_d:
            return
        top_a = min(LIMIT, max(armies, have_a, 2 * have_a, 16))
        top_d = min(LIMIT, max(defenders, have_d, 2 * have_d, 16))
        win, left = self.win, self.left
        for row_w, row_l in zip(win, left, strict=True):  # new columns of the old rows
            row_w.extend([0.0] * (top_d - have_d))
            row_l.extend([0.0] * (top_d - have_d))
        for _ in range(have_a + 1, top_a + 1):
            win.append([0.0] * (top_d + 1))
            left.append([0.0] * (top_d + 1))
        for a in range(top_a + 1):
            first_d = have_d + 1 if a <= have_a else 0
            for d in range(first_d, top_d + 1):
                if d == 0:
                    win[a][0], left[a][0] = 1.0, float(a)
                    continue
                if a < 2:
                    continue
                p_win = p_left = 0.0
                for lost_a, lost_d, p in battle(*_dice(a, d, self.defense)):
                    na, nd = a - lost_a, max(0, d - lost_d)
                    p_win += p * win[na][nd]
                    p_left += p * left[na][nd]
                win[a][d], left[a][d] = p_win, p_left
        self.size = (top_a, top_d)


_TABLES = {"max": _Table("max"), "one": _Table("one")}


def conquer_probability(armies: int, defenders: int, defense: str = "max") -> float:
    """Probability that an all-out assault from a territory of `armies` takes one held by
    `defenders` (the source keeps one army back, so 1 army can never attack)."""
    if defenders <= 0:
        return 1.0
    if armies < 2:
        return 0.0
    armies, defenders = _scaled(armies, defenders)
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
    small_a, small_d = _scaled(armies, defenders)
    return _TABLES[defense].left[small_a][small_d] / p * armies / small_a
