"""Every event type is declared once, in games/rules/events.py, with its redaction rule."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from games.rules import events as ev
from games.rules.evolve import HANDLERS
from games.rules.sight import Sight


def alone(seat):
    """The sight of a seat playing for itself, without fog."""
    return Sight(seat, frozenset() if seat is None else frozenset([seat]))

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = ("accounts", "config", "games", "moderation", "notifications")


def test_every_type_replay_understands_is_declared():
    assert set(HANDLERS) <= set(ev.EVENT_TYPES)


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
