"""Every event type is declared once, in games/rules/events.py, with its redaction rule."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from games.rules import events as ev
from games.rules.audit import CHECKS, NOTHING_TO_CHECK
from games.rules.evolve import HANDLERS, NO_STATE_CHANGE, UnknownEventType, evolve, replay
from games.rules.sight import Sight
from tests.rules.support import given, started


def alone(seat):
    """The sight of a seat playing for itself, without fog."""
    return Sight(seat, frozenset() if seat is None else frozenset([seat]))

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = ("accounts", "config", "games", "moderation", "notifications")


def test_every_declared_type_has_an_evolve_handler_or_is_declared_to_change_nothing():
    assert set(HANDLERS) == set(ev.EVENT_TYPES)
    assert all(HANDLERS[name] is HANDLERS[ev.CHAT_HIDDEN] for name in NO_STATE_CHANGE)


def test_every_declared_type_has_an_audit_check_or_is_declared_to_need_none():
    assert set(CHECKS) | set(NOTHING_TO_CHECK) == set(ev.EVENT_TYPES)
    assert not set(CHECKS) & set(NOTHING_TO_CHECK)


def test_evolve_refuses_an_event_of_a_type_it_does_not_know():
    state = given(started())
    with pytest.raises(UnknownEventType, match="something_new"):
        evolve(state, ev.Event(state.version + 1, "something_new", {}))
    with pytest.raises(UnknownEventType, match="something_new"):
        replay([ev.Event(state.version + 1, "something_new", {})], state)


def test_the_moderator_events_are_the_ones_declared_as_such():
    assert ev.MODERATOR_EVENTS == {
        ev.GAME_PAUSED, ev.GAME_RESUMED, ev.GAME_ABORTED, ev.MODERATOR_ENDED_TURN,
        ev.PLAYER_DROPPED, ev.DEADLINE_EXTENDED, ev.PLAYER_REPLACED, ev.CHAT_HIDDEN}


def test_no_production_module_spells_an_event_type_itself():
    spelled = {}
    pattern = re.compile("^(" + "|".join(ev.EVENT_TYPES) + ")$")
    for package in PRODUCTION:
        for path in (ROOT / package).rglob("*.py"):
            # errors.py: error codes are another namespace ("game_paused" is one as well).
            if "migrations" in path.parts or path.name in ("events.py", "upcasters.py",
                                                           "errors.py"):
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                        and pattern.match(node.value):
                    spelled.setdefault(str(path.relative_to(ROOT)), []).append(node.value)
    assert spelled == {}


def test_an_undeclared_type_shows_nothing_before_the_end():
    assert ev.redact("something_new", {"card": 7}, alone(0)) == {}


def test_an_undeclared_field_shows_nothing_before_the_end():
    data = {"seat": 1, "turn": 4, "base": 3, "continents": {}, "total": 3, "hand": [7]}
    assert ev.redact(ev.TURN_STARTED, data, alone(0)) == {
        key: value for key, value in data.items() if key != "hand"}


def test_each_redaction_keeps_the_owner_s_view_whole():
    data = {"seat": 1, "card": 12}
    assert ev.redact(ev.CARD_DRAWN, data, alone(1)) == data
    assert ev.redact(ev.CARD_DRAWN, data, alone(0)) == {"seat": 1}
    assert ev.redact(ev.CARD_DRAWN, data, alone(None)) == {"seat": 1}
    taken = {"seat": 2, "by": 0, "cards": [1, 2, 3]}
    assert ev.redact(ev.PLAYER_ELIMINATED, taken, alone(0)) == taken
    assert ev.redact(ev.PLAYER_ELIMINATED, taken, alone(2)) == taken
    assert ev.redact(ev.PLAYER_ELIMINATED, taken, alone(1))["cards"] == 3
    deck = {"cards": list(range(44))}
    assert ev.redact(ev.DECK_SHUFFLED, deck, alone(0)) == {"count": 44}
    missions = {"missions": [3, 5, 9]}
    assert ev.redact(ev.MISSIONS_DEALT, missions, alone(1)) == {"missions": [None, 5, None]}
