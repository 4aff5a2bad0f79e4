"""The battle odds the computer players plan with: the project's one odds model
(games.odds), whose all-out table answers a conquest chance in a lookup."""

from __future__ import annotations

# Re-exported by name (`x as x`): a list of the names as strings would spell the `battle`
# event type outside the engine's declaration of it (tests/rules/test_events.py).
from games.odds import armies_left as armies_left
from games.odds import battle as battle
from games.odds import conquer_probability as conquer_probability
