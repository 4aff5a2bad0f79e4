"""Exact battle odds: one Markov chain over the battle dice, never a simulation.

One battle rolls min(dice, 3, armies - 1) attacking dice (`dice`: the attacker's cap)
against the defender's dice: min(2, defenders) under the `max` standing order, one die
under `one`. Sorted high to low, highest meets highest and second meets second, ties to the
defender (as engine.turn.losses). An assault repeats battles until the territory falls or
the source is down to one army (the attack command's `repeat`). Every figure here is read
from this one chain: the chance to take a territory with one roll or by repeating, the
armies each side should expect to lose, the armies left to move in, the mean losses of one
battle that dice luck is measured against (ratings.luck), and the table of conquest chances
the computer players plan with (bots.odds).

static/js/odds.js is the same algorithm for the attack form; the tests hold the two equal.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import product


def losses(attacker_dice, defender_dice) -> tuple[int, int]:
    """Highest against highest, second against second; ties go to the defender. The
    engine's own comparison (engine.turn.losses), written again here so that the
    computer players, which may read nothing of the engine but the board, can read the odds
    (a test holds the two equal over every roll)."""
    attacker_losses = defender_losses = 0
    pairs = zip(sorted(attacker_dice, reverse=True), sorted(defender_dice, reverse=True),
                strict=False)
    for a, d in pairs:
        if a > d:
            defender_losses += 1
        else:
            attacker_losses += 1
    return attacker_losses, defender_losses

# The most armies a side the exact distribution is asked for (the API's bound): 1000 against
# 1000 is half a million states, about a second of CPU.
MOST_ARMIES = 1000
DEFENSES = ("max", "one")


@cache
def battle_counts(attacker_dice: int, defender_dice: int) -> tuple[tuple[int, int, int], ...]:
    """(attacker losses, defender losses, how many of the 6^(a+d) rolls) for every outcome
    of one battle, compared as the rules compare them."""
    counts: dict[tuple[int, int], int] = {}
    for roll in product(range(1, 7), repeat=attacker_dice + defender_dice):
        lost = losses(roll[:attacker_dice], roll[attacker_dice:])
        counts[lost] = counts.get(lost, 0) + 1
    return tuple((a, d, n) for (a, d), n in sorted(counts.items()))


@cache
def battle(attacker_dice: int, defender_dice: int) -> tuple[tuple[int, int, float], ...]:
    """(attacker losses, defender losses, probability) for every outcome of one battle."""
    rolls = 6 ** (attacker_dice + defender_dice)
    return tuple((a, d, n / rolls) for a, d, n in battle_counts(attacker_dice, defender_dice))


@cache
def expected_losses(attacker_dice: int, defender_dice: int) -> tuple[float, float]:
    """(attacker's, defender's) mean losses of one battle with this many dice each: the exact
    sums over every roll, divided once."""
    counts = battle_counts(attacker_dice, defender_dice)
    rolls = sum(n for _, _, n in counts)
    return (sum(a * n for a, _, n in counts) / rolls, sum(d * n for _, d, n in counts) / rolls)


def attacker_dice(armies: int, dice: int = 3) -> int:
    """The attacking dice from a source of `armies` with the attacker's cap `dice`."""
    return min(dice, 3, armies - 1)


def defender_dice(defenders: int, defense: str = "max") -> int:
    """The defending dice of `defenders` armies under a standing order (`max` or `one`)."""
    return 1 if defense == "one" else min(2, defenders)


def defense_of(defense: str = "max", neutral: bool = False, neutral_dice: str = "max") -> str:
    """The standing order a defender's dice follow: a player's own; the neutral's is `max`
    unless `neutral_dice: opponent` lets the player not attacking choose it (then `defense`
    is that choice). Capitals and every other option change no dice."""
    if neutral and neutral_dice != "opponent":
        return "max"
    return defense


def defense_in_view(view: dict, owner) -> str:
    """The standing order the dice of `owner`'s territories follow, from what a seat's view
    shows: a player's own order is public; the neutral's is `max` unless `neutral_dice:
    opponent` lets the player not attacking choose it, a choice the attacker is not shown:
    the odds then assume every die, the attacker's worst case."""
    for player in view.get("players") or []:
        if player.get("seat") == owner and not isinstance(owner, bool):
            return player.get("defense") or "max"
    return "max"


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


# The pages and the API ask for the same few pairs over and over; a large pair costs up to
# half a second of CPU, so the last ones asked are kept (an Assault is immutable).
@lru_cache(maxsize=256)
def assault(attackers: int, defenders: int, dice: int = 3, defense: str = "max") -> Assault:
    """The exact distribution of how an assault ends: the chance of each state is carried
    forward battle by battle. A battle only ever takes armies away, so visiting the sources
    from most armies down, and each one's defenders from most down, visits every state after
    all the states that lead to it."""
    if attackers < 1 or defenders < 1:
        raise ValueError("an assault needs armies on both sides")
    # chance[a][d] of passing through (a, d); the first row and column are where it ends.
    chance = [[0.0] * (defenders + 1) for _ in range(attackers + 1)]
    chance[attackers][defenders] = 1.0
    for a in range(attackers, 1, -1):
        row = chance[a]
        rolled = attacker_dice(a, dice)
        # The defender's dice only change at one army left: the loop is written out for the
        # two or three outcomes of a battle (the hot loop of a 100 against 100 assault).
        first = 1 if defense == "one" else 2
        for low, high in ((first, defenders), (1, min(first - 1, defenders))):
            if low > high:
                continue
            outcomes = battle(rolled, defender_dice(low, defense))
            (a0, d0, p0), (a1, d1, p1) = outcomes[0], outcomes[1]
            row0, row1 = chance[a - a0], chance[a - a1]
            if len(outcomes) == 2:
                for d in range(high, low - 1, -1):
                    here = row[d]
                    if here:
                        row0[d - d0] += here * p0
                        row1[d - d1] += here * p1
                continue
            a2, d2, p2 = outcomes[2]
            row2 = chance[a - a2]
            for d in range(high, low - 1, -1):
                here = row[d]
                if here:
                    row0[d - d0] += here * p0
                    row1[d - d1] += here * p1
                    row2[d - d2] += here * p2
    taken = tuple(chance[a][0] for a in range(attackers + 1))
    # No battle both takes the last defender and costs the attacker an army (that would
    # take more comparisons than the defender has dice), so chance[1][0] stays 0.
    return Assault(attackers, defenders, taken, tuple(chance[1]))


def one_roll(attackers: int, defenders: int, dice: int = 3,
             defense: str = "max") -> tuple[tuple[int, int, float], ...]:
    """The outcomes of a single battle from this pair: (attacker losses, defender losses,
    chance); the territory falls where the defender loses all it has."""
    return battle(attacker_dice(attackers, dice), defender_dice(defenders, defense))


def summary(attackers: int, defenders: int, dice: int = 3, defense: str = "max") -> dict:
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
