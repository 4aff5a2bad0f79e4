"""What one seat may see: its team, and under fog of war the territories in its sight.

Every answer about a game (the view, each event, the history, mail, pages) asks this one
module, so a rule about hidden information is written once (docs/players/rules.md "Fog of war",
"Teams").
"""

from __future__ import annotations

from dataclasses import dataclass

from .state import GameState

NOTHING: frozenset = frozenset()


@dataclass(frozen=True, slots=True)
class Sight:
    seat: int | None
    allies: frozenset  # the seat and its teammates; nobody for a spectator
    seen: frozenset | None = None  # territories in sight under fog; None: no fog

    def sees(self, territory) -> bool:
        return self.seen is None or territory in self.seen

    @property
    def fogged(self) -> bool:
        return self.seen is not None


def in_sight(state: GameState, seat: int | None) -> frozenset:
    """Under fog: the seat's territories, those next to them, and its teammates'. A
    spectator sees none of them."""
    if seat is None:
        return NOTHING
    allies = state.allies(seat)
    neighbours = state.board.neighbours
    seen = set()
    for territory, holder in state.owner.items():
        if holder == seat:
            seen.add(territory)
            seen.update(neighbours[territory])
        elif holder in allies:
            seen.add(territory)
    return frozenset(seen)


def fogged(state: GameState) -> bool:
    """Whether fog hides anything now: it lifts when the game is over."""
    return state.rules.fog and not state.finished


def sight_of(state: GameState, seat: int | None) -> Sight:
    """What `seat` (None: a spectator) sees of `state` now."""
    allies = state.allies(seat)
    return Sight(seat, allies, in_sight(state, seat) if fogged(state) else None)
