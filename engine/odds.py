"""Exact battle odds: one Markov chain over the battle dice, never a simulation.

One battle rolls min(dice, ATTACK_DICE, armies - 1) attacking dice (`dice`: the attacker's
cap) against the defender's dice: min(DEFENCE_DICE, defenders) under the `max` standing
order, one die under `one` (the caps: engine.pieces). Sorted high to low, highest meets
highest and second meets second, ties to the defender (as engine.turn.losses). An assault repeats battles until the territory falls or
the source is down to one army (the attack command's `repeat`). Every figure here is read
from this one chain: the chance to take a territory with one roll or by repeating, the
armies each side should expect to lose, the armies left to move in, the mean losses of one
battle that dice luck is measured against (ratings.luck), and the table of conquest chances
the computer players plan with (bots.odds). One battle's dice are engine.odds_dice's.

static/js/odds.js is the same algorithm for the attack form; the tests hold the two equal.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from functools import lru_cache
from threading import Lock

from .odds_dice import (  # noqa: F401  (read as engine.odds' own by the rest)
    DEFENSES,
    MOST_ARMIES,
    attacker_dice,
    battle,
    battle_counts,
    defender_dice,
    defense_in_view,
    defense_of,
    expected_losses,
    losses,
)
from .pieces import ATTACK_DICE

# An assault the dice can still lose (and still win): the chance the pages, the API and the
# mail tell stays this far from 0 and 1, where floats would round 60 against 1 to a certain
# 1.0 that a page writes "100.0 %" beside 25 against 4's "> 99.9 %". (The computer players'
# table, conquer_probability, keeps the raw floats: their choices stay as they were.)
UNCERTAIN = 1e-12


def short_of_certain(chance: float) -> float:
    return min(max(chance, UNCERTAIN), 1.0 - UNCERTAIN)


@dataclass(frozen=True)
class Assault:
    """What repeating battles from `attackers` armies against `defenders` ends in.

    `taken[a]`: the chance the territory falls with `a` armies on the source (a - 1 of them
    may move in); `held[d]`: the chance the source is down to one army with `d` defenders
    left."""

    attackers: int
    defenders: int
    taken: tuple[float, ...]
    held: tuple[float, ...]

    @property
    def conquer(self) -> float:
        return short_of_certain(sum(self.taken))

    @property
    def attacker_losses(self) -> float:
        kept = sum(a * p for a, p in enumerate(self.taken)) + sum(self.held)
        return self.attackers - kept

    @property
    def defender_losses(self) -> float:
        return self.defenders - sum(d * p for d, p in enumerate(self.held))

    def move_in(self) -> dict[int, float]:
        """{armies that may move in: chance, given that the territory falls}."""
        conquer = self.conquer
        if conquer <= 0.0:
            return {}
        return {a - 1: p / conquer for a, p in enumerate(self.taken) if p > 0.0}


class _Open:
    """The chance of passing through each state of an assault far from its end, one table
    for every assault with the same dice: while the attacker rolls all its `dice` and the
    defender its `defending` dice (the open field), a battle's chances do not depend on the
    armies, so the chance of reaching (attackers - i, defenders - j) from (attackers,
    defenders) is passes[i][j] whatever the pair. Filled as larger offsets are asked for,
    to at least twice its size (as _Table grows) up to MOST_ARMIES a side; each cell
    is summed in the order the chain would add it, so it holds the chain's very number."""

    def __init__(self, dice: int, defending: int) -> None:
        self.outcomes = sorted(battle(dice, defending), reverse=True)  # most attackers lost first
        # A row of machine doubles: 8 bytes a cell, where a list of floats takes 32.
        self.passes: list[array] = []
        self.size = (-1, -1)
        self.growing = Lock()  # two threads of a web process must not extend a row twice

    def grow(self, rows: int, columns: int) -> list[array]:
        if rows <= self.size[0] and columns <= self.size[1]:
            return self.passes
        with self.growing:
            self._grow(rows, columns)
        return self.passes

    def _grow(self, rows: int, columns: int) -> None:
        have_i, have_j = self.size
        if rows <= have_i and columns <= have_j:
            return
        top_i = max(rows, min(MOST_ARMIES, max(2 * have_i, 16)))
        top_j = max(columns, min(MOST_ARMIES, max(2 * have_j, 16)))
        passes, outcomes = self.passes, self.outcomes
        for i in range(top_i + 1):
            if i > have_i:
                passes.append(array("d"))
            row = passes[i]
            sources = [(passes[i - lost_a], lost_d, p) for lost_a, lost_d, p in outcomes
                       if lost_a <= i]
            for j in range(len(row), top_j + 1):
                here = 0.0 if i or j else 1.0
                for source, lost_d, p in sources:
                    if lost_d <= j:
                        here += source[j - lost_d] * p
                row.append(here)
        self.size = (top_i, top_j)


_OPEN: dict[tuple[int, int], _Open] = {}


def _open_field(dice: int, defending: int) -> _Open:
    found = _OPEN.get((dice, defending))
    if found is None:
        found = _OPEN[(dice, defending)] = _Open(dice, defending)
    return found


