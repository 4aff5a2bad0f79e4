"""What every map shares: the seats' colours, the neutral, and the card symbols (a map's
deck names them; engine.maps)."""

from __future__ import annotations

COLORS = ("red", "blue", "green", "yellow", "black", "white")
NEUTRAL = "neutral"

INFANTRY, CAVALRY, ARTILLERY, WILD = "infantry", "cavalry", "artillery", "wild"
SYMBOLS = (INFANTRY, CAVALRY, ARTILLERY)
