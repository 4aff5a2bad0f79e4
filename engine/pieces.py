"""What every map shares: the seats' colours, the neutral, the card symbols (a map's
deck names them; engine.maps) and the dice."""

from __future__ import annotations

COLORS = ("red", "blue", "green", "yellow", "black", "white")
NEUTRAL = "neutral"

INFANTRY, CAVALRY, ARTILLERY, WILD = "infantry", "cavalry", "artillery", "wild"
SYMBOLS = (INFANTRY, CAVALRY, ARTILLERY)

# The most dice one battle rolls: the attacker's (each needs an army left behind) and the
# defender's. Every cap on the dice (the engine, its audit, the odds, the pages' scripts
# and the answers to mail) reads these.
ATTACK_DICE = 3
DEFENCE_DICE = 2