# The pages and the API ask for the same few pairs over and over; the last ones asked are
# kept (an Assault is immutable).
@lru_cache(maxsize=256)
def assault(attackers: int, defenders: int, dice: int = ATTACK_DICE,
            defense: str = "max") -> Assault:
    """The exact distribution of how an assault ends: the chance of each state is carried
    forward battle by battle. A battle only ever takes armies away, so visiting the sources
    from most armies down, and each one's defenders from most down, visits every state after
    all the states that lead to it.

    Only the states near the end are visited: those where a side rolls fewer dice than it
    may (the attacker's last `dice` rows, under `max` the defender's last army) and those
    one battle away from them; every other state's chance is the open field's (_Open), read
    from its table. So an answer costs some (attackers + defenders) steps once the table is
    filled, where the whole chain was attackers x defenders (a second for 1000 against 1000)."""
    if attackers < 1 or defenders < 1:
        raise ValueError("an assault needs armies on both sides")
    rolled = min(dice, ATTACK_DICE)  # the attacker's dice on the open field
    defending = defender_dice(MOST_ARMIES, defense)

    def open_field(a: int, d: int) -> bool:
        return a - 1 >= rolled and d >= defending

    passes = None
    if open_field(attackers, defenders):  # else no state of the assault is
        passes = _open_field(rolled, defending).grow(attackers - rolled - 1,
                                                     defenders - defending)
    chance: dict[tuple[int, int], float] = {(attackers, defenders): 1.0} if passes is None \
        else {}
    # Near the open field's edge: the rows and columns within one battle (two armies) of it.
    near_a, near_d = rolled + 3, defending + 1
    for a in range(attackers, 1, -1):
        columns = range(defenders, 0, -1) if a <= near_a \
            else range(min(near_d, defenders), 0, -1)
        rolls = attacker_dice(a, dice)
        for d in columns:
            inside = passes is not None and open_field(a, d)
            here = passes[attackers - a][defenders - d] if inside else chance.get((a, d), 0.0)
            if not here:
                continue
            for lost_a, lost_d, p in battle(rolls, defender_dice(d, defense)):
                to = (a - lost_a, max(0, d - lost_d))
                if not (inside and open_field(*to)):  # the open field's own are in its table
                    chance[to] = chance.get(to, 0.0) + here * p
    taken = tuple(chance.get((a, 0), 0.0) for a in range(attackers + 1))
    # No battle both takes the last defender and costs the attacker an army (that would
    # take more comparisons than the defender has dice), so taken[1] stays 0.
    return Assault(attackers, defenders, taken,
                   tuple(chance.get((1, d), 0.0) for d in range(defenders + 1)))


def one_roll(attackers: int, defenders: int, dice: int = ATTACK_DICE,
             defense: str = "max") -> tuple[tuple[int, int, float], ...]:
    """The outcomes of a single battle from this pair: (attacker losses, defender losses,
    chance); the territory falls where the defender loses all it has."""
    return battle(attacker_dice(attackers, dice), defender_dice(defenders, defense))


def summary(attackers: int, defenders: int, dice: int = ATTACK_DICE, defense: str = "max") -> dict:
    """Everything the attack form, the API and the mail tell of an attack, as JSON: the
    chance to take the territory by repeating and with one roll, each side's expected
    losses, and the armies that may move in if it falls (their chances, their mean, and the
    median: at least that many half of the times it falls)."""
    result = assault(attackers, defenders, dice, defense)
    roll = one_roll(attackers, defenders, dice, defense)
    move_in = result.move_in()
    median, reached = 0, 0.0
    for armies in sorted(move_in, reverse=True):
        reached += move_in[armies]
        if reached >= 0.5:
            median = armies
            break
    return {
        "attackers": attackers, "defenders": defenders, "dice": dice, "defense": defense,
        "repeat": {
            "conquer": result.conquer,
            "attacker_losses": result.attacker_losses,
            "defender_losses": result.defender_losses,
            "move_in": {
                "expected": sum(k * p for k, p in move_in.items()),
                "median": median,
                "chances": [[k, p] for k, p in sorted(move_in.items())],
            },
        },
        "one_roll": {
            "conquer": sum(p for _, lost, p in roll if lost >= defenders),
            "attacker_losses": sum(a * p for a, _, p in roll),
            "defender_losses": sum(d * p for _, d, p in roll),
            "outcomes": [{"attacker_losses": a, "defender_losses": d, "chance": p}
                         for a, d, p in roll],
        },
    }


# ---- the table the computer players plan with -------------------------------------------
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
    """P(conquer) and E[attacking armies left, if it falls] for an all-out assault (as many
    dice as may be rolled), the same chain read backwards: filled in bottom-up as larger
    armies are asked for (one table per standing order). A cell only depends on cells with
    fewer armies, so growing keeps what is there and fills in the new rows and columns; it
    grows to at least twice its size so that a game whose stacks creep up by one a turn does
    not refill it every turn."""

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
                for lost_a, lost_d, p in battle(attacker_dice(a),
                                                defender_dice(d, self.defense)):
                    na, nd = a - lost_a, max(0, d - lost_d)
                    p_win += p * win[na][nd]
                    p_left += p * left[na][nd]
                win[a][d], left[a][d] = p_win, p_left
        self.size = (top_a, top_d)


_TABLES = {defense: _Table(defense) for defense in DEFENSES}


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
