"""The consequences declared once, in settings.CONQUEST_REACTIONS (config/reactions.py):
a lower layer names the kind of news and calls `reactions(kind)` in order, knowing none of
the apps that listen."""

from __future__ import annotations

from django.conf import settings
from django.utils.module_loading import import_string

_resolved: dict[int, tuple[object, list]] = {}


def resolved(declared) -> list:
    """The functions a declared list of dotted paths names, in order, imported once (again
    when a test or a deployment replaces the list): the one lookup behind every list the
    wiring declares (reactions, guards, mail parts, standing orders, checks)."""
    known = _resolved.get(id(declared))
    if known is None or known[0] is not declared:  # holding `declared` keeps its id unique
        known = _resolved[id(declared)] = (declared, [import_string(path) for path in declared])
    return known[1]


def reactions(kind: str) -> list:
    """The functions settings.CONQUEST_REACTIONS[kind] names, in order."""
    return resolved(settings.CONQUEST_REACTIONS.get(kind, ()))


def guards(kind: str) -> list:
    """The functions settings.CONQUEST_NEWS_GUARDS[kind] names: each decides who is told at
    all (it may withhold the news from some) before any reaction to it runs."""
    return resolved(getattr(settings, "CONQUEST_NEWS_GUARDS", {}).get(kind, ()))


def announce(kind: str, *news) -> list:
    """Run the guards of `kind`, then call each reaction to it with the news, in the
    declared order; what each reaction gave."""
    for guard in guards(kind):
        guard(*news)
    return [react(*news) for react in reactions(kind)]
