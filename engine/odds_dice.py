"""One battle's dice: how each side's dice compare, the outcomes of a battle and their
chances (counted over every roll), and how many dice each side rolls. engine.odds reads
whole assaults from these."""

from __future__ import annotations

from functools import cache
from itertools import product

from .pieces import ATTACK_DICE, DEFENCE_DICE


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

# The most armies a side the API asks the exact distribution for: 1000 against 1000 is a
# million states, walked once per process into engine.odds' open-field tables.
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


def attacker_dice(armies: int, dice: int = ATTACK_DICE) -> int:
    """The attacking dice from a source of `armies` with the attacker's cap `dice`."""
    return min(dice, ATTACK_DICE, armies - 1)


def defender_dice(defenders: int, defense: str = "max") -> int:
    """The defending dice of `defenders` armies under a standing order (`max` or `one`)."""
    return 1 if defense == "one" else min(DEFENCE_DICE, defenders)


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
