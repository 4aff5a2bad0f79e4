"""The contributors' recipes (docs/contributors/extending.md) name the files a change
touches: every file or folder a recipe names exists, so a recipe cannot go stale silently."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECIPES = ROOT / "docs" / "contributors" / "extending.md"
# A path in backticks: folders and a file's name with its extension (NAME: the kind's own).
PATH = re.compile(r"`((?:[a-z_]+/)+(?:[A-Za-z_.]+\.[a-z]+)?)`")


def named_paths(text: str) -> list[str]:
    return sorted({found.replace("NAME", "turn") for found in PATH.findall(text)})


def test_every_file_a_recipe_names_exists():
    named = named_paths(RECIPES.read_text())
    assert len(named) > 30
    assert [path for path in named if not (ROOT / path).exists()] == []


def test_it_would_see_a_file_that_does_not_exist():
    assert named_paths("touch `engine/gone.py` and `templates/mail/kinds/NAME.txt`") == [
        "engine/gone.py", "templates/mail/kinds/turn.txt"]
    assert not (ROOT / "engine/gone.py").exists()
