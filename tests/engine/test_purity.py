"""The engine is a package of its own: it imports the standard library and itself, nothing of
the project and no framework, so the verifier and the reference client can share it without
Django; the computer players (bots/) import the engine and nothing else of the project."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FRAMEWORKS = ("django", "rest_framework", "celery", "kombu", "redis")


def imported(path: Path) -> set[str]:
    """The top-level names a module imports (relative imports stay inside its package)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add((node.module or "").split(".")[0])
    return names


def outside(package: str, allowed: set[str]) -> dict[str, set[str]]:
    modules = sorted((ROOT / package).rglob("*.py"))
    assert len(modules) > 5, f"{package}/ holds too few modules: the test looks in the wrong place"
    found = {}
    for path in modules:
        extra = imported(path) - set(sys.stdlib_module_names) - allowed
        if extra:
            found[str(path.relative_to(ROOT))] = extra
    return found


def test_the_engine_imports_only_the_standard_library_and_itself():
    assert outside("engine", {"engine"}) == {}


def test_the_computer_players_import_only_the_engine():
    assert outside("bots", {"engine", "bots"}) == {}


def test_it_notices_an_import_of_the_project(tmp_path, monkeypatch):
    (tmp_path / "engine").mkdir()
    for index in range(6):
        (tmp_path / "engine" / f"m{index}.py").write_text("import json\n")
    (tmp_path / "engine" / "m0.py").write_text("from games.models import Game\nimport django\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert outside("engine", {"engine"}) == {"engine/m0.py": {"games", "django"}}


def test_it_loads_without_any_framework_in_the_process():
    code = (
        "import sys, engine, engine.maps, engine.odds, engine.audit, bots, bots.arena\n"
        f"bad = [m for m in sys.modules if m.split('.')[0] in {FRAMEWORKS!r} + ('games',)]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
