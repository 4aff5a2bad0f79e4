"""Imports run one way: nothing under games/ imports the apps that react to it, lib/ imports
no app, and the production modules form no import circle. Imports inside functions count:
an import hidden in a function is still a dependency."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOT_PRODUCTION = ("tests", "benchmarks", "scripts", ".venv", "var", "build", "static",
                  "locale", "node_modules")
ABOVE_GAMES = {"notifications", "ratings", "tournaments", "moderation", "conversations", "web"}
# Private messages stand on games, accounts, moderation and notifications: none of those
# (nor lib) imports them.
BELOW_CONVERSATIONS = {"accounts", "bots", "games", "lib", "moderation", "notifications"}
APPS = {"accounts", "bots", "config", "games", *ABOVE_GAMES}


def production_modules() -> dict[str, Path]:
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).parts
        if parts[0] in NOT_PRODUCTION or parts[0].startswith(".") or "migrations" in parts:
            continue
        name = ".".join(parts)[:-3].removesuffix(".__init__")
        found[name] = path
    return found


def imports_of(name: str, path: Path, known: dict) -> set[str]:
    """The known modules `name` imports, anywhere in it (relative imports resolved)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*parts, base] if base else parts)
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                       for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def graph() -> dict[str, set[str]]:
    known = production_modules()
    return {name: imports_of(name, path, known) for name, path in known.items()}


def circles(edges: dict[str, set[str]]) -> list[set[str]]:
    """Strongly connected groups of more than one module (Tarjan's, without recursion)."""
    index, low, on_stack, stack, found, counter = {}, {}, set(), [], [], 0
    for start in edges:
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(group)
    return found


def test_games_imports_none_of_the_apps_that_react_to_it():
    upward = sorted(f"{name} -> {target}" for name, targets in graph().items()
                    if name.split(".")[0] == "games"
                    for target in targets if target.split(".")[0] in ABOVE_GAMES)
    assert upward == []


def test_lib_imports_no_app():
    into_apps = sorted(f"{name} -> {target}" for name, targets in graph().items()
                       if name.split(".")[0] == "lib"
                       for target in targets if target.split(".")[0] in APPS)
    assert into_apps == []


def test_nothing_below_private_messages_imports_them():
    upward = sorted(f"{name} -> {target}" for name, targets in graph().items()
                    if name.split(".")[0] in BELOW_CONVERSATIONS
                    for target in targets if target.split(".")[0] == "conversations")
    assert upward == []


def test_production_modules_form_no_import_circle():
    assert circles(graph()) == []


def test_it_sees_an_import_inside_a_function(tmp_path):
    """The check can fail: a function-level import upward is found as one at the top."""
    module = tmp_path / "hidden.py"
    module.write_text("def later():\n    from notifications.outbox import rows_for\n")
    known = {"hidden": module, "notifications.outbox": module}
    assert imports_of("hidden", module, known) == {"notifications.outbox"}
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]
