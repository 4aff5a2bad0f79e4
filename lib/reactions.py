"""The consequences declared once, in settings.CONQUEST_REACTIONS (config/reactions.py):
a lower layer names the kind of news and calls `reactions(kind)` in order, knowing none of
the apps that listen."""

from __future__ import annotations

from django.conf import settings
from django.utils.module_loading import import_string

_resolved: dict[str, tuple[list, list]] = {}


def reactions(kind: str) -> list:
    """The functions settings.CONQUEST_REACTIONS[kind] names, in order, imported once
    (again if a test replaces the list)."""
    declared = settings.CONQUEST_REACTIONS.get(kind, ())
    known = _resolved.get(kind)
    if known is None or known[0] is not declared:
        known = _resolved[kind] = (declared, [import_string(path) for path in declared])
    return known[1]


def guards(kind: str) -> list:
    """The functions settings.CONQUEST_NEWS_GUARDS[kind] names: each decides who is told at
    all (it may withhold the news from some) before any reaction to it runs."""
    declared = getattr(settings, "CONQUEST_NEWS_GUARDS", {}).get(kind, ())
    known = _guards.get(kind)
    if known is None or known[0] is not declared:
        known = _guards[kind] = (declared, [import_string(path) for path in declared])
    return known[1]


_guards: dict[str, tuple[list, list]] = {}


def announce(kind: str, *news) -> list:
    """Run the guards of `kind`, then call each reaction to it with the news, in the
    declared order; what each reaction gave."""
    for guard in guards(kind):
        guard(*news)
    return [react(*news) for react in reactions(kind)]
