"""games/rules stays pure Python: no Django, DRF or Celery import anywhere in it."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "games" / "rules"
FRAMEWORKS = ("django", "rest_framework", "celery", "kombu", "redis")


def test_it_imports_no_framework_in_any_module():
    for path in RULES.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert name.split(".")[0] not in FRAMEWORKS, f"{path.name} imports {name}"


def test_it_loads_without_any_framework_in_the_process():
    code = (
        "import sys, games.rules, tests.rules.players\n"
        f"bad = [m for m in sys.modules if m.split('.')[0] in {FRAMEWORKS!r}]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=RULES.parents[1])
