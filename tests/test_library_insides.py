"""The service leans on its libraries' public interfaces only: no private attribute of
Django, DRF, Celery, kombu, axes, redis-py or psycopg is read or written by production code
(a minor release may rename any of them). What is hand-written for speed sits behind the
project's own small interfaces (accounts.throttles, lib.sql), each docstring naming the
bench figure it holds up."""

from __future__ import annotations

import ast

from tests.source import production_modules

# Private names of the libraries' objects the project has used (or might reach for): a
# request's wrapped request, a cache proxy's backend, a Redis cache's client, a Celery app's
# pools, a cursor's executors, a file cache's folder, a response's logged flag.
LIBRARY_INSIDES = {
    "_request", "_connections", "_alias", "_cache", "_servers", "_client", "_pool",
    "_producer_pool", "_execute", "_execute_with_wrappers", "_executemany", "_dir",
    "_has_been_logged", "_loop_thread", "_closed", "_prepared", "_pgconn",
}
# Documented by Django itself: a model's options and its instance's state.
DOCUMENTED = {"_meta", "_state"}


def test_no_production_module_reaches_into_a_librarys_private_attributes():
    found = []
    for path, module in production_modules():
        for node in ast.walk(module):
            if isinstance(node, ast.Attribute) and node.attr in LIBRARY_INSIDES:
                owner = node.value.id if isinstance(node.value, ast.Name) else ""
                if owner not in ("self", "cls"):
                    found.append(f"{path}:{node.lineno} .{node.attr}")
    assert found == []


def test_the_guard_sees_what_it_looks_for():
    module = ast.parse("request._request.session\ncache._connections[cache._alias]\n")
    seen = {node.attr for node in ast.walk(module)
            if isinstance(node, ast.Attribute) and node.attr in LIBRARY_INSIDES}
    assert seen == {"_request", "_connections", "_alias"}
    assert not DOCUMENTED & LIBRARY_INSIDES
