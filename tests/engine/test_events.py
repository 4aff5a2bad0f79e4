"""Every event type is declared once, in engine/events.py, with its redaction rule."""

from __future__ import annotations

import ast
import re

import pytest

from engine import events as ev
from engine.audit import CHECKS, NOTHING_TO_CHECK
from engine.evolve import HANDLERS, NO_STATE_CHANGE, UnknownEventType, evolve, replay
from engine.sight import Sight
from tests.engine.support import given, started
from tests.source import production_modules, template_literals, templates


def alone(seat):
    """The sight of a seat playing for itself, without fog."""
    return Sight(seat, frozenset() if seat is None else frozenset([seat]))

# The modules that declare the types or map old names onto them; errors.py: error codes are
# another namespace ("game_paused" is one as well).
SPELL_THEM = ("engine/events.py", "engine/upcasters.py", "engine/errors.py",
              # The user stream's notice kinds (docs/bots/streams.md): another vocabulary,
              # which shares two names (game_started, game_finished) with the event types.
              "live/lookups.py")
# Templates that still tell moderator events in their own words: issue 27 (item 4) has them
# use the narrator; take them off this list then.
NOT_YET = {"templates/mail/notification.html", "templates/mail/notification.txt"}


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
    """Every app, config/ and every template (its own tags: {% if kind == "battle" %})."""
    spelled = {}
    pattern = re.compile("^(" + "|".join(ev.EVENT_TYPES) + ")$")
    for path, tree in production_modules():
        if path in SPELL_THEM:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and pattern.match(node.value):
                spelled.setdefault(path, []).append(node.value)
    for path, text in templates():
        for literal in template_literals(text):
            if pattern.match(literal) and path not in NOT_YET:
                spelled.setdefault(path, []).append(literal)
    assert spelled == {}


def test_the_guard_reads_every_app_and_template():
    """The scan above finds a spelled type in a template's tag, not in its HTML."""
    found = template_literals('<li class="battle">{% if event.type == "battle" %}{{ "x" }}')
    assert found == ["battle", "x"]
    read = {path.split("/")[0] for path, _ in production_modules()}
    assert {"accounts", "bots", "config", "games", "moderation", "notifications", "ops",
            "ratings", "tournaments", "web"} <= read
    assert {path for path, _ in templates()} >= NOT_YET | {"templates/games/_log.html"}


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
