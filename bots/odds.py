"""The battle odds the computer players plan with: the project's one odds model
(games.odds), whose all-out table answers a conquest chance in a lookup."""

from __future__ import annotations

from games.odds import armies_left, battle, conquer_probability

__all__ = ["armies_left", "battle", "conquer_probability"]
