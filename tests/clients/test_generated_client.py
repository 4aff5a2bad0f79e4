"""A typed client generated from the OpenAPI schema alone (openapi-python-client, pinned in the
dev lock) signs two players up and plays a game between them to its end, reading every answer
as the generated models: the view's `you.may`, `pending`, `tradeable_sets` and territories, the
commands, a 409's `current_version`, and the finished view's winner."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from rest_framework.test import APIClient

BIN = Path(sys.executable).parent
PACKAGE = "conquest_api"


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """The client package, generated into a temporary folder and imported."""
    folder = tmp_path_factory.mktemp("generated")
    schema = folder / "schema.json"
    answer = APIClient().get("/api/v1/schema/?format=json")
    schema.write_text(json.dumps(answer.json()))
    # No formatting of the generated files (its default post hooks run ruff over them).
    config = folder / "config.yaml"
    config.write_text("post_hooks: []\n")
    done = subprocess.run(
        [str(BIN / "openapi-python-client"), "generate", "--path", str(schema), "--meta",
         "none", "--config", str(config), "--output-path", str(folder / PACKAGE)],
        capture_output=True, text=True, cwd=folder)
    assert done.returncode == 0, done.stdout + done.stderr
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


@pytest.fixture
def in_process(db):
    """The service answers in this thread, inside the test's transaction: as Django's test
    client does, a request neither opens nor closes the database connection."""
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


def api(generated, name: str):
    return importlib.import_module(f"{PACKAGE}.api.{name}")


def models(generated):
    return importlib.import_module(f"{PACKAGE}.models")


def client_of(generated, token: str | None = None):
    """A client of the generated package talking to the service in this process."""
    transport = httpx.WSGITransport(app=get_wsgi_application())
    if token is None:
        return generated.Client(base_url="http://testserver", httpx_args={"transport": transport})
    return generated.AuthenticatedClient(base_url="http://testserver", token=token,
                                         prefix="Token", httpx_args={"transport": transport})


def sign_up(generated, name: str):
    m = models(generated)
    account = api(generated, "accounts.accounts_create").sync(
        client=client_of(generated), body=m.AccountIn.from_dict({
            "username": name, "email": f"{name}@example.com", "password": "a-long-secret-1"}))
    assert isinstance(account, m.AccountOut), account
    return client_of(generated, account.token)


def command(generated, kind: str, **fields):
    """A command as its generated model (the schema's one per type, chosen by `type`)."""
    model = getattr(models(generated), "".join(part.title() for part in kind.split("_")))
    return model.from_dict({"type": kind, **fields})


def decide(generated, view, attacked: set):
    """A legal decision from the typed view alone: claim or place where it can, trade when
    it can, one attack a turn, move everything in, then end the turn."""
    you, pending = view.you, view.pending
    may = you.may.commands
    kinds = {str(getattr(kind, "value", kind)) for kind in may}
    own = [t for t, held in view.territories.additional_properties.items()
           if held.owner == you.seat]
    free = [t for t, held in view.territories.additional_properties.items()
            if held.owner is None]
    neutral = [t for t, held in view.territories.additional_properties.items()
               if held.owner == "neutral"]
    if "claim" in kinds:
        return command(generated, "claim", territory=free[0])
    if "choose_capital" in kinds:
        return command(generated, "choose_capital", territory=own[0])
    if "trade" in kinds and you.tradeable_sets:
        return command(generated, "trade", cards=you.tradeable_sets[0])
    if "place_neutral" in kinds:
        return command(generated, "place_neutral",
                       placements={neutral[0]: pending.reinforcements})
    if "place" in kinds:
        return command(generated, "place", placements={own[-1]: pending.reinforcements})
    if "occupy" in kinds:
        return command(generated, "occupy", armies=pending.occupy.max_)
    routes = you.may.attack.additional_properties
    if "attack" in kinds and view.turn not in attacked and routes:
        attacked.add(view.turn)
        source, targets = next(iter(routes.items()))
        return command(generated, "attack", **{"from": source, "to": targets[0],
                                                "repeat": True})
    if "end_turn" in kinds:
        return command(generated, "end_turn")
    return None


def test_a_client_generated_from_the_schema_plays_a_game_to_its_end(generated, in_process):
    m = models(generated)
    games = api(generated, "games.games_create")
    retrieve = api(generated, "games.games_retrieve")
    send = api(generated, "games.games_commands_create")
    alice, bob = sign_up(generated, "alice"), sign_up(generated, "bob")
    created = games.sync(client=alice, body=m.GameIn.from_dict({
        "name": "Typed", "players": 2,
        "rules": {"setup": "random", "initial_placement": "simultaneous"}}))
    assert isinstance(created, m.GameView) and created.you.seat == 0
    joined = api(generated, "games.games_join_create").sync(created.id, client=bob)
    assert isinstance(joined, m.GameView) and joined.status.value == "active"
    seats, attacked, played = {0: alice, 1: bob}, set(), 0

    while played < 400:
        views = {seat: retrieve.sync(created.id, client=client) for seat, client in seats.items()}
        assert all(isinstance(view, m.GameView) for view in views.values())
        if views[0].turn > 6:
            break
        moved = False
        for seat, view in views.items():
            decision = decide(generated, view, attacked)
            if decision is None:
                continue
            decision.expected_version = view.version
            answer = send.sync(created.id, client=seats[seat], body=decision)
            assert isinstance(answer, m.CommandOut), answer
            assert all(isinstance(event, m.Event) for event in answer.events)
            played, moved = played + 1, True
            break
        assert moved, "no seat had a decision to make"

    stale = send.sync(created.id, client=alice,
                      body=command(generated, "set_defense", policy="one", expected_version=1))
    assert stale.current_version == retrieve.sync(created.id, client=alice).version
    send.sync(created.id, client=alice, body=command(generated, "resign"))
    over = retrieve.sync(created.id, client=bob)
    assert over.status.value == "finished" and over.winner == 1
    assert over.finish_reason == "domination" or getattr(over.finish_reason, "value", None) \
        == "domination"
    assert any(event.type_.value == "battle" for event in api(
        generated, "games.games_events_retrieve").sync(created.id, client=bob).events)
