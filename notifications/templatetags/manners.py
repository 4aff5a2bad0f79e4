"""`view|your_decision`: whether the game waits for the viewer (the tab title says so)."""

from __future__ import annotations

from django import template

register = template.Library()

# What a seated player may always do, whoever's move it is.
_STANDING = {"set_defense", "set_neutral_defense", "resign"}


@register.filter
def your_decision(view) -> bool:
    """The engine's "what may I do now" (view.you.may) holds a decision, not only the
    standing orders every seat may give at any time."""
    you = (view or {}).get("you") or {}
    return bool(set((you.get("may") or {}).get("commands", [])) - _STANDING)
