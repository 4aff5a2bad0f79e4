"""Every consequence is declared in config/reactions.py: outside the notifications app (the
outbox's owner, whose reactions config lists) no production module writes outbox rows;
only reactions, tasks and the publishers hand work to the workers; and only config.apps
connects a signal's receiver."""

from __future__ import annotations

import ast

from tests.test_imports import production_modules

ROW_WRITES = {"create", "bulk_create", "get_or_create", "update_or_create"}
PUBLISHING = {"on_commit", "publish_later", "send_task", "apply_async", "delay"}


def _name(node) -> str:
    """The dotted name a call is made on ("publish.on_commit", "Notification.objects.create")."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


def slips(modules: dict) -> list[str]:
    found = []
    for name, path in modules.items():
        folder, leaf = name.split(".")[0], name.rpartition(".")[2]
        publisher = leaf in ("reactions", "tasks") or folder in ("lib", "notifications") \
            or name == "live.publish"
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            called = _name(node.func)
            last = called.rpartition(".")[2]
            if folder != "notifications" and (
                    called in ("Notification", "write_outbox_rows", "outbox.write_outbox_rows")
                    or called.startswith("Notification.objects.") and last in ROW_WRITES):
                found.append(f"{name} writes outbox rows: {called}")
            if not publisher and last in PUBLISHING and called not in (
                    "transaction.on_commit",):
                found.append(f"{name} publishes: {called}")
            if folder != "config" and last == "connect" and called.split(".")[0] != "sqlite3":
                found.append(f"{name} connects a signal: {called}")
    return sorted(found)


def test_only_the_declared_reactions_write_mail_publish_or_connect_signals():
    assert slips(production_modules()) == []


def test_it_sees_each_kind_of_slip(tmp_path):
    module = tmp_path / "slip.py"
    module.write_text(
        "def f(game, rows, signal, receiver):\n"
        "    Notification.objects.bulk_create(rows)\n"
        "    publish.on_commit(task, (1,))\n"
        "    signal.connect(receiver)\n"
        "    sqlite3.connect('x')\n")
    assert slips({"tournaments.services": module}) == [
        "tournaments.services connects a signal: signal.connect",
        "tournaments.services publishes: publish.on_commit",
        "tournaments.services writes outbox rows: Notification.objects.bulk_create"]
    assert slips({"config.apps": module}) == [
        "config.apps publishes: publish.on_commit",
        "config.apps writes outbox rows: Notification.objects.bulk_create"]
