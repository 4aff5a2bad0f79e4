"""The wiring (config/reactions.py) names the project's functions by import: a wrong name
fails when the module is imported, and no setting names the project's code in a string."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from django.conf import settings

from config import reactions as wiring
from lib.reactions import reactions, wired

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {path.parent.name for path in ROOT.glob("*/__init__.py")}


def test_it_fails_at_import_on_a_wrong_name(tmp_path):
    source = (ROOT / "config" / "reactions.py").read_text()
    assert "publish.game_moved," in source
    broken = tmp_path / "broken_wiring.py"
    broken.write_text(source.replace("publish.game_moved,", "publish.game_moves,", 1))
    spec = importlib.util.spec_from_file_location("broken_wiring", broken)
    with pytest.raises(AttributeError, match="game_moves"):
        spec.loader.exec_module(importlib.util.module_from_spec(spec))
    sys.modules.pop("broken_wiring", None)


def test_it_hands_every_declaration_over_as_functions_in_order():
    assert reactions("after_commit") == wiring.REACTIONS["after_commit"]
    assert wired("STANDING_ORDERS") == wiring.STANDING_ORDERS
    for kind, listed in wiring.REACTIONS.items():
        assert listed and all(callable(react) for react in listed), kind
    for _signal, receiver in wiring.SIGNALS:
        assert callable(receiver)
    assert all(callable(flag) for flag in wiring.SEAT_FLAGS.values())
    # In the declared order: the outbox's rows first.
    assert reactions("in_transaction")[0] is wiring.mail_reactions.outbox_rows


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def test_no_conquest_setting_names_the_projects_code_in_a_string():
    named = [(name, text) for name in dir(settings) if name.startswith("CONQUEST_")
             for text in _strings(getattr(settings, name))
             if text.split(".")[0] in PACKAGES and "." in text and " " not in text]
    assert named == []
