"""Computer players: pure Python like the rules engine (no Django), each a function of one
seat's view of the game and the game's public rules, answering one JSON command of
docs/bots/contract.md. `choose(view, rules, level, rnd)` is the whole interface."""

from .play import choose
from .styles import STYLES

LEVELS = tuple(STYLES)

__all__ = ["LEVELS", "choose"]
