"""Imports run one way: each top-level folder has a place in one order and imports only
folders below it, nothing under games/ imports the apps that react to it, lib/ imports no
app, and the production modules form no import circle. Imports inside functions count:
an import hidden in a function is still a dependency."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOT_PRODUCTION = ("tests", "benchmarks", "scripts", "docs", ".venv", "var", "build", "static",
                  "locale", "node_modules")
ABOVE_GAMES = {"notifications", "ratings", "tournaments", "moderation", "conversations", "web"}
# Private messages stand on games, accounts, moderation and notifications: none of those
# (nor lib) imports them.
BELOW_CONVERSATIONS = {"accounts", "bots", "games", "lib", "moderation", "notifications"}
APPS = {"accounts", "bots", "config", "games", *ABOVE_GAMES}
# Every top-level folder's place, top first: a folder imports only folders in the layers
# below its own, never one beside or above it (README "Architecture" draws this order).
LAYERS = [
    ("manage", "config"),  # Django's entry point; settings, URLs, the Celery app, reactions
    ("web",),  # the pages
    ("live", "ops", "tournaments"),  # streams; health and metrics; tournaments' rounds
    ("conversations",),  # private messages
    ("moderation",),  # reports, chat, moderators' actions
    ("notifications",),  # the outbox, mail in and out, push, deadlines' reminders
    ("ratings",),  # ratings, players' records, luck
    ("lobby",),  # making games: creation, invitations, challenges, rematches, seating
    ("games",),  # the game core: the log, submit, the clock, what a seat may see
    ("accounts", "bots", "words"),  # users, tokens, preferences; computer players; words
    ("engine", "lib", "clients"),  # the pure rules; plumbing; the reference API client
]


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


def layer_breaches(edges: dict[str, set[str]], layers: list[tuple]) -> list[str]:
    """Imports between top-level folders that do not go to a lower layer, and folders that
    have no place in the order."""
    place = {folder: depth for depth, layer in enumerate(layers) for folder in layer}
    found = set()
    for name, targets in edges.items():
        source = name.split(".")[0]
        if source not in place:
            found.add(f"{source}/ has no place in LAYERS")
            continue
        for target in targets:
            folder = target.split(".")[0]
            if folder != source and place.get(folder, -1) <= place[source]:
                found.add(f"{source} -> {folder} ({name} -> {target})")
    return sorted(found)


def test_each_folder_imports_only_the_folders_below_it():
    assert layer_breaches(graph(), LAYERS) == []


def test_it_sees_a_folder_importing_one_beside_or_above_it():
    edges = {"a.x": {"b.y"}, "b.y": {"c.z"}, "c.z": set(), "d.w": set()}
    assert layer_breaches(edges, [("a",), ("b",), ("c",), ("d",)]) == []
    assert layer_breaches(edges, [("a",), ("b", "c"), ("d",)]) == ["b -> c (b.y -> c.z)"]
    assert layer_breaches(edges, [("b",), ("a",), ("c",)]) == [
        "a -> b (a.x -> b.y)", "d/ has no place in LAYERS"]


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


def _top_level_names(path: Path) -> tuple[set[str], set[str], set[str]]:
    """(names a module defines, names it imports, names its __all__ exports)."""
    defined, imported, exported = set(), set(), set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
            defined |= names
            if "__all__" in names and isinstance(node.value, (ast.List, ast.Tuple)):
                exported |= {e.value for e in node.value.elts if isinstance(e, ast.Constant)}
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            imported |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return defined, imported, exported


def borrowed_names(known: dict[str, Path]) -> list[str]:
    """`module.name` uses where `module` only imports `name` from elsewhere (and does not
    export it in `__all__`, as a package's facade does): the user depends on the middle
    module's imports instead of on where the name is defined."""
    found, names = [], {}
    for name, path in known.items():
        tree = ast.parse(path.read_text())
        aliases = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                aliases.update({a.asname or a.name: f"{node.module}.{a.name}"
                                for a in node.names if f"{node.module}.{a.name}" in known})
            elif isinstance(node, ast.Import):
                aliases.update({a.asname: a.name for a in node.names
                                if a.asname and a.name in known})
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in aliases):
                continue
            target = aliases[node.value.id]
            if target not in names:
                names[target] = _top_level_names(known[target])
            defined, imported, exported = names[target]
            if node.attr in imported and node.attr not in defined | exported \
                    and f"{target}.{node.attr}" not in known:
                found.append(f"{name}: {node.value.id}.{node.attr} is {target}'s import")
    return sorted(set(found))


def test_names_are_reached_where_they_are_defined_or_exported():
    assert borrowed_names(production_modules()) == []


def test_it_sees_a_name_borrowed_from_another_module_s_imports(tmp_path):
    middle, user = tmp_path / "middle.py", tmp_path / "user.py"
    middle.write_text("from origin import check\n__all__ = []\n")
    user.write_text("from pkg import middle as m\nm.check(1)\n")
    assert borrowed_names({"pkg.middle": middle, "user": user}) == [
        "user: m.check is pkg.middle's import"]
    middle.write_text("from origin import check\n__all__ = ['check']\n")
    assert borrowed_names({"pkg.middle": middle, "user": user}) == []
