"""Each operation of the OpenAPI schema lists the refusals its view and the services it calls
answer: for each app, every status and code its source answers with is on one of the app's
operations, so a refusal added without its declaration beside the view fails here."""

from __future__ import annotations

import inspect
import re
from collections import defaultdict
from pathlib import Path

import pytest
from django.urls import resolve
from rest_framework.test import APIClient

ROOT = Path(__file__).resolve().parents[1]
APPS = ("accounts", "conversations", "games", "live", "lobby", "moderation", "notifications",
        "ratings", "tournaments")
# A refusal in the source: ServiceError(403, "not_seated", ...), error(...), Refused(...).
REFUSAL = re.compile(r"(?:ServiceError|error|Refused)\(\s*(\d{3}),\s*\"([a-z_]+)\"")
DEF = re.compile(r"^\s*(?:async )?def (\w+)", re.MULTILINE)

# The refusals no operation of their own app answers, by function (or module): the apps
# whose operations do, none for the moderation pages' only. The games' moderator checks:
# the ratings' and tournaments' moderator operations; handing a seat over: the tournaments'
# replace. The other moderator actions on a game (a tournament's games are started when
# drawn, and its cancel takes the games' refusals in its stride), hiding a chat line or a
# message, closing a report: only the moderation pages, with the refusal in their words.
ELSEWHERE = {
    "games/moderation.py:check_moderator": ("ratings", "tournaments"),
    "games/moderation.py:check_not_playing": ("ratings", "tournaments"),
    "games/moderation.py:_replacement": ("tournaments",),
    "games/moderation.py:moderate": (), "games/moderation.py:_extension": (),
    "moderation/chat.py:check_hider": (), "moderation/chat.py:hide_message": (),
    "moderation/reports.py:check_closer": (), "moderation/reports.py:close_report": (),
    "conversations/reports.py:_check": (), "conversations/reports.py:close": (),
    "conversations/reports.py:hide": (),
}


@pytest.fixture(scope="module")
def schema():
    answer = APIClient().get("/api/v1/schema/?format=json")
    assert answer.status_code == 200
    return answer.json()


def refusals(app: str):
    """Each refusal in the app's source: (status, code), its module and its function."""
    for source in sorted((ROOT / app).rglob("*.py")):
        text, module = source.read_text(), str(source.relative_to(ROOT))
        for match in REFUSAL.finditer(text):
            function = [d[1] for d in DEF.finditer(text, 0, match.start())]
            yield (int(match[1]), match[2]), module, function[-1] if function else ""


def answering(module: str, function: str, app: str) -> tuple[str, ...]:
    """The apps whose operations answer a refusal of `module`'s `function`."""
    return ELSEWHERE.get(f"{module}:{function}", ELSEWHERE.get(module, (app,)))


def view_of(path: str):
    """The view (a class, or a function) that answers this path of the schema."""
    view = resolve(re.sub(r"\{[^}]+\}", "1", path)).func
    return getattr(view, "view_class", view)


def app_of(path: str) -> str:
    return view_of(path).__module__.split(".")[0]


def answered(schema) -> dict[str, set[tuple[int, str]]]:
    """Each app's (status, code) pairs, over all its operations in the schema."""
    found = defaultdict(set)
    for path, operations in schema["paths"].items():
        for operation in operations.values():
            for status, response in operation["responses"].items():
                for code in response.get("x-error-codes", ()):
                    found[app_of(path)].add((int(status), code))
    return found


@pytest.mark.parametrize("app", APPS)
def test_every_refusal_of_an_app_is_on_one_of_its_operations(schema, app):
    on_operations = answered(schema)
    missing = {}
    for refusal, module, function in refusals(app):
        apps = answering(module, function, app)
        if apps and not any(refusal in on_operations[other] for other in apps):
            missing.setdefault(refusal, []).append(f"{module}:{function}")

    assert not missing, f"declare these beside the views that answer them: {missing}"


def test_each_view_lists_the_refusals_it_answers_itself(schema):
    """Finer, for what a view's method answers in its own body: on its own operation."""
    missing = []
    for path, operations in schema["paths"].items():
        view = view_of(path)
        for method, operation in operations.items():
            handler = getattr(view, method, None) if inspect.isclass(view) else view
            listed = {(int(status), code) for status, response in operation["responses"].items()
                      for code in response.get("x-error-codes", ())}
            for match in REFUSAL.finditer(inspect.getsource(handler)):
                if (int(match[1]), match[2]) not in listed:
                    missing.append((method, path, int(match[1]), match[2]))

    assert not missing


def test_every_app_with_operations_is_checked(schema):
    on_operations = answered(schema)

    assert set(on_operations) == set(APPS)  # a new app's operations: add it to APPS
    for app in APPS:
        assert on_operations[app] and any(refusals(app)), app


def test_each_refusal_answered_elsewhere_is_still_in_the_source():
    found = set()
    for app in APPS:
        for _, module, function in refusals(app):
            found |= {module, f"{module}:{function}"}
    assert set(ELSEWHERE) <= found, set(ELSEWHERE) - found
