"""Dice luck: each battle's losses against the exact odds of the dice rolled.

Every roll of a battle is in its event, so the expectation is exact: the mean losses over
all 6^(a+d) equally likely rolls of a attacker and d defender dice, read from the project's
one odds model (engine.odds).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.odds import expected_losses

__all__ = ["Luck", "expected_losses", "luck_by_seat"]


@dataclass
class Luck:
    """One seat's battles: armies it lost and armies it took from others, and what the
    dice made those worth on average."""

    battles: int = 0
    lost: int = 0
    expected_lost: float = 0.0
    taken: int = 0
    expected_taken: float = 0.0

    @property
    def net(self) -> float:
        """Armies better off than the odds: fewer lost and more taken count as luck."""
        return (self.expected_lost - self.lost) + (self.taken - self.expected_taken)

    def add(self, other: Luck) -> None:
        self.battles += other.battles
        self.lost += other.lost
        self.expected_lost += other.expected_lost
        self.taken += other.taken
        self.expected_taken += other.expected_taken


def luck_by_seat(battles, seats: int) -> dict[int, Luck]:
    """{seat: Luck} from a game's battle events' data (dicts), attacker and defender."""
    found = {seat: Luck() for seat in range(seats)}
    for data in battles:
        attacker, defender = data.get("seat"), data.get("defender")
        a_dice, d_dice = data.get("attacker_dice") or [], data.get("defender_dice") or []
        if not a_dice or not d_dice:
            continue
        expected_a, expected_d = expected_losses(len(a_dice), len(d_dice))
        if attacker in found:
            luck = found[attacker]
            luck.battles += 1
            luck.lost += data["attacker_losses"]
            luck.expected_lost += expected_a
            luck.taken += data["defender_losses"]
            luck.expected_taken += expected_d
        if isinstance(defender, int) and not isinstance(defender, bool) and defender in found:
            luck = found[defender]
            luck.battles += 1
            luck.lost += data["defender_losses"]
            luck.expected_lost += expected_d
            luck.taken += data["attacker_losses"]
            luck.expected_taken += expected_a
    return found
