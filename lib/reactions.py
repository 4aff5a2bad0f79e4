"""The hand-off of the wiring (config/reactions.py, the one module that lists every
reaction, guard, mail part, seat flag, standing order and signal as imported functions):
config.apps hands it over once the apps are ready, and a lower layer reads a declared list
here by name (`reactions(kind)`, `wired("MAIL_PARTS")`), knowing none of the apps."""

from __future__ import annotations

import contextlib
import types

# The wiring handed over by config.apps; empty until then (a lower layer's own tests run
# with the whole project's apps, so always with it).
_wiring: types.SimpleNamespace = types.SimpleNamespace()


def wire(module) -> None:
    """Take the wiring's declarations (config.apps.WiringConfig.ready, once)."""
    global _wiring
    _wiring = types.SimpleNamespace(**{name: value for name, value in vars(module).items()
                                       if name.isupper()})


def wired(name: str, default=()):
    """One declaration of the wiring (REACTIONS, NEWS_GUARDS, MAIL_PARTS, SEAT_FLAGS,
    STANDING_ORDERS, ON_VACATION, MODERATOR_STAKES, BOT_ACCOUNT_CHECKS, MODERATION_SECTIONS,
    SIGNALS), or `default` before the wiring is handed over."""
    return getattr(_wiring, name, default)


@contextlib.contextmanager
def rewired(**declarations):
    """The wiring with some declarations replaced while the block runs (a test's own
    reaction, a bench without one), then as it was."""
    global _wiring
    kept = _wiring
    _wiring = types.SimpleNamespace(**{**vars(kept), **declarations})
    try:
        yield
    finally:
        _wiring = kept


def reactions(kind: str) -> list:
    """The reactions to `kind` the wiring declares (REACTIONS[kind]), in order."""
    return wired("REACTIONS", {}).get(kind, ())


def guards(kind: str) -> list:
    """NEWS_GUARDS[kind]: each decides who is told at all (it may withhold the news from
    some) before any reaction to it runs."""
    return wired("NEWS_GUARDS", {}).get(kind, ())


def announce(kind: str, *news) -> list:
    """Run the guards of `kind`, then call each reaction to it with the news, in the
    declared order; what each reaction gave."""
    for guard in guards(kind):
        guard(*news)
    return [react(*news) for react in reactions(kind)]
