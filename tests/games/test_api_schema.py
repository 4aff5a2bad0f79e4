"""GET /api/v1/schema/: what a bot can be written from."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rest_framework.test import APIClient

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def schema():
    answer = APIClient().get("/api/v1/schema/?format=json")
    assert answer.status_code == 200
    return answer.json()


def operations(schema):
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield path, method, operation


def module_names() -> set[str]:
    names = set()
    for source in ROOT.rglob("*.py"):
        if ".venv" not in source.parts and "var" not in source.parts:
            names |= {source.stem, source.parent.name}
    return names - {"__init__", ""}


def test_each_operation_says_what_it_does_without_naming_a_module(schema):
    modules = module_names()
    for path, method, operation in operations(schema):
        description = operation.get("description", "")
        assert description.strip(), (method, path)
        for first, _ in re.findall(r"\b([a-z_]+)\.([a-z_]+)\b", description):
            assert first not in modules, (method, path, description)
