"""The project's own source, read by the tests that guard it: every production module (each
app, config/, and any package added later) and every template."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Top-level packages that are not the service: what tests it, measures it or sets it up.
NOT_PRODUCTION = {"tests", "benchmarks", "scripts", "var", "build", "static", "locale"}


def production_packages() -> list[str]:
    """Every top-level package of the service, found on disk (a new app is in at once)."""
    return sorted(path.parent.name for path in ROOT.glob("*/__init__.py")
                  if path.parent.name not in NOT_PRODUCTION
                  and not path.parent.name.startswith("."))


def production_modules() -> Iterator[tuple[str, ast.Module]]:
    """(path relative to the repository, parsed module) of every production module but the
    migrations."""
    for package in production_packages():
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path.relative_to(ROOT).as_posix(), ast.parse(path.read_text())


def templates() -> Iterator[tuple[str, str]]:
    """(path relative to the repository, text) of every template, the project's own and
    every app's."""
    folders = [ROOT / "templates", *(ROOT / p / "templates" for p in production_packages())]
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and path.suffix in (".html", ".txt", ".xml", ".json"):
                yield path.relative_to(ROOT).as_posix(), path.read_text()


_TAG = re.compile(r"{%.*?%}|{{.*?}}", re.DOTALL)
_QUOTED = re.compile(r"""(["'])(.*?)\1""")


def template_literals(text: str) -> list[str]:
    """The quoted strings of a template's own language ({% if kind == "x" %}, {{ "x" }}):
    what the template compares and says itself, not its HTML's attribute values."""
    return [quoted.group(2) for tag in _TAG.findall(text) for quoted in _QUOTED.finditer(tag)]
