"""The three levels of computer player, as settings of one way of playing:

- easy: plausible, weak moves: it spreads its armies, attacks when it simply has more,
  trades only when it must and rarely fortifies.
- normal: a sound standard strategy: it builds towards the continent it is closest to,
  masses its reinforcements where it attacks, breaks other players' continent bonuses,
  trades whenever it can, and moves idle armies to the front.
- hard: plans. It picks the continent it can take and hold most cheaply and makes for it
  (its reinforcements mass at that continent's front), scores multi-step attack paths for
  the turn with exact battle odds, the armies they cost and the chance of still holding
  what they take, values eliminations for the cards they bring (and hunts a player it can
  wipe out this turn), guards the borders of the continents worth guarding (and its
  capital), and plays towards its mission.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Style:
    name: str
    noise: float            # random jitter added to every score
    attack_odds: float      # the least chance of taking a territory it attacks
    depth: int              # how many territories an attack path may chain
    trades_early: bool      # trade whenever a set is in hand (else only when forced)
    fortifies: float        # chance it fortifies when it could
    defends: bool           # keeps armies on threatened borders of what it holds
    missions: bool          # plays towards its mission
    exact: bool = False     # exact battle odds (else the rule of thumb: armies against armies)
    eliminations: bool = False  # counts the cards an elimination brings
    plans: float = 0.0      # worth added to the continent it plans to take and hold (0: none)


STYLES = {
    "easy": Style("easy", noise=3.0, attack_odds=0.0, depth=1, trades_early=False,
                  fortifies=0.3, defends=False, missions=False),
    "normal": Style("normal", noise=0.3, attack_odds=0.6, depth=1, trades_early=True,
                    fortifies=1.0, defends=False, missions=False),
    "hard": Style("hard", noise=0.0, attack_odds=0.5, depth=6, trades_early=True,
                  fortifies=1.0, defends=True, missions=True,
                  exact=True, eliminations=True, plans=3.0),
}
